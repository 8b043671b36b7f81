// `swift run paradigms`: the front door. Lists the paradigms the package carries and runs
// the shared scenarios through every one of them, side by side.

import DevTools
import Foundation
import Scenarios

let paradigmNames = ParadigmCatalog.paradigms.map(\.name).joined(separator: ", ")
let scenarioNames = Scenario.all.map(\.id).joined(separator: ", ")

let usage = """
    USAGE: swift run paradigms [--paradigm NAME] [--scenario NAME] [--json] [--inspect [--dot]]
                               [--devtools FOLDER] [--devtools-render TRACE PAGE]
                               [--devtools-serve PORT]

    Lists the reactive paradigms this package carries and runs the shared scenarios through
    each of them, so you can compare what observers see and what it costs.

    OPTIONS:
      --paradigm NAME   Show only this paradigm (\(paradigmNames)).
      --scenario NAME   Run only this scenario (\(scenarioNames)).
      --json            Print the results as JSON instead of tables.
      --inspect         Print each paradigm's graph for the scenario (the diamond unless
                        --scenario names another made of cells): nodes, edges, values and
                        counters, as the paradigm's inspector shows them. With --json, as JSON;
                        with --dot, in Graphviz's dot language.
      --devtools FOLDER Write a devtools page per paradigm for the scenario (the diamond
                        unless --scenario names another made of cells) into FOLDER:
                        <paradigm>.html, the graph and five writes on a timeline, to open in
                        a browser, and <paradigm>.json, the trace the page shows.
      --devtools-serve PORT
                        Serve one paradigm's page live on 127.0.0.1:PORT (0: any free port;
                        Incremental unless --paradigm names another): prints its address,
                        waits for a page to open, writes the scenario's five values 200 ms
                        apart, and serves until standard input ends.
      --devtools-render TRACE PAGE
                        Write the devtools page of a trace saved as JSON (a Trace, as
                        JSONEncoder writes it) to PAGE.
      -h, --help        Show this help.
    """

struct Options {
    var paradigm: ParadigmInfo?
    var scenario: Scenario?
    var json = false
    var inspect = false
    var dot = false
    var devtools: String?
    var render: (trace: String, page: String)?
    var serve: UInt16?
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
                fail("unknown paradigm '\(name)'; valid paradigms: \(paradigmNames)")
            }
            options.paradigm = paradigm
        case "--scenario":
            guard let name = remaining.popFirst() else { fail("--scenario needs a name") }
            guard let scenario = Scenario.named(name) else {
                fail("unknown scenario '\(name)'; valid scenarios: \(scenarioNames)")
            }
            options.scenario = scenario
        case "--json":
            options.json = true
        case "--inspect":
            options.inspect = true
        case "--dot":
            options.dot = true
        case "--devtools":
            guard let folder = remaining.popFirst() else { fail("--devtools needs a folder") }
            options.devtools = folder
        case "--devtools-serve":
            guard let port = remaining.popFirst().flatMap(UInt16.init) else { fail("--devtools-serve needs a port") }
            options.serve = port
        case "--devtools-render":
            guard let trace = remaining.popFirst(), let page = remaining.popFirst() else {
                fail("--devtools-render needs a trace file and a page file")
            }
            options.render = (trace, page)
        default:
            fail("unknown argument '\(argument)'")
        }
    }
    return options
}

/// One paradigm's result in one scenario, as the table and the JSON show it.
struct Row: Encodable {
    var paradigm: String
    var linesOfCode: Int?
    var events: Int
    var recomputations: Int
    var glitches: Int
    /// The best of several runs of the whole scenario (build, writes, teardown), divided by
    /// its writes: indicative only, and a debug build unless run with `-c release`.
    var microsecondsPerUpdate: Double
    var observed: [Int]
    var freed: Bool?
    var knownDifference: String?
    var asDocumented: Bool
}

struct ScenarioReport: Encodable {
    var id: String
    var summary: String
    var pickWhen: String
    var expected: [Int]
    var results: [Row]
}

struct ParadigmReport: Encodable {
    var name: String
    var module: String
    var summary: String
    var pickWhen: String
}

