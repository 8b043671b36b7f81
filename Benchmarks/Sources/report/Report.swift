import BenchmarkScenarios
import Foundation

/// One benchmark's result, from package-benchmark's exports: the median of its samples, in
/// the pass whose median was lowest.
struct Measurement {
    /// Wall-clock time of one iteration, median, in microseconds.
    var microseconds: Double
    /// Mallocs of one iteration beyond the harness's own, median.
    var mallocs: Double
}

struct ReportError: Error, CustomStringConvertible {
    var description: String
}

/// Reads every `*.influx.csv` in `directory`, keyed by benchmark name (`scenario/implementation`).
///
/// The report reads package-benchmark's influx export, which has every metric of every case.
/// Its JMH export leaves out any case without a throughput, and package-benchmark records a
/// sample's throughput as whole iterations per second: none for an iteration longer than two
/// seconds (the 1M-row recomputation on a slow or loaded machine).
func loadMeasurements(_ directory: URL) throws -> [String: Measurement] {
    let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".influx.csv") }
    guard !files.isEmpty else { throw ReportError(description: "no .influx.csv export in \(directory.path)") }
    var nanoseconds: [String: Double] = [:]
    var mallocs: [String: Double] = [:]
    for file in files {
        // Columns: measurement, hostName, processorType, processors, memory, kernelVersion,
        // metric, unit, test, percentile, value, ...; benchmark names hold no commas.
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 10, Double(fields[9]) == 50, let value = Double(fields[10]) else { continue }
            let name = String(fields[8])
            switch fields[6] {
            case "Time(wallclock)": nanoseconds[name] = value
            case "Malloc(total)": mallocs[name] = value
            default: continue
            }
        }
    }
    var measurements: [String: Measurement] = [:]
    for (name, time) in nanoseconds {
        measurements[name] = Measurement(microseconds: time / 1_000, mallocs: mallocs[name] ?? .nan)
    }
    return measurements
}

/// Reads the exports of several passes and keeps, for each benchmark, the measurement of the
/// pass with the lowest median time. Each pass runs every benchmark in a process of its own,
/// and timings on a shared machine can be slower by up to 2× in some processes (see
/// Benchmarks/README.md); the lowest of a few medians is the one least disturbed, and every
/// implementation is treated alike.
func loadMeasurements(passes directories: [URL]) throws -> [String: Measurement] {
    var best: [String: Measurement] = [:]
    for directory in directories {
        for (name, measurement) in try loadMeasurements(directory) {
            if let kept = best[name], kept.microseconds <= measurement.microseconds { continue }
            best[name] = measurement
        }
    }
    return best
}

/// Reads the `phases.json` of each pass that has one and keeps, for each size, the comparison
/// whose Incremental total median is lowest (the objects alone's come from the same pass,
/// measured alternately with it).
func loadPhaseComparisons(passes directories: [URL]) throws -> [PhaseComparison] {
    var best: [Int: PhaseComparison] = [:]
    for directory in directories {
        let file = directory.appending(path: "phases.json")
        guard FileManager.default.fileExists(atPath: file.path) else { continue }
        for comparison in try readPhaseComparisons(from: file) {
            if let kept = best[comparison.layers], kept.total.incrementalMedian <= comparison.total.incrementalMedian {
                continue
            }
            best[comparison.layers] = comparison
        }
    }
    return best.keys.sorted().compactMap { best[$0] }
}

/// A ratio shown in the headline chart: ours over a peer's, from the same run.
struct Ratio {
    var label: String
    var value: Double
    /// The target, as the largest ratio that meets it; nil when there is none.
    var target: Double?
}

