import Foundation
import Testing

/// Keeps the layout the architecture document promises: `Sources/` holds only what ships,
/// examples never link the test libraries, and every module's semantics article has the same
/// sections in the same order.
@Suite("Package layout")
struct LayoutTests {
    static let root = MisuseCatalogueTests.root

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    static func folders(under path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appending(path: path).path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("every folder in Sources is a library product")
    func sourcesShip() throws {
        let manifest = try Self.read("Package.swift")
        let libraries = Set(
            manifest.matches(of: /\.library\(name: "([A-Za-z]+)"/).map { String($0.output.1) })
        let folders = try Self.folders(under: "Sources")
        #expect(!folders.isEmpty)
        for folder in folders {
            #expect(libraries.contains(folder), "Sources/\(folder) is not a library product; move it under Examples/")
        }
    }

    /// Each target of `Package.swift` and the targets it depends on.
    static func manifestDependencies() throws -> [String: Set<String>] {
        let manifest = try read("Package.swift")
        var dependencies: [String: Set<String>] = [:]
        let target = /\.(?:target|executableTarget|testTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?/
        for match in manifest.matches(of: target) {
            let names = (match.output.2.map(String.init) ?? "").matches(of: /"(\w+)"/).map { String($0.output.1) }
            dependencies[String(match.output.1)] = Set(names)
        }
        return dependencies
    }

    @Test(
        "every import in Sources is a dependency of its target in Package.swift, every dependency is imported, and ARCHITECTURE.md's table says the same"
    )
    func importsMatchTheManifest() throws {
        let dependencies = try Self.manifestDependencies()
        let targets = Set(dependencies.keys)
        #expect(
            targets.isSuperset(of: ["ReactiveCore", "Incremental", "Resin", "Signals"]), "the manifest was not read")
        let importLine =
            /(?m)^\s*(?:@\w+\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)/
        let architecture = try Self.read("ARCHITECTURE.md")
        for module in try Self.folders(under: "Sources") {
            var imported = Set<String>()
            for file in try MisuseCatalogueTests.swiftFiles(under: "Sources/\(module)") {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: importLine) where targets.contains(String(match.output.1)) {
                    imported.insert(String(match.output.1))
                }
            }
            let declared = dependencies[module] ?? []
            #expect(
                imported.subtracting(declared).isEmpty,
                "Sources/\(module) imports \(imported.subtracting(declared).sorted()) without depending on it in Package.swift"
            )
            #expect(
                declared.subtracting(imported).isEmpty,
                "\(module) depends on \(declared.subtracting(imported).sorted()) in Package.swift but imports nothing from it"
            )
            // The table's row for the module: its name (alone or among others) and what it
            // depends on, `nothing` or module names.
            let row = architecture.split(separator: "\n").first { line in
                line.hasPrefix("| ") && line.split(separator: "|").first.map { $0.contains("`\(module)`") } == true
                    && line.contains("library product")
            }
            guard let row else {
                Issue.record("ARCHITECTURE.md's table has no row for the library \(module)")
                continue
            }
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let drawn = Set(cells[2].matches(of: /`(\w+)`/).map { String($0.output.1) })
            #expect(
                drawn == declared,
                "ARCHITECTURE.md says \(module) depends on \(drawn.sorted()); Package.swift says \(declared.sorted())")
        }
    }

    @Test("the test targets CI leaves out of ThreadSanitizer's build start no thread or task of their own")
    func threadSanitizerSkipsOnlySingleThreadedSuites() throws {
        let ci = try Self.read(".ci/run")
        let list = try #require(
            ci.firstMatch(of: /\ntsan_leaves_out=\(([^)]*)\)/), ".ci/run has no tsan_leaves_out=(...) list")
        let skipped = list.output.1.split(separator: " ").map(String.init)
        #expect(!skipped.isEmpty, ".ci/run skips no suite under ThreadSanitizer; drop this test if that is meant")
        let concurrency = /\bThread\b|DispatchQueue|concurrentPerform|Task\.detached|Task \{|TaskGroup|async let/
        for target in skipped {
            let files = try MisuseCatalogueTests.swiftFiles(under: "Tests/\(target)")
            #expect(!files.isEmpty, "\(target) is not a test target")
            // This file names the patterns it looks for.
            for file in files where file.lastPathComponent != "LayoutTests.swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(
                    !text.contains(concurrency),
                    "\(target)/\(file.lastPathComponent) starts threads or tasks: run it under ThreadSanitizer (.ci/run)"
                )
            }
        }
    }

    @Test("no file of Incremental but the graph's own writes a field of the graph: nodes go through its methods")
    func incrementalNodesWriteNoGraphField() throws {
        // The graph's own files: the class, and the extensions that carry its operations.
        let graphFiles: Set = [
            "Graph.swift", "Refresh.swift", "PushPlan.swift", "Invariants.swift", "DotExport.swift", "Tracking.swift",
        ]
        // `graph.field = …`, `graph.field += …`, `graph.field[…] = …`, or a mutating call
        // on a field (`graph.field.append(…)`).
        let write =
            /\bgraph\.[A-Za-z_]+(\[[^\]]*\])?\s*(=[^=]|\+=|-=)|\bgraph\.[A-Za-z_]+\.(append|remove\w*|insert|allocate|deallocate\w*)\(/
        let files = try MisuseCatalogueTests.swiftFiles(under: "Sources/Incremental")
        #expect(files.count > 10)
        for file in files where !(file.pathComponents.contains("Graph") && graphFiles.contains(file.lastPathComponent))
        {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: write) {
                Issue.record(
                    "\(file.lastPathComponent) writes the graph's state directly (`\(match.output.0)`): add a method to Graph (Graph.swift) that keeps its invariants"
                )
            }
        }
    }

    @Test("no example imports Testing, XCTest or the tests' support")
    func examplesDoNotLinkTesting() throws {
        let files = try MisuseCatalogueTests.swiftFiles(under: "Examples")
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in ["Testing", "XCTest", "TestSupport"] {
                #expect(!text.contains("import \(module)\n"), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    /// The sections every semantics article has, in this order (ARCHITECTURE.md).
    static let sections = [
        "Overview", "Order", "Reentrancy", "Lifetime", "Isolation and threading", "Equality", "Misuse", "Time",
        "Cost",
    ]

    @Test("every module's semantics article has the same sections in the same order")
    func semanticsSections() throws {
        let modules = try Self.folders(under: "Sources")
        #expect(modules.count >= 7)
        for module in modules {
            guard
                let text = try? Self.read("Sources/\(module)/\(module).docc/Semantics.md")
            else {
                // ResinTesting is documented in Resin's catalog.
                #expect(module == "ResinTesting", "Sources/\(module) has no Semantics.md")
                continue
            }
            let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
            #expect(headings == Self.sections, "\(module): \(headings)")
        }
    }

    @Test("the README and the DocC articles quote no measured time or ratio: those live in RESULTS.md")
    func noFiguresInDocs() throws {
        var articles = ["README.md"]
        for top in ["Sources", "Examples"] {
            for module in try Self.folders(under: top) {
                guard let catalog = try? Self.folders(under: "\(top)/\(module)").first(where: { $0.hasSuffix(".docc") })
                else { continue }
                articles += try Self.folders(under: "\(top)/\(module)/\(catalog)").filter { $0.hasSuffix(".md") }
                    .map { "\(top)/\(module)/\(catalog)/\($0)" }
            }
        }
        #expect(articles.count > 15)
        for article in articles {
            let text = try Self.read(article)
            for match in text.matches(of: /[0-9](\.[0-9]+)? ?(ns|µs)\b|[0-9]×/) {
                Issue.record("\(article) quotes a figure: \"\(text[match.range])\"; cite Benchmarks/RESULTS.md instead")
            }
        }
    }

    @Test("the SwiftUI article quotes every SwiftUI example as it is in Examples/SwiftUI, and each is guarded")
    func swiftUIArticleQuotesTheExamples() throws {
        let article = try Self.read("Sources/ReactiveCore/ReactiveCore.docc/UsingWithSwiftUIAndConcurrency.md")
        let examples = try Self.folders(under: "Examples/SwiftUI").filter { $0.hasSuffix(".swift") }
        #expect(examples.count == 6, "one SwiftUI example per paradigm")
        for example in examples {
            let text = try Self.read("Examples/SwiftUI/\(example)")
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while lines.last == "" { lines.removeLast() }
            #expect(lines.first == "#if canImport(SwiftUI)" && lines.last == "#endif", "\(example) is not guarded")
            // The file's body, one indentation level out, is what the article shows.
            let body = lines.dropFirst().dropLast()
                .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
                .joined(separator: "\n")
            let quoted = "From `Examples/SwiftUI/\(example)`:\n\n```swift\n\(body)\n```"
            #expect(article.contains(quoted), "the article does not quote \(example) as it is")
        }
    }

    @Test("the README installs the newest release in CHANGELOG.md, a semantic version")
    func installSnippetNamesTheNewestRelease() throws {
        let changelog = try Self.read("CHANGELOG.md")
        let releases = changelog.matches(of: /\n## (\d+)\.(\d+)\.(\d+) \(\d{4}-\d{2}-\d{2}\)\n/).map {
            [Int($0.output.1)!, Int($0.output.2)!, Int($0.output.3)!]
        }
        let newest = try #require(releases.first, "CHANGELOG.md has no release section (## X.Y.Z (YYYY-MM-DD))")
        #expect(releases == releases.sorted { $0.lexicographicallyPrecedes($1) }.reversed(), "newest release first")
        let readme = try Self.read("README.md")
        let installed = readme.matches(of: /\.package\(url: "https:[^"]+\.git", from: "(\d+\.\d+\.\d+)"\)/)
            .map { String($0.output.1) }
        #expect(installed == [newest.map(String.init).joined(separator: ".")])
    }
}
