import Foundation
import Testing

/// Keeps every code sample of the documentation compiling: each ```swift block of the README,
/// of the DocC articles and of the doc comments must appear, line for line (indentation,
/// blank lines and `import` lines aside: imports go at the top of a file), in
/// `Tests/DocumentationSampleTests`, which builds in Swift 6 mode with warnings as errors in
/// CI and runs the samples' tests.
@Suite("Documentation samples")
struct DocumentationSampleCoverageTests {
    static let root = MisuseCatalogueTests.root

    /// One ```swift block: where it starts and its lines, trimmed, blank ones dropped.
    struct Sample: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    /// Samples that are Swift but not code a test target can build, by document and first
    /// line, with the reason.
    static let exempt: [String: String] = [
        // A package manifest's dependencies: PackageDescription is for manifests only.
        "README.md": "dependencies: ["
    ]

    static func isExempt(_ sample: Sample) -> Bool {
        exempt[sample.file] == sample.lines.first
    }

    static func relative(_ url: URL) -> String {
        String(url.path.dropFirst(root.path.count + 1))
    }

    static func files(under folder: String, extension ext: String) -> [URL] {
        let base = root.appending(path: folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == ext }.sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of `lines` (already stripped of any comment markers).
    static func blocks(in lines: [(number: Int, text: String)], file: String) -> [Sample] {
        var samples: [Sample] = []
        var current: Sample?
        for (number, text) in lines {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```swift" { current = Sample(file: file, line: number, lines: []) }
            } else if trimmed == "```" {
                samples.append(current!)
                current = nil
            } else if !trimmed.isEmpty && !trimmed.hasPrefix("import ") {
                current!.lines.append(trimmed)
            }
        }
        return samples
    }

    /// Every sample of the README, the articles and the doc comments.
    static func samples() throws -> [Sample] {
        var samples: [Sample] = []
        let documents =
            [root.appending(path: "README.md")] + files(under: "Sources", extension: "md")
            + files(under: "Examples", extension: "md")
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                (number: $0.offset + 1, text: String($0.element))
            }
            samples += blocks(in: lines, file: relative(document))
        }
        for source in files(under: "Sources", extension: "swift") {
            let text = try String(contentsOf: source, encoding: .utf8)
            var comment: [(number: Int, text: String)] = []
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("///") else { continue }
                comment.append((offset + 1, String(trimmed.dropFirst(3))))
            }
            samples += blocks(in: comment, file: relative(source))
        }
        return samples
    }

    /// The lines of every file of the samples target, and of the SwiftUI examples (a target
    /// that compiles where SwiftUI exists), trimmed, blank ones dropped.
    static func corpus() throws -> [[String]] {
        let sources =
            files(under: "Tests/DocumentationSampleTests", extension: "swift")
            + files(under: "Examples/SwiftUI", extension: "swift")
        return try sources.map { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    static func isCovered(_ sample: Sample, by corpus: [[String]]) -> Bool {
        guard let first = sample.lines.first else { return true }
        for lines in corpus {
            var start = lines.startIndex
            while let index = lines[start...].firstIndex(of: first) {
                if lines[index...].starts(with: sample.lines) { return true }
                start = index + 1
            }
        }
        return false
    }

    @Test("every sample of the README, the articles and the doc comments is in the samples target, line for line")
    func samplesCompile() throws {
        let corpus = try Self.corpus()
        for sample in try Self.samples() where !Self.isExempt(sample) {
            if !Self.isCovered(sample, by: corpus) {
                Issue.record(
                    "\(sample): this sample is not in Tests/DocumentationSampleTests, so nothing checks that it compiles; copy it there, with what it needs around it"
                )
            }
        }
    }

    @Test("the sample finder sees the samples of articles and doc comments")
    func finderWorks() throws {
        let samples = try Self.samples()
        #expect(samples.count > 150)
        #expect(samples.contains { $0.file == "Sources/Resin/Resin.docc/EffectsAndTesting.md" })
        #expect(samples.contains { $0.file == "Sources/Resin/Store/Effects.swift" })
        #expect(samples.contains { $0.file == "README.md" })
    }
}