/// Writes RESULTS.md and results.svg next to Package.swift (or to `outputDirectory`).
///
/// With `requireEveryCase`, fails, naming them, if any case of the catalog has no
/// measurement in the export (so a run that skipped cases cannot pass). The passes'
/// `phases.json`, when they have one, add where Incremental's cellx iteration spends its time.
func writeReport(exportDirectories: [URL], outputDirectory: URL, requireEveryCase: Bool = false) throws {
    let results = try loadMeasurements(passes: exportDirectories)
    let phases = try loadPhaseComparisons(passes: exportDirectories)
    let scale = try loadScaleMeasurements(passes: exportDirectories)
    let devtools = try DevToolsTimings.load(passes: exportDirectories)
    let cases = Catalog.all(collectionSizes: [10_000, 100_000, 1_000_000])
    if requireEveryCase {
        let missing = cases.map(\.name).filter { results[$0] == nil }
        guard missing.isEmpty else {
            throw ReportError(
                description:
                    "\(missing.count) of \(cases.count) cases have no measurement: \(missing.joined(separator: ", "))")
        }
        print("report: all \(cases.count) cases of the catalog were measured")
    }
    let byName = Dictionary(cases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    func result(_ scenario: String, _ implementation: String) -> Measurement? {
        results["\(scenario)/\(implementation)"]
    }
    /// Nanoseconds per event.
    func perEvent(_ scenario: String, _ implementation: String) -> Double? {
        guard let measured = result(scenario, implementation), let benchmark = byName["\(scenario)/\(implementation)"]
        else { return nil }
        return measured.microseconds * 1_000 / Double(benchmark.eventsPerIteration)
    }
    var ratios: [Ratio] = []
    var targets: [(String, String, Bool?)] = []
    var out = ""
    func line(_ text: String = "") { out += text + "\n" }

    let environment = ProcessInfo.processInfo.environment
    line("# Benchmark results")
    line()
    line("Written by `Benchmarks/run` from one run of every benchmark: every ratio compares two figures")
    line("from the same run on the same machine. Times are medians of package-benchmark's samples")
    line("(release build); each benchmark checked its results as it ran. The run measured every")
    let passes = exportDirectories.count == 1 ? "1 pass" : "\(exportDirectories.count) passes"
    line("benchmark in \(passes), each in a process of its own, and each time is the lowest")
    line("of its medians (this machine's timings are slower by up to 2× in some processes; every")
    line("implementation is treated alike).")
    line()
    line("- Date: \(environment["RESULTS_DATE"] ?? ISO8601DateFormatter().string(from: Date()))")
    line(
        "- Machine: \(ProcessInfo.processInfo.processorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB, "
            + (processorModel().map { "\($0), " } ?? "")
            + ProcessInfo.processInfo.operatingSystemVersionString)
    line("- Toolchain: \(environment["RESULTS_SWIFT_VERSION"] ?? "unknown")")
    line(
        "- Peers: OpenCombine 0.14.0, Swift's Observation (`@Observable` + `withObservationTracking`), swift-async-algorithms 1.1.4;"
    )
    line("  harness: ordo-one/package-benchmark 1.38.1 with the malloc interposer")
    line()
    line("![Ratios of ours to the peers, log scale](results.svg)")
    line()

    // MARK: Event pipelines
    line("## Event pipelines")
    line()
    line("Nanoseconds and mallocs per event (mallocs beyond the harness's own). Ratio: ours / OpenCombine.")
    line()
    line("| scenario | Glue | Signals | OpenCombine | Baseline | Glue / OpenCombine | Signals / OpenCombine |")
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    let signalsTargets: [String: Double] = [
        "pipeline/map-filter-sink": 1.0 / 3, "pipeline/subscribe-unsubscribe": 1, "pipeline/fan-out": 0.5,
    ]
    for scenario in [
        "pipeline/map-filter-sink", "pipeline/subscribe-unsubscribe", "pipeline/fan-out", "pipeline/replay-3",
    ] {
        let events = Double(byName["\(scenario)/Signals"]?.eventsPerIteration ?? 1)
        func cell(_ implementation: String) -> String {
            guard let ns = perEvent(scenario, implementation), let measured = result(scenario, implementation) else {
                return "–"
            }
            return "\(format(ns)) ns, \(format(measured.mallocs / events)) mallocs"
        }
        let glue = ratio(perEvent(scenario, "Glue"), perEvent(scenario, "OpenCombine"))
        let signals = ratio(perEvent(scenario, "Signals"), perEvent(scenario, "OpenCombine"))
        line(
            "| \(scenario.dropFirst("pipeline/".count)) | \(cell("Glue")) | \(cell("Signals")) | \(cell("OpenCombine")) | \(cell("Baseline")) | \(formatRatio(glue)) | \(formatRatio(signals)) |"
        )
        // Glue's target (a third of OpenCombine's cost) is for the map → filter → sink
        // pipeline; Signals' (issue 18) are a third there, at most OpenCombine's cost to
        // subscribe, and half of it to fan out.
        let glueTarget: Double? = scenario == "pipeline/map-filter-sink" ? 1.0 / 3 : nil
        let signalsTarget = signalsTargets[scenario]
        if let glue {
            ratios.append(
                Ratio(label: "Glue / OpenCombine, \(scenario.dropFirst(9))", value: glue, target: glueTarget))
        }
        if let signals {
            ratios.append(
                Ratio(label: "Signals / OpenCombine, \(scenario.dropFirst(9))", value: signals, target: signalsTarget))
        }
    }
    let pipelineGlue = ratio(
        perEvent("pipeline/map-filter-sink", "Glue"), perEvent("pipeline/map-filter-sink", "OpenCombine"))
    let pipelineSignals = ratio(
        perEvent("pipeline/map-filter-sink", "Signals"), perEvent("pipeline/map-filter-sink", "OpenCombine"))
    targets.append(
        (
            "Glue per event ≤ ⅓ of OpenCombine's (map → filter → sink)", formatRatio(pipelineGlue),
            pipelineGlue.map { $0 <= 1.0 / 3 }
        ))
    targets.append(
        (
            "Signals per event ≤ ⅓ of OpenCombine's (map → filter → sink)", formatRatio(pipelineSignals),
            pipelineSignals.map { $0 <= 1.0 / 3 }
        ))
    let churnSignals = ratio(
        perEvent("pipeline/subscribe-unsubscribe", "Signals"), perEvent("pipeline/subscribe-unsubscribe", "OpenCombine")
    )
    targets.append(
        (
            "Signals subscribe-unsubscribe ≤ OpenCombine's", formatRatio(churnSignals),
            churnSignals.map { $0 <= 1 }
        ))
    let fanOutSignals = ratio(perEvent("pipeline/fan-out", "Signals"), perEvent("pipeline/fan-out", "OpenCombine"))
    targets.append(
        (
            "Signals fan-out ≤ ½ of OpenCombine's", formatRatio(fanOutSignals),
            fanOutSignals.map { $0 <= 0.5 }
        ))
    let signalsMallocs = result("pipeline/map-filter-sink", "Signals").map { $0.mallocs / 1_000 }
    targets.append(
        (
            "Signals: zero mallocs per event", signalsMallocs.map { format($0) } ?? "–",
            signalsMallocs.map { $0 < 0.01 }
        ))
    let glueMallocs = result("pipeline/map-filter-sink", "Glue").map { $0.mallocs / 1_000 }
    targets.append(
        (
            "Glue: zero mallocs per event in steady state", glueMallocs.map { format($0) } ?? "–",
            glueMallocs.map { $0 < 0.01 }
        ))
    line()

    // MARK: Stream operators
    line("## Stream operators")
    line()
    line(
        "Nanoseconds and mallocs per event (each send into any input is an event). OpenCombine is written as its users write it: `zip`, `map` + `switchToLatest`, and, having no `withLatestFrom`, the other stream's latest kept in a `CurrentValueSubject`. swift-async-algorithms is written as its users write it: `AsyncChannel` inputs and its `zip`; it has no `withLatestFrom` (the other's latest kept in the loop that consumes both inputs, sent through one channel: its `merge` of two channels does not keep their order) and no `switchToLatest` (its users cancel the task iterating the previous inner sequence, not a pipeline; not measured, –). Signals' chains are inline (`noDispatch()`) and thread-safe: each operator keeps its rule under a lock. Ratio: ours / OpenCombine; the goal is ½ or less."
    )
    line()
    line(
        "| scenario | Glue | Signals | OpenCombine | swift-async-algorithms | Baseline | Glue / OpenCombine | Signals / OpenCombine |"
    )
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for scenario in ["operators/zip", "operators/with-latest-from", "operators/switch-to-latest"] {
        let events = Double(byName["\(scenario)/Glue"]?.eventsPerIteration ?? 1)
        func cell(_ implementation: String) -> String {
            guard let ns = perEvent(scenario, implementation), let measured = result(scenario, implementation) else {
                return "–"
            }
            return "\(format(ns)) ns, \(format(measured.mallocs / events)) mallocs"
        }
        let glue = ratio(perEvent(scenario, "Glue"), perEvent(scenario, "OpenCombine"))
        let signals = ratio(perEvent(scenario, "Signals"), perEvent(scenario, "OpenCombine"))
        let name = scenario.dropFirst("operators/".count)
        line(
            "| \(name) | \(cell("Glue")) | \(cell("Signals")) | \(cell("OpenCombine")) | \(cell("AsyncAlgorithms")) | \(cell("Baseline")) | \(formatRatio(glue)) | \(formatRatio(signals)) |"
        )
        if let signals { ratios.append(Ratio(label: "Signals / OpenCombine, \(name)", value: signals, target: 0.5)) }
        targets.append(
            ("Signals \(name) per event ≤ ½ of OpenCombine's", formatRatio(signals), signals.map { $0 <= 0.5 }))
        if let glue { ratios.append(Ratio(label: "Glue / OpenCombine, \(name)", value: glue, target: 0.5)) }
        targets.append(("Glue \(name) per event ≤ ½ of OpenCombine's", formatRatio(glue), glue.map { $0 <= 0.5 }))
    }
    let zipMallocs = result("operators/zip", "Glue").map { $0.mallocs / Double(2 * 1_000) }
    targets.append(
        (
            "Glue zip: zero mallocs per event in steady state", zipMallocs.map { format($0) } ?? "–",
            zipMallocs.map { $0 < 0.01 }
        ))
    line()

    // MARK: Kairo
    line("## Propagation: the kairo suite")
    line()
    line(
        "Microseconds per iteration (see ../shared/BENCHMARKS.md for what one iteration does). Ratios below 1 mean Incremental is faster."
    )
    line()
    line(
        "| scenario | Incremental | Glue | Observation | OpenCombine | Baseline | Incremental / Baseline | Incremental / Observation | Incremental / OpenCombine |"
    )
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    var kairoMet = true
    var kairoWorst = 0.0
    // Incremental's multiple of the baseline per scenario, for the goals set by alien-signals.
    var baselineMultiples: [String: Double?] = [:]
    for name in ["avoidable", "broad", "deep", "diamond", "triangle", "mux", "repeated", "unstable"] {
        let scenario = "kairo/\(name)"
        func cell(_ implementation: String) -> String {
            result(scenario, implementation).map { format($0.microseconds) } ?? "–"
        }
        let observation = ratio(
            result(scenario, "Incremental")?.microseconds, result(scenario, "Observation")?.microseconds)
        let combine = ratio(
            result(scenario, "Incremental")?.microseconds, result(scenario, "OpenCombine")?.microseconds)
        let baselineMultiple = ratio(
            result(scenario, "Incremental")?.microseconds, result(scenario, "Baseline")?.microseconds)
        baselineMultiples[name] = baselineMultiple
        line(
            "| \(name) | \(cell("Incremental")) | \(cell("Glue")) | \(cell("Observation")) | \(cell("OpenCombine")) | \(cell("Baseline")) | \(formatRatio(baselineMultiple)) | \(formatRatio(observation)) | \(formatRatio(combine)) |"
        )
        for (peer, value) in [("Observation", observation), ("OpenCombine", combine)] {
            guard let value else {
                kairoMet = false
                continue
            }
            ratios.append(Ratio(label: "Incremental / \(peer), kairo \(name)", value: value, target: 1))
            kairoWorst = max(kairoWorst, value)
            if value >= 1 { kairoMet = false }
        }
    }
    targets.append(
        (
            "Incremental faster than Observation and OpenCombine on every kairo scenario",
            "worst ratio \(formatRatio(kairoWorst))", kairoMet
        ))
    line()
    let deepIncremental = result("kairo/deep", "Incremental")?.microseconds
    let deepCombine = ratio(deepIncremental, result("kairo/deep", "OpenCombine")?.microseconds)
    let deepBaseline = ratio(deepIncremental, result("kairo/deep", "Baseline")?.microseconds)
    targets.append(
        (
            "Incremental deep propagation ≤ OpenCombine's time and ≤ 5× the baseline",
            "\(formatRatio(deepCombine)) OpenCombine, \(formatRatio(deepBaseline)) baseline",
            deepCombine.flatMap { combine in deepBaseline.map { combine <= 1 && $0 <= 5 } }
        ))
    // The harness's own allocations per iteration show in the baseline's count.
    let deepMallocs = result("kairo/deep", "Incremental").flatMap { incremental in
        result("kairo/deep", "Baseline").map { max(0, incremental.mallocs - $0.mallocs) / 50 }
    }
    targets.append(
        (
            "Incremental: zero mallocs per write through a map chain (kairo deep)",
            deepMallocs.map { format($0) } ?? "–", deepMallocs.map { $0 < 0.01 }
        ))
    line("Effects ran the number of times each check states: OpenCombine 0.14 has no `combineLatest`, so its")
    line("diamond and triangle pair branches with `zip`. Observation's derived values are memoized as its")
    line("users write them: `@Observable` caches recomputed under `withObservationTracking` when what they")
    line("read changes, written only when the result differs; after each write the marked caches run first,")
    line("until they settle, then the marked effects, once each. Glue runs the four scenarios its operators")
    line("express directly.")
    line()

    // MARK: cellx and the sum
    line("## cellx and Jane Street's sum")
    line()
    line("\"The objects alone\" is cellx with a node object per value (holding its graph and its inputs) and a")
    line("connection object per observer (holding its node), made, computed and released as Incremental's")
    line("iteration does, and no engine (`objectsCellx` in `Cellx.swift`): the floor under any API whose values")
    line("are objects its users hold and whose `observe` returns a connection.")
    line()
    line("| scenario | implementation | µs per iteration | against |")
    line("| --- | --- | ---: | --- |")
    for layers in [1_000, 2_500, 5_000] {
        let scenario = "cellx/\(layers)"
        let incremental = result(scenario, "Incremental")?.microseconds
        let observation = result(scenario, "Observation")?.microseconds
        let baseline = result(scenario, "Baseline")?.microseconds
        let objects = result(scenario, "Objects")?.microseconds
        line(
            "| \(scenario) | Incremental | \(incremental.map(format) ?? "–") | baseline \(baseline.map(format) ?? "–") µs (\(formatRatio(ratio(incremental, baseline))) of it); Observation \(observation.map(format) ?? "–") µs (\(formatRatio(ratio(incremental, observation))) of it); the objects alone \(objects.map(format) ?? "–") µs, \(formatRatio(ratio(objects, baseline))) the baseline |"
        )
    }
    let cellxSmall = result("cellx/1000", "Incremental")?.microseconds
    let cellxLarge = result("cellx/5000", "Incremental")?.microseconds
    let cellxGrowth = ratio(cellxLarge.map { $0 / 5 }, cellxSmall)
    let cellxBaseline = ratio(cellxLarge, result("cellx/5000", "Baseline")?.microseconds)
    targets.append(
        (
            "Incremental cellx: cost per node at 5000 layers ≤ 1.3× that at 1000, and ≤ 10× the baseline",
            "\(formatRatio(cellxGrowth)) per node, \(formatRatio(cellxBaseline)) baseline",
            cellxGrowth.flatMap { growth in cellxBaseline.map { growth <= 1.3 && $0 <= 10 } }
        ))
    for layers in [1_000, 2_500, 5_000] {
        baselineMultiples["cellx/\(layers)"] = ratio(
            result("cellx/\(layers)", "Incremental")?.microseconds, result("cellx/\(layers)", "Baseline")?.microseconds)
    }
    // alien-signals 3.2.1's multiples of this baseline, measured on this kind of machine
    // outside the package (issue #41): the goals Incremental is held to.
    let alienSignals: [(String, Double)] = [
        ("diamond", 24), ("triangle", 32), ("unstable", 22), ("cellx/1000", 7.4), ("cellx/2500", 7.0),
        ("cellx/5000", 10.7),
    ]
    var alienMet = true
    var alienCells: [String] = []
    for (name, goal) in alienSignals {
        let multiple = baselineMultiples[name] ?? nil
        alienCells.append("\(name) \(formatRatio(multiple)) (≤ \(format(goal))×)")
        if (multiple ?? .infinity) > goal { alienMet = false }
    }
    targets.append(
        (
            "Incremental within alien-signals' multiple of the baseline",
            alienCells.joined(separator: ", "), alienMet
        ))
    let sumScenario = "sum/100k-leaves"
    let scratch = perEvent(sumScenario, "FromScratch")
    for implementation in ["Incremental", "Glue"] {
        let perChange = perEvent(sumScenario, implementation)
        line(
            "| sum of 100,000 leaves, per change | \(implementation) | \(perChange.map { format($0 / 1_000) } ?? "–") | from scratch \(scratch.map { format($0 / 1_000) } ?? "–") µs: \(speedup(scratch, perChange)) faster |"
        )
    }
    if let empty = perEvent("incremental/empty-propagation", "Incremental") {
        line("| empty propagation | Incremental | \(format(empty / 1_000)) | Jane Street: under 0.1 µs |")
    }
    if !phases.isEmpty {
        line()
        line("Where the time goes: after each pass, `report --phases-json` times each phase of Incremental's")
        line("cellx iteration and the same phase of the objects alone, alternating the two, on the same build")
        line("and without the harness's malloc counting. For each size the pass whose Incremental total was")
        line("lowest is shown (as for the benchmarks, every implementation alike): medians per iteration, and")
        line("how much longer Incremental's is, per node (four per layer).")
        line()
        line("| scenario | phase | Incremental µs | objects alone µs | Incremental above, ns per node |")
        line("| --- | --- | ---: | ---: | ---: |")
        for comparison in phases {
            for phase in comparison.phases {
                line(
                    "| cellx/\(comparison.layers) | \(phase.name) | \(format(phase.incrementalMedian)) | \(format(phase.objectsMedian)) | \(format(comparison.nanosecondsAboveObjects(phase))) |"
                )
            }
        }
    }
    line()

    // MARK: Collections
    line("## Collection pipelines: one mutation against recomputing")
    line()
    line("Filter → sort → map over n rows; microseconds per mutation (the mean of an insert, a move, a")
    line("filter crossing and a delete), and how much faster than recomputing the view from scratch.")
    line("\"Glue, element fields\" holds row objects whose `done` and order are variables, followed by")
    line("`filter(observing:)` and `sorted(observing:)`: a move or a crossing writes one row's variable.")
    line()
    line("| rows | SignalGraph | Glue | Glue, element fields | Incremental | from scratch |")
    line("| ---: | ---: | ---: | ---: | ---: | ---: |")
    let sizes = [10_000, 100_000, 1_000_000]
    for size in sizes {
        let scenario = "collections/\(size / 1_000)k-rows"
        let fromScratch = perEvent(scenario, "FromScratch")
        func cell(_ implementation: String) -> String {
            guard let ns = perEvent(scenario, implementation) else { return "–" }
            return "\(format(ns / 1_000)) (\(speedup(fromScratch, ns)))"
        }
        line(
            "| \(size) | \(cell("SignalGraph")) | \(cell("Glue")) | \(cell("GlueFields")) | \(cell("Incremental")) | \(fromScratch.map { format($0 / 1_000) } ?? "–") |"
        )
        if size == 1_000_000 {
            for implementation in ["SignalGraph", "Glue", "Incremental"] {
                if let ns = perEvent(scenario, implementation), let fromScratch {
                    ratios.append(
                        Ratio(
                            label: "\(implementation) / from scratch, 1M rows", value: ns / fromScratch, target: 0.001))
                }
            }
        }
    }
    line()
    line("| growth from 10k to 1M rows | SignalGraph | Glue | Glue, element fields | Incremental |")
    line("| --- | ---: | ---: | ---: | ---: |")
    var growthCells: [String] = []
    var speedupMet = true
    var growthMet = true
    var speedupText: [String] = []
    var growthText: [String] = []
    for implementation in ["SignalGraph", "Glue", "GlueFields", "Incremental"] {
        let small = perEvent("collections/10k-rows", implementation)
        let large = perEvent("collections/1000k-rows", implementation)
        let growth = ratio(large, small)
        growthCells.append(growth.map { "\(format($0))×" } ?? "–")
        let fromScratch = perEvent("collections/1000k-rows", "FromScratch")
        if let large, let fromScratch {
            speedupText.append("\(displayName(implementation)) \(speedup(fromScratch, large))")
            if fromScratch / large < 1_000 { speedupMet = false }
        } else {
            speedupMet = false
        }
        if let growth {
            growthText.append("\(displayName(implementation)) \(format(growth))×")
            if growth > 2.5 { growthMet = false }
        } else {
            growthMet = false
        }
    }
    line("| time per mutation, 1M / 10k | \(growthCells.joined(separator: " | ")) |")
    targets.append(
        (
            "One mutation in a 1M-row pipeline ≥ 1,000× faster than recomputing", speedupText.joined(separator: ", "),
            speedupMet
        ))
    targets.append(
        ("…growing no more than about 2× from 10k to 1M rows", growthText.joined(separator: ", "), growthMet))
    line()

    // MARK: Bridges
    line("## Bridges: a Glue array summed by Incremental")
    line()
    line("One update of one element of a Glue array of n numbers, until the Incremental sum shows it;")
    line("microseconds per update. \"drive\" is a delta bridge (`rows.drive(input)` into an array")
    line("input, summed edit by edit); \"values → feed\" goes through an `AsyncSequence` of whole arrays")
    line("(`input.feed(from: rows.values)`, summed by a `map`), on one actor.")
    line()
    line("| elements | drive | values → feed | feed / drive |")
    line("| ---: | ---: | ---: | ---: |")
    for size in [10_000, 100_000] {
        let scenario = "bridges/\(size / 1_000)k-elements"
        let driven = perEvent(scenario, "drive")
        let fed = perEvent(scenario, "values-feed")
        line(
            "| \(size) | \(driven.map { format($0 / 1_000) } ?? "–") | \(fed.map { format($0 / 1_000) } ?? "–") | \(ratio(fed, driven).map { "\(format($0))×" } ?? "–") |"
        )
    }
    let smallDrive = perEvent("bridges/10k-elements", "drive")
    let largeDrive = perEvent("bridges/100k-elements", "drive")
    let driveGrowth = ratio(largeDrive, smallDrive)
    targets.append(
        (
            "A bridge costs O(change): an update of a 100k-element array costs about what one of 10k does",
            driveGrowth.map { "drive 100k / 10k: \(format($0))×" } ?? "–", driveGrowth.map { $0 < 2 }
        ))
    line()

    /// The name a collection implementation has in the targets' text.
    func displayName(_ implementation: String) -> String {
        implementation == "GlueFields" ? "Glue (element fields)" : implementation
    }

    // MARK: Resin
    line("## Resin: a dispatch that changes 1 of n observed sub-states")
    line()
    line("Microseconds per dispatch; every dispatch woke exactly one observer (checked).")
    line()
    line("| focus | 1 of 10 | 1 of 1,000 | 1,000 / 10 |")
    line("| --- | ---: | ---: | ---: |")
    var resinGrowth: [String] = []
    var resinMet = true
    for implementation in ["Resin", "ResinKeyPath", "ResinReducerPerPart"] {
        let small = perEvent("resin/1-of-10", implementation)
        let large = perEvent("resin/1-of-1000", implementation)
        let growth = ratio(large, small)
        let label: String
        switch implementation {
        case "Resin": label = "`focus(\\.values, key:)`, one reducer"
        case "ResinKeyPath": label = "`focus(\\.values[key])`, one reducer"
        default: label = "`focus(\\.values, key:)`, a routed reducer on every part"
        }
        if let growth {
            resinGrowth.append("\(label): \(format(growth))×")
            if growth > 1.5 { resinMet = false }
        } else {
            resinMet = false
        }
        line(
            "| \(label) | \(small.map { format($0 / 1_000) } ?? "–") | \(large.map { format($0 / 1_000) } ?? "–") | \(growth.map { "\(format($0))×" } ?? "–") |"
        )
        if implementation == "Resin", let growth {
            ratios.append(Ratio(label: "Resin, 1 of 1,000 / 1 of 10", value: growth, target: nil))
        }
    }
    targets.append(
        (
            "Resin: a dispatch concerning 1 of 1,000 parts ≤ 1.5× one concerning 1 of 10, every registration style",
            resinGrowth.joined(separator: "; "), resinMet
        ))
    line()

    // MARK: Resin navigation and persistence
    line("## Resin: dispatch into a typed navigation stack, and persistence")
    line()
    line(
        "Microseconds per dispatch to the top screen of a stack followed with `Store.stack`; every dispatch woke exactly one observer (checked)."
    )
    line()
    line("| stack depth | 1 | 100 | 1,000 | 100 / 1 | 1,000 / 1 |")
    line("| --- | ---: | ---: | ---: | ---: | ---: |")
    let shallow = perEvent("resin/stack-1", "Resin")
    let deep = perEvent("resin/stack-100", "Resin")
    let deepest = perEvent("resin/stack-1000", "Resin")
    let deepRatio = ratio(deep, shallow)
    let deepestRatio = ratio(deepest, shallow)
    line(
        "| `Store.stack`, a routed reducer per screen | \(shallow.map { format($0 / 1_000) } ?? "–") | \(deep.map { format($0 / 1_000) } ?? "–") | \(deepest.map { format($0 / 1_000) } ?? "–") | \(deepRatio.map { "\(format($0))×" } ?? "–") | \(deepestRatio.map { "\(format($0))×" } ?? "–") |"
    )
    if let deepestRatio {
        ratios.append(Ratio(label: "Resin, 1,000-deep stack / 1-deep", value: deepestRatio, target: nil))
    }
    targets.append(
        (
            "Resin: a dispatch into a 100-deep and a 1,000-deep stack ≤ 1.5× one into a 1-deep stack",
            "100 deep: \(deepRatio.map { "\(format($0))×" } ?? "–"); 1,000 deep: \(deepestRatio.map { "\(format($0))×" } ?? "–")",
            deepRatio.map { $0 <= 1.5 } == true && deepestRatio.map { $0 <= 1.5 } == true
        ))
    line()
    line(
        "Microseconds per change of a persisted state (100 entries), the debounced write included: 100 changes, then one write."
    )
    line()
    line("| persistence | per change | / unpersisted |")
    line("| --- | ---: | ---: |")
    let unpersisted = perEvent("resin/persist", "Resin")
    for (implementation, label) in [
        ("Resin", "none"), ("ResinPersisted", "in memory (`.inMemory`)"),
        ("ResinPersistedFile", "JSON file (`.jsonFile`, atomic)"),
    ] {
        let measured = perEvent("resin/persist", implementation)
        line(
            "| \(label) | \(measured.map { format($0 / 1_000) } ?? "–") | \(ratio(measured, unpersisted).map { "\(format($0))×" } ?? "–") |"
        )
    }
    line()
    if !scale.isEmpty {
        line(
            "Microseconds per change of one element as the collection grows: `Store.forEach` with a routed reducer per element, and a persisted state (changes only; its write is not in the figure). 100 dispatches per iteration, each changing a different element. Timed by `report --scale-json` after each pass (median of 31 iterations; the lowest of the passes), not by package-benchmark, whose runner crashed with the 100,000-element cases. The changes spread over the collection (a stride prime to its size); the same element each time shows the work, and the baseline what reaching one of 100,000 objects costs this machine's memory."
        )
        line()
        line("| collection | 100 | 100,000 | 100,000 / 100 |")
        line("| --- | ---: | ---: | ---: |")
        for (group, label, target) in [
            (
                "forEach", "`Store.forEach`, a routed reducer per element",
                "a change of one element in a 100,000-element `forEach`"
            ),
            (
                "persisted", "a persisted state (`persist`, in memory)",
                "a change of one entry of a persisted 100,000-entry state"
            ),
            (
                "forEachSame", "`Store.forEach`, the same element each time", nil
            ),
            (
                "plainObjects", "baseline: a dictionary of objects, one found by id and changed", nil
            ),
        ] as [(String, String, String?)] {
            let small = scale["resin/\(group)-100"]?.nanosecondsPerEvent
            let large = scale["resin/\(group)-100000"]?.nanosecondsPerEvent
            let growth = ratio(large, small)
            line(
                "| \(label) | \(small.map { format($0 / 1_000) } ?? "–") | \(large.map { format($0 / 1_000) } ?? "–") | \(formatRatio(growth)) |"
            )
            if let target {
                targets.append(
                    ("Resin: \(target) ≤ 1.5× one in a 100-element one", formatRatio(growth), growth.map { $0 <= 1.5 }))
            }
        }
        line()
    }

    // MARK: DevTools
    if !devtools.isEmpty {
        line("## DevTools: writing, opening and serving the page")
        line()
        line(
            "Timed by `report --devtools-json` after each pass (the lowest of the passes): the page of a trace of a 10,000-node graph (100 layers of 100, each node reading two of the layer before) and 100,000 steps of three changes each, written with `DevToolsPage.write(to:)` (median of 5) and opened in headless Chromium (median of 3, from navigation to the graph drawn: the page's `performance.now()` once its script has drawn everything); and an input sent through a tape channel into an Incremental chain of ten maps, without a `DevToolsServer` and with one following the recorder while no page watches (10,000 inputs per iteration, median of 31)."
        )
        line()
        line("| measurement | time | |")
        line("| --- | ---: | --- |")
        let write = devtools["write"]
        let open = devtools["open"]
        let step = devtools["step"]?.nanoseconds
        let served = devtools["stepServed"]?.nanoseconds
        if let write {
            let megabytes = Double(write.bytes ?? 0) / 1_000_000
            line(
                "| write the page (10,000 nodes, 100,000 steps) | \(format(write.nanoseconds / 1e6)) ms | \(format(megabytes)) MB |"
            )
        }
        line(
            "| open it in headless Chromium, to the graph drawn | \(open.map { "\(format($0.nanoseconds / 1e6)) ms" } ?? "not measured (no Chromium)") | |"
        )
        line("| an input, no server | \(step.map { "\(format($0)) ns" } ?? "–") | |")
        line(
            "| an input, a server following, no page watching | \(served.map { "\(format($0)) ns" } ?? "–") | \(formatRatio(ratio(served, step))) |"
        )
        line()
        targets.append(
            (
                "DevTools: the page of 10,000 nodes and 100,000 steps written in under a second",
                write.map { "\(format($0.nanoseconds / 1e6)) ms" } ?? "–", write.map { $0.nanoseconds < 1e9 }
            ))
        targets.append(
            (
                "DevTools: that page opened headless, to the graph drawn, in under two seconds",
                open.map { "\(format($0.nanoseconds / 1e6)) ms" } ?? "–", open.map { $0.nanoseconds < 2e9 }
            ))
        let overhead = ratio(served, step)
        targets.append(
            (
                "DevTools: a live server with no page watching adds at most 5 % to an input's cost",
                formatRatio(overhead), overhead.map { $0 <= 1.05 }
            ))
    }

    // MARK: Targets
    var summary =
        "## Targets (issues 10, 16, 18, 20, 39, 40, 42, 62, 64)\n\n| target | measured | met |\n| --- | --- | :---: |\n"
    for (target, measured, met) in targets {
        summary += "| \(target) | \(measured) | \(met.map { $0 ? "yes" : "**no**" } ?? "–") |\n"
    }
    out = out.replacingOccurrences(of: "![Ratios", with: summary + "\n![Ratios")

    try out.write(to: outputDirectory.appending(path: "RESULTS.md"), atomically: true, encoding: .utf8)
    try chart(ratios).write(to: outputDirectory.appending(path: "results.svg"), atomically: true, encoding: .utf8)
    print("wrote \(outputDirectory.appending(path: "RESULTS.md").path) and results.svg (\(results.count) benchmarks)")
}

func ratio(_ ours: Double?, _ theirs: Double?) -> Double? {
    guard let ours, let theirs, theirs > 0 else { return nil }
    return ours / theirs
}

func speedup(_ scratch: Double?, _ ours: Double?) -> String {
    guard let scratch, let ours, ours > 0 else { return "–" }
    return "\(format(scratch / ours))×"
}

func formatRatio(_ value: Double?) -> String {
    guard let value else { return "–" }
    return "\(format(value))×"
}

/// Three significant digits, without exponent notation.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    var text = String(format: "%.\(decimals)f", value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text
}