struct Report: Encodable {
    var paradigms: [ParadigmReport]
    var scenarios: [ScenarioReport]
}

/// Runs `scenario` through `adapter`, and times it.
func row(_ scenario: Scenario, _ adapter: AnyParadigmAdapter) -> Row {
    let run = scenario.run(adapter)
    let (expected, reason) = scenario.expectation(for: adapter)
    let clock = ContinuousClock()
    var best = Duration.seconds(1)
    for _ in 0..<50 {
        let elapsed = clock.measure { _ = scenario.run(adapter) }
        best = min(best, elapsed)
    }
    let microseconds = Double(best.components.attoseconds) / 1e12 + Double(best.components.seconds) * 1e6
    return Row(
        paradigm: adapter.name, linesOfCode: adapter.linesOfCode, events: run.outcome.values.count,
        recomputations: run.recomputations, glitches: run.outcome.glitches,
        microsecondsPerUpdate: microseconds / Double(scenario.updates), observed: run.outcome.values,
        freed: run.outcome.freed, knownDifference: reason, asDocumented: run.outcome == expected)
}

func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    guard text.count < width else { return text }
    let padding = String(repeating: " ", count: width - text.count)
    return right ? padding + text : text + padding
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let paradigms = ParadigmCatalog.paradigms.filter { options.paradigm == nil || $0.name == options.paradigm?.name }
let scenarios = options.scenario.map { [$0] } ?? Scenario.all
let adapters = ParadigmCatalog.adapters.filter { adapter in paradigms.contains { $0.name == adapter.name } }

