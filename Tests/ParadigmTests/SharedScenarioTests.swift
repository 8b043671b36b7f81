import Scenarios
import Testing

/// The shared suite: every scenario through every landed paradigm, against one expected
/// outcome or the paradigm's documented difference.
@Suite("Shared scenarios")
struct SharedScenarioTests {
    @Test(
        "each paradigm produces the scenario's outcome or its documented difference",
        arguments: Scenario.all, ParadigmCatalog.adapters)
    func scenario(_ scenario: Scenario, _ adapter: AnyParadigmAdapter) {
        let run = scenario.run(adapter)
        let (expected, reason) = scenario.expectation(for: adapter)
        #expect(
            run.outcome == expected,
            "\(adapter.name) in \(scenario.id): \(reason.map { "documented difference: \($0)" } ?? "no documented difference")"
        )
    }

    @Test(
        "runs are repeatable: a second run of a scenario gives the same outcome and cost",
        arguments: Scenario.all, ParadigmCatalog.adapters)
    func repeatable(_ scenario: Scenario, _ adapter: AnyParadigmAdapter) {
        let first = scenario.run(adapter)
        let second = scenario.run(adapter)
        #expect(first.outcome == second.outcome)
        #expect(first.recomputations == second.recomputations)
    }

    @Test(
        "documented differences are real differences, with a reason, for scenarios that exist",
        arguments: ParadigmCatalog.adapters)
    func differencesAreReal(_ adapter: AnyParadigmAdapter) throws {
        for (id, difference) in adapter.knownDifferences {
            let scenario = try #require(
                Scenario.named(id), "\(adapter.name) documents a difference for unknown scenario \(id)")
            #expect(
                difference.outcome != scenario.expected,
                "\(adapter.name) documents a difference in \(id) that is no difference")
            #expect(!difference.reason.isEmpty)
        }
    }

    @Test("every adapter belongs to a paradigm the catalog lists as available, and back")
    func catalogMatchesAdapters() {
        let available = Set(ParadigmCatalog.paradigms.filter(\.isAvailable).map(\.name))
        let adapted = Set(ParadigmCatalog.adapters.map(\.name))
        #expect(available == adapted)
        #expect(ParadigmCatalog.paradigm(named: "glue")?.name == "Glue")
        #expect(ParadigmCatalog.paradigm(named: "nope") == nil)
    }

    @Test("the baseline's diamond shows the glitch a glitch-free paradigm must avoid")
    func baselineGlitches() {
        let run = Scenario.diamond.run(BaselineAdapter())
        #expect(run.outcome.glitches == 2)
        // d recomputes once per path from a on every write: 3 to build, 4 per write.
        #expect(run.recomputations == 3 + 2 * 4)
    }

    @Test("every adapter reports the lines of code it takes, read from its source file")
    func linesOfCode() throws {
        for adapter in ParadigmCatalog.adapters {
            let lines = try #require(adapter.linesOfCode, "\(adapter.name)")
            #expect((10...400).contains(lines), "\(adapter.name): \(lines) lines")
        }
    }
}

@Suite("Inspecting the scenarios")
struct ScenarioInspectionTests {
    @Test("every paradigm with an engine shows the diamond's cells, and their value after the first write")
    func diamond() {
        let diamond = Scenario.named("diamond")!
        for adapter in ParadigmCatalog.adapters {
            let inspections = diamond.inspections(adapter)
            if adapter.name == "Baseline" {
                #expect(inspections?.isEmpty == true)
                continue
            }
            #expect(inspections?.isEmpty == false, "\(adapter.name)")
            #expect(inspections?.first?.paradigm == adapter.name, "\(adapter.name)")
            let values = inspections?.flatMap(\.nodes).compactMap(\.value) ?? []
            #expect(values.contains { $0.contains("7") }, "\(adapter.name): the diamond's value, 3 + 4, is shown")
        }
        let list = Scenario.named("list")
        #expect(list != nil && list?.inspections(ParadigmCatalog.adapters[0]) == nil, "the list is not made of cells")
    }
}
