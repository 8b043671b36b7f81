import BenchmarkScenarios
import Foundation

/// One of Resin's scale cases timed by the report itself (package-benchmark's runner crashed
/// with the 100,000-element ones): what `report --scale-json` writes and RESULTS.md shows.
struct ScaleMeasurement: Codable {
    /// The case's scenario, `resin/forEach-100000` for example.
    var scenario: String
    /// The median time of one iteration, in nanoseconds per event (one change).
    var nanosecondsPerEvent: Double
    /// How many iterations were timed.
    var iterations: Int

    /// Builds `benchmarkCase`, runs three iterations that are not counted, times `iterations`
    /// more one by one, and checks the case's results.
    static func measure(_ benchmarkCase: BenchmarkCase, iterations: Int) throws -> ScaleMeasurement {
        let runner = try benchmarkCase.make()
        let clock = ContinuousClock()
        var times: [Duration] = []
        for round in 0..<(iterations + 3) {
            let elapsed = try clock.measure { try runner.iterate() }
            if round >= 3 { times.append(elapsed) }
        }
        try runner.finish()
        times.sort()
        let median = times[times.count / 2]
        let nanoseconds = Double(median.components.seconds) * 1e9 + Double(median.components.attoseconds) / 1e9
        return ScaleMeasurement(
            scenario: benchmarkCase.scenario,
            nanosecondsPerEvent: nanoseconds / Double(benchmarkCase.eventsPerIteration),
            iterations: iterations)
    }
}

/// Times every case of `ResinScaleCases` (`quick`: three iterations each) and writes the
/// measurements to `file` as JSON; `report --write` reads the `scale.json` of each pass.
func writeScaleMeasurements(to file: URL, quick: Bool) throws {
    let measurements = try ResinScaleCases.all.map { try ScaleMeasurement.measure($0, iterations: quick ? 3 : 31) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(measurements).write(to: file)
}

/// Reads the `scale.json` of each pass that has one and keeps, for each case, the lowest
/// median (as for the benchmarks: this machine's timings are slower in some processes).
func loadScaleMeasurements(passes directories: [URL]) throws -> [String: ScaleMeasurement] {
    var best: [String: ScaleMeasurement] = [:]
    for directory in directories {
        let file = directory.appending(path: "scale.json")
        guard FileManager.default.fileExists(atPath: file.path) else { continue }
        for measurement in try JSONDecoder().decode([ScaleMeasurement].self, from: Data(contentsOf: file)) {
            if let kept = best[measurement.scenario], kept.nanosecondsPerEvent <= measurement.nanosecondsPerEvent {
                continue
            }
            best[measurement.scenario] = measurement
        }
    }
    return best
}
