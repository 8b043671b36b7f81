import Foundation
import Testing

/// Keeps `MISUSE.md` and the code in step: every precondition and assertion in `Sources` has a
/// row, every row has a check in the code, and every row's exit test exists and looks for the
/// message.
@Suite("Misuse catalogue")
struct MisuseCatalogueTests {
    /// The package's root folder, found from this file's path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One check in the sources: where it is and the text of its message up to the first
    /// interpolated value.
    struct Check: CustomStringConvertible {
        var file: String
        var line: Int
        var messagePrefix: String
        var description: String { "\(file):\(line) \"\(messagePrefix)\"" }
    }

    /// One row of the catalogue.
    struct Row: CustomStringConvertible {
        var message: String
        var kind: String
        var testFile: String?
        var testName: String?
        var description: String { "\"\(message)\"" }
    }

    static func swiftFiles(under folder: String) throws -> [URL] {
        let base = root.appending(path: folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// Every `precondition`, `preconditionFailure`, `assert`, `assertionFailure` and
    /// `fatalError` call in `Sources`, with the static start of its message.
    static func checksInSources() throws -> [Check] {
        let call = /\b(?:precondition|preconditionFailure|assert|assertionFailure|fatalError)\s*\(/
        var checks: [Check] = []
        for file in try swiftFiles(under: "Sources") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: call) {
                let lineStart = text[..<match.range.lowerBound].lastIndex(of: "\n") ?? text.startIndex
                let linePrefix = text[lineStart..<match.range.lowerBound]
                if linePrefix.contains("//") { continue }  // a comment mentioning one
                if linePrefix.hasSuffix("func ") { continue }  // a method named so (TestStore.assert)
                let line = text[..<match.range.lowerBound].count { $0 == "\n" } + 1
                let relative = String(file.path.dropFirst(root.path.count + 1))
                guard let open = text[match.range.upperBound...].firstIndex(of: "\"") else {
                    checks.append(Check(file: relative, line: line, messagePrefix: ""))
                    continue
                }
                let literal = text[text.index(after: open)...].prefix { $0 != "\"" && $0 != "\n" }
                let prefix = literal.components(separatedBy: "\\(")[0].trimmingCharacters(in: .whitespaces)
                checks.append(Check(file: relative, line: line, messagePrefix: prefix))
            }
        }
        return checks
    }

    /// The rows of every table in `MISUSE.md`.
    static func catalogueRows() throws -> [Row] {
        let text = try String(contentsOf: root.appending(path: "MISUSE.md"), encoding: .utf8)
        var rows: [Row] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { continue }
            let message = String(cells[0].dropFirst().dropLast())
            let test = cells[3].split(separator: "`").map(String.init).filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            rows.append(
                Row(
                    message: message, kind: cells[1],
                    testFile: test.count == 2 ? test[0] : nil, testName: test.count == 2 ? test[1] : nil))
        }
        return rows
    }

    @Test("the sources have checks and the catalogue has rows")
    func bothSidesAreRead() throws {
        #expect(try Self.checksInSources().count >= 40)
        #expect(try Self.catalogueRows().count >= 40)
    }

    @Test("every check in the sources has a message and a row in MISUSE.md")
    func everyCheckIsCatalogued() throws {
        let rows = try Self.catalogueRows()
        for check in try Self.checksInSources() {
            #expect(check.messagePrefix.count >= 10, "\(check): give the check a message that says what went wrong")
            #expect(
                rows.contains { $0.message.hasPrefix(check.messagePrefix) },
                "\(check) has no row in MISUSE.md")
        }
    }

    @Test("every row in MISUSE.md matches a check in the sources")
    func noStaleRows() throws {
        let checks = try Self.checksInSources()
        for row in try Self.catalogueRows() {
            #expect(
                checks.contains { row.message.hasPrefix($0.messagePrefix) && !$0.messagePrefix.isEmpty },
                "\(row) matches no check in Sources")
            #expect(["precondition", "debug assertion", "internal"].contains(row.kind), "\(row): unknown kind")
        }
    }

    @Test("every row names an exit test that exists and checks the message")
    func everyRowHasAnExitTest() throws {
        let checks = try Self.checksInSources()
        for row in try Self.catalogueRows() {
            guard let testFile = row.testFile, let testName = row.testName else {
                #expect(row.kind == "internal", "\(row) names no exit test; only internal checks may go without")
                continue
            }
            let url = Self.root.appending(path: "Tests").appending(path: testFile)
            let source = try String(contentsOf: url, encoding: .utf8)
            guard let start = source.range(of: "func \(testName)(") else {
                Issue.record("\(row): \(testFile) has no func \(testName)")
                continue
            }
            // The test's body: up to the next test or the end of the file.
            let rest = source[start.upperBound...]
            let body = rest[..<(rest.range(of: "@Test")?.lowerBound ?? rest.endIndex)]
            #expect(body.contains("processExitsWith: .failure"), "\(row): \(testName) is not an exit test")
            // The messages the test looks for: each must be the check's message, or its start
            // (at least 20 characters), with the interpolated values filled in.
            let expected = body.matches(of: /contains: "([^"]*)"/).map { String($0.output.1) }
            let prefixes = checks.filter { row.message.hasPrefix($0.messagePrefix) }.map(\.messagePrefix)
            let checked = expected.contains { looked in
                prefixes.contains { looked.hasPrefix($0) || (looked.count >= 20 && $0.hasPrefix(looked)) }
            }
            #expect(checked, "\(row): \(testName) does not check the message with expectStandardError")
        }
    }
}
