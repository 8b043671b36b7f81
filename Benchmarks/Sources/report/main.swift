import BenchmarkScenarios
import Foundation

// `report --check [--quick]`: runs every benchmark case a few times and checks its results.
// `report --write EXPORT_DIR...`: turns package-benchmark's exported results (one folder per
// pass) into RESULTS.md and results.svg (see Report.swift).

let arguments = Array(CommandLine.arguments.dropFirst())

func usage() -> Never {
    print(
        """
        usage: report --check [--quick]     run every case (--quick: once) and check its results
               report --profile NAME [ITERATIONS]
                                            run one case, for a profiler
               report --phases LAYERS [ITERATIONS]
                                            time Incremental's cellx iteration phase by phase
                                            (median, 10th and 90th percentile, page faults), next
                                            to the objects alone's
               report --phases-json FILE [--quick]
                                            the same at 1000, 2500 and 5000 layers, written as JSON
                                            (a full run writes one phases.json per pass)
               report --scale-json FILE [--quick]
                                            time Resin's scale cases (100 and 100,000 elements),
                                            written as JSON (one scale.json per pass)
               report --devtools-json FILE [--quick]
                                            time the devtools page's writing and opening (10,000
                                            nodes, 100,000 steps) and a live server's cost per
                                            input, written as JSON (one devtools.json per pass)
               report --write EXPORT_DIR... [--output DIR] [--require-every-case]
                                            write RESULTS.md and results.svg (into DIR, by default the
                                            current folder) from package-benchmark's influx exports, one
                                            EXPORT_DIR per pass (each benchmark's lowest median);
                                            fail if a case has no measurement; with the phases.json
                                            of each EXPORT_DIR, where cellx's time goes
        """)
    exit(2)
}

switch arguments.first {
case "--check":
    // Every case at every size, the 1M-row ones included; --quick runs each once.
    let iterations = arguments.contains("--quick") ? 1 : 3
    var failures = 0
    for benchmarkCase in Catalog.all(collectionSizes: [10_000, 100_000, 1_000_000]) {
        let start = ContinuousClock.now
        do {
            let runner = try benchmarkCase.make()
            for _ in 0..<iterations { try runner.iterate() }
            try runner.finish()
            let elapsed = ContinuousClock.now - start
            print("ok    \(benchmarkCase.name)  (\(elapsed.formatted(.units(allowed: [.milliseconds]))))")
        } catch {
            failures += 1
            print("FAIL  \(benchmarkCase.name): \(error)")
        }
    }
    print(
        failures == 0
            ? "every benchmark computed the expected results" : "\(failures) benchmarks computed wrong results")
    exit(failures == 0 ? 0 : 1)
case "--phases":
    // `report --phases LAYERS [ITERATIONS]`: where an Incremental cellx iteration's time goes,
    // phase by phase, next to the same phases of the objects alone.
    guard arguments.count >= 2, let layers = Int(arguments[1]), layers > 0 else { usage() }
    let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
    do {
        print(try PhaseComparison.measure(layers: layers, iterations: max(iterations, 1)).text, terminator: "")
    } catch {
        print("report: \(error)")
        exit(1)
    }
case "--phases-json":
    // `report --phases-json FILE [--quick]`: the comparison at every size; `--write` reads
    // the `phases.json` of each export directory.
    guard arguments.count >= 2 else { usage() }
    do {
        try writePhaseComparisons(to: URL(filePath: arguments[1]), quick: arguments.contains("--quick"))
    } catch {
        print("report: \(error)")
        exit(1)
    }
case "--scale-json":
    // `report --scale-json FILE [--quick]`: Resin's scale cases, timed here; `--write` reads
    // the `scale.json` of each export directory.
    guard arguments.count >= 2 else { usage() }
    do {
        try writeScaleMeasurements(to: URL(filePath: arguments[1]), quick: arguments.contains("--quick"))
    } catch {
        print("report: \(error)")
        exit(1)
    }
case "--devtools-json":
    // `report --devtools-json FILE [--quick]`: the devtools page's costs, timed here; `--write`
    // reads the `devtools.json` of each export directory.
    guard arguments.count >= 2 else { usage() }
    do {
        try DevToolsTimings.write(to: URL(filePath: arguments[1]), quick: arguments.contains("--quick"))
    } catch {
        print("report: \(error)")
        exit(1)
    }
case "--profile":
    // `report --profile NAME [ITERATIONS]`: one case, for valgrind --tool=callgrind.
    guard arguments.count >= 2,
        let benchmarkCase = (Catalog.all(collectionSizes: [10_000, 100_000, 1_000_000]) + ResinScaleCases.all)
            .first(where: { $0.name == arguments[1] })
    else { usage() }
    let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    do {
        let runner = try benchmarkCase.make()
        for _ in 0..<iterations { try runner.iterate() }
        try runner.finish()
    } catch {
        print("report: \(error)")
        exit(1)
    }
case "--write":
    var options = Array(arguments.dropFirst())
    let requireEveryCase = options.contains("--require-every-case")
    options.removeAll { $0 == "--require-every-case" }
    var output = FileManager.default.currentDirectoryPath
    if let index = options.firstIndex(of: "--output") {
        guard index + 1 < options.count else { usage() }
        output = options[index + 1]
        options.removeSubrange(index...(index + 1))
    }
    guard !options.isEmpty, !options.contains(where: { $0.hasPrefix("--") }) else { usage() }
    do {
        try writeReport(
            exportDirectories: options.map { URL(filePath: $0) }, outputDirectory: URL(filePath: output),
            requireEveryCase: requireEveryCase)
    } catch {
        print("report: \(error)")
        exit(1)
    }
default:
    usage()
}
