import Foundation
import Scenarios
import Testing

/// Writes the conformance table, `Sources/ReactiveCore/ReactiveCore.docc/ConformanceTable.md`,
/// from what the paradigms do now, and fails if the committed page says something else.
@Suite("Conformance table")
struct ConformanceTableTests {
    static let page = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources/ReactiveCore/ReactiveCore.docc/ConformanceTable.md")

    @Test("the committed conformance table is the one the paradigms produce now (rewritten if not: commit it)")
    func upToDate() throws {
        let article = ConformanceCategory.article(adapters: ParadigmCatalog.adapters)
        let committed = try? String(contentsOf: Self.page, encoding: .utf8)
        if committed != article {
            try article.write(to: Self.page, atomically: true, encoding: .utf8)
            Issue.record(
                "ConformanceTable.md did not match what the paradigms do; it was rewritten: review and commit it")
        }
        #expect(!article.contains("**unexpected**"), "a shared scenario gave an undocumented outcome")
        #expect(!article.contains("**wrong value**") && !article.contains("**ends at"), "a question got a wrong value")
    }

    @Test("the answers tell the paradigms apart where their semantics differ")
    func answers() {
        func answer(_ id: String, _ paradigm: String) -> String? {
            let category = ConformanceCategory.all.first { $0.id == id }
            return ParadigmCatalog.adapter(named: paradigm).flatMap { category?.answer($0) }
        }
        #expect(answer("glitches", "Incremental") == "glitch-free")
        #expect(answer("glitches", "Baseline")?.hasPrefix("shows") == true)
        #expect(answer("dynamic dependencies", "Incremental") == "yes: not read")
        #expect(answer("dynamic dependencies", "Cycle") == "no: chose again")
        #expect(answer("batching", "Incremental") == "yes: one change")
        #expect(answer("batching", "Signals")?.hasPrefix("no: 2 changes") == true)
        #expect(answer("equality cutoff", "Incremental") == "yes: not delivered")
        #expect(answer("disposal", "Glue") == "yes")
    }
}
