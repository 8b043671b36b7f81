// `swift run paradigms`: the front door. Lists the paradigms the package carries and runs
// the shared scenarios through every paradigm that has landed, side by side.

import Foundation
import Scenarios

let usage = """
    USAGE: swift run paradigms [--paradigm NAME] [--scenario NAME]

    Lists the reactive paradigms this package carries and runs the shared scenarios
    through each paradigm that has landed, so you can compare what observers see.

    OPTIONS:
      --paradigm NAME   Show only this paradigm (\(ParadigmCatalog.paradigms.map(\.name).joined(separator: ", "))).
      --scenario NAME   Run only this scenario (\(Scenario.all.map(\.id).joined(separator: ", "))).
      -h, --help        Show this help.
    """

struct Options {
    var paradigm: ParadigmInfo?
    var scenario: Scenario?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "-h", "--help":
            print(usage)
            exit(0)
        case "--paradigm":
            guard let name = remaining.popFirst() else { fail("--paradigm needs a name") }
            guard let paradigm = ParadigmCatalog.paradigm(named: name) else {
                fail(
                    "unknown paradigm '\(name)'; valid paradigms: \(ParadigmCatalog.paradigms.map(\.name).joined(separator: ", "))"
                )
            }
            options.paradigm = paradigm
        case "--scenario":
            guard let name = remaining.popFirst() else { fail("--scenario needs a name") }
            guard let scenario = Scenario.named(name) else {
                fail("unknown scenario '\(name)'; valid scenarios: \(Scenario.all.map(\.id).joined(separator: ", "))")
            }
            options.scenario = scenario
        default:
            fail("unknown argument '\(argument)'")
        }
    }
    return options
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let paradigms = ParadigmCatalog.paradigms.filter { options.paradigm == nil || $0.name == options.paradigm?.name }
let scenarios = options.scenario.map { [$0] } ?? Scenario.all

print("Reactive paradigms, side by side\n")
for paradigm in paradigms {
    let status = paradigm.isAvailable ? "import \(paradigm.module)" : "planned"
    print("\(padded(paradigm.name, 12)) \(padded(status, 20)) \(paradigm.summary)")
    print("\(padded("", 12)) \(padded("", 20)) pick it when \(paradigm.pickWhen)")
}

let adapters = ParadigmCatalog.adapters.filter { adapter in paradigms.contains { $0.name == adapter.name } }
guard !adapters.isEmpty else {
    print("\n\(options.paradigm?.name ?? "No paradigm") has not landed yet: no scenarios to run.")
    exit(0)
}

var mismatches = 0
for scenario in scenarios {
    print("\nScenario \(scenario.id): \(scenario.summary)")
    print("  \(padded("paradigm", 12)) \(padded("recomputes", 11)) observed")
    for adapter in adapters {
        let run = scenario.run(adapter)
        let (expected, reason) = scenario.expectation(for: adapter)
        let verdict: String
        if run.outcome != expected {
            mismatches += 1
            verdict = "  UNEXPECTED: expected \(expected)"
        } else if let reason {
            verdict = "  (known difference: \(reason))"
        } else {
            verdict = ""
        }
        print("  \(padded(adapter.name, 12)) \(padded("\(run.recomputations)", 11)) \(run.outcome)\(verdict)")
    }
}
if mismatches > 0 {
    print("\n\(mismatches) outcome(s) differ from what is documented.")
    exit(1)
}