if options.dot && !options.inspect { fail("--dot goes with --inspect") }
if let (tracePath, pagePath) = options.render {
    do {
        let trace = try JSONDecoder().decode(Trace.self, from: Data(contentsOf: URL(fileURLWithPath: tracePath)))
        try DevToolsPage(trace: trace).write(to: pagePath)
    } catch {
        FileHandle.standardError.write(Data("error: \(tracePath): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if let port = options.serve {
    let scenario = options.scenario ?? Scenario.named("diamond")!
    let adapter = ParadigmCatalog.adapters.first { $0.name == (options.paradigm?.name ?? "Incremental") }!
    guard let program = scenario.program(adapter) else {
        fail("the scenario '\(scenario.id)' is not made of cells; serve counter, derived, diamond or teardown")
    }
    do {
        let server = try DevToolsServer(
            following: program.recorder, paradigm: adapter.name, title: "\(adapter.name): \(scenario.id), live",
            port: port, inspect: program.inspect)
        FileHandle.standardOutput.write(Data("devtools: \(server.url)\n".utf8))
        if server.waitForWatcher(timeout: .seconds(600)) {
            for value in Scenario.tracedWrites {
                Thread.sleep(forTimeInterval: 0.2)
                program.write(value)
            }
            FileHandle.standardOutput.write(Data("devtools: \(Scenario.tracedWrites.count) writes made\n".utf8))
        }
        while readLine() != nil {}
        server.stop()
        program.close()
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if let folder = options.devtools {
    let scenario = options.scenario ?? Scenario.named("diamond")!
    guard scenario.trace(adapters[0]) != nil else {
        fail("the scenario '\(scenario.id)' is not made of cells; trace counter, derived, diamond or teardown")
    }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for adapter in adapters {
            guard let trace = scenario.trace(adapter), !trace.graph.nodes.isEmpty else { continue }
            let name = adapter.name.lowercased()
            let path = URL(fileURLWithPath: folder).appending(path: name)
            try DevToolsPage(trace: trace, title: "\(adapter.name): \(scenario.id)").write(to: path.path + ".html")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(trace).write(to: URL(fileURLWithPath: path.path + ".json"))
            print("\(path.path).html: \(trace.graph.nodes.count) nodes, \(trace.steps.count) steps")
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if options.inspect {
    let scenario = options.scenario ?? Scenario.named("diamond")!
    guard scenario.inspections(adapters[0]) != nil else {
        fail("the scenario '\(scenario.id)' is not made of cells; inspect counter, derived, diamond or teardown")
    }
    if options.json {
        let inspections = adapters.flatMap { scenario.inspections($0) ?? [] }
        print("[\n" + inspections.map { $0.json() }.joined(separator: ",\n") + "\n]")
        exit(0)
    }
    print("Scenario \(scenario.id), after its first write, as each paradigm's inspector shows it\n")
    for adapter in adapters {
        let inspections = scenario.inspections(adapter) ?? []
        if inspections.isEmpty { print("\(adapter.name): no engine to inspect (plain closures)\n") }
        for inspection in inspections {
            if options.dot {
                print(inspection.dot)
                continue
            }
            let statistics = inspection.statistics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            print("\(inspection.paradigm): \(statistics.joined(separator: ", "))")
            for node in inspection.nodes {
                var line = "  n\(node.id) \(node.kind)"
                if let name = node.name { line += " \(name)" }
                if let value = node.value { line += " = \(value)" }
                let details = node.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                if !details.isEmpty { line += "  (\(details.joined(separator: ", ")))" }
                let reads = inspection.edges.filter { $0.to == node.id }.map { edge in
                    "n\(edge.from)" + (edge.label.map { " (\($0))" } ?? "")
                }
                if !reads.isEmpty { line += "  ← \(reads.joined(separator: ", "))" }
                print(line)
            }
            print()
        }
    }
    exit(0)
}
let report = Report(
    paradigms: paradigms.map {
        ParadigmReport(name: $0.name, module: $0.module, summary: $0.summary, pickWhen: $0.pickWhen)
    },
    scenarios: scenarios.map { scenario in
        ScenarioReport(
            id: scenario.id, summary: scenario.summary, pickWhen: scenario.pickWhen, expected: scenario.expected.values,
            results: adapters.map { row(scenario, $0) })
    })
let mismatches = report.scenarios.flatMap(\.results).filter { !$0.asDocumented }

if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
    exit(mismatches.isEmpty ? 0 : 1)
}

print("Reactive paradigms, side by side\n")
for paradigm in paradigms {
    print("\(padded(paradigm.name, 12)) \(padded("import \(paradigm.module)", 20)) \(paradigm.summary)")
    print("\(padded("", 12)) \(padded("", 20)) pick it when \(paradigm.pickWhen)")
}

for scenario in report.scenarios {
    print("\nScenario \(scenario.id): \(scenario.summary)")
    print(
        "  \(padded("paradigm", 12)) \(padded("lines", 6, right: true)) \(padded("events", 7, right: true))"
            + " \(padded("recomputes", 11, right: true)) \(padded("glitch", 7, right: true))"
            + " \(padded("µs/update*", 11, right: true))  observed")
    for row in scenario.results {
        var observed = "\(row.observed)"
        if let freed = row.freed { observed += freed ? ", freed" : ", NOT freed" }
        if !row.asDocumented {
            observed += "  UNEXPECTED"
        } else if let reason = row.knownDifference {
            observed += "  (known difference: \(reason))"
        }
        print(
            "  \(padded(row.paradigm, 12)) \(padded(row.linesOfCode.map(String.init) ?? "–", 6, right: true))"
                + " \(padded("\(row.events)", 7, right: true)) \(padded("\(row.recomputations)", 11, right: true))"
                + " \(padded(row.glitches > 0 ? "yes" : "no", 7, right: true))"
                + " \(padded(String(format: "%.1f", row.microsecondsPerUpdate), 11, right: true))  \(observed)")
    }
    print("  pick: \(scenario.pickWhen)")
}
print(
    """

    lines: the paradigm's adapter, the code that expresses these scenarios in it. events: values
    its observer received. recomputes: derived-value recomputations. glitch: whether the observer
    saw a mix of old and new inputs.
    * indicative: the best of 50 runs of the whole scenario (build, writes, teardown) divided by its
      writes, on this machine, in this build (`swift run -c release paradigms` for release timing).
      Benchmarks/RESULTS.md has the real measurements.
    """)
if !mismatches.isEmpty {
    print("\n\(mismatches.count) outcome(s) differ from what is documented.")
    exit(1)
}