/// A horizontal bar chart of ratios on a log scale, with the line at 1× and each target.
func chart(_ ratios: [Ratio]) -> String {
    let rowHeight = 22.0
    let labelWidth = 330.0
    let plotWidth = 420.0
    let top = 56.0
    let height = top + Double(ratios.count) * rowHeight + 40
    let minimum = -5.0  // 0.00001×
    let maximum = 2.0  // 100×
    func x(_ value: Double) -> Double {
        let clamped = min(max(log10(max(value, 1e-9)), minimum), maximum)
        return labelWidth + (clamped - minimum) / (maximum - minimum) * plotWidth
    }
    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(labelWidth + plotWidth + 90))" height="\(Int(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="10" y="20" font-size="14" font-weight="bold">Ours / peer, from one run (log scale: left of 1× is faster)</text>
        <text x="10" y="38" fill="#555">Ticks mark targets. Green: target met; red: missed; blue: no target.</text>

        """
    for exponent in Int(minimum)...Int(maximum) {
        let position = x(pow(10, Double(exponent)))
        let label = "\(String(format: "%g", pow(10, Double(exponent))))×"
        svg +=
            "<line x1=\"\(position)\" y1=\"\(top - 6)\" x2=\"\(position)\" y2=\"\(height - 30)\" stroke=\"\(exponent == 0 ? "#333" : "#ddd")\"/>\n"
        svg += "<text x=\"\(position)\" y=\"\(height - 14)\" text-anchor=\"middle\" fill=\"#555\">\(label)</text>\n"
    }
    for (index, ratio) in ratios.enumerated() {
        let y = top + Double(index) * rowHeight
        let color = ratio.target.map { ratio.value <= $0 ? "#3a7d44" : "#c0392b" } ?? "#5b7fa6"
        let start = x(1)
        let end = x(ratio.value)
        svg += "<text x=\"\(labelWidth - 8)\" y=\"\(y + 14)\" text-anchor=\"end\">\(escape(ratio.label))</text>\n"
        svg +=
            "<rect x=\"\(min(start, end))\" y=\"\(y + 3)\" width=\"\(max(abs(end - start), 1))\" height=\"\(rowHeight - 8)\" fill=\"\(color)\"/>\n"
        if let target = ratio.target {
            let position = x(target)
            svg +=
                "<line x1=\"\(position)\" y1=\"\(y + 1)\" x2=\"\(position)\" y2=\"\(y + rowHeight - 3)\" stroke=\"black\" stroke-width=\"2\"/>\n"
        }
        svg +=
            "<text x=\"\(max(start, end) + 4)\" y=\"\(y + 14)\" fill=\"#333\">\(String(format: "%.3g", ratio.value))×</text>\n"
    }
    svg += "</svg>\n"
    return svg
}

func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
}

/// The processor's model, where the system names it (Linux's `/proc/cpuinfo`): ratios of two
/// implementations move with it (one that is bound by atomic operations and one bound by
/// table lookups gain differently from a faster core), so a run says where it ran.
func processorModel() -> String? {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let name = line.split(separator: ":", maxSplits: 1).last
    else { return nil }
    return name.trimmingCharacters(in: .whitespaces)
}
