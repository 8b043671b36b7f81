import BenchmarkScenarios
import Foundation

/// Incremental's cellx iteration and the objects alone's, timed phase by phase at one size:
/// what `report --phases` prints and what RESULTS.md shows (see `CellxPhases`).
struct PhaseComparison: Codable {
    /// One phase: Incremental's time and the objects alone's, in microseconds per iteration.
    struct Phase: Codable {
        var name: String
        var incrementalP10: Double
        var incrementalMedian: Double
        var incrementalP90: Double
        var objectsMedian: Double
        /// Incremental's minor page faults per iteration, on average; nil for the total.
        var pageFaults: Double?
    }

    var layers: Int
    var iterations: Int
    /// The phases in order, then their total.
    var phases: [Phase]

    /// The last phase: the total of the others.
    var total: Phase { phases[phases.count - 1] }

    /// How much longer Incremental's median is than the objects alone's, in nanoseconds per
    /// node (four per layer).
    func nanosecondsAboveObjects(_ phase: Phase) -> Double {
        (phase.incrementalMedian - phase.objectsMedian) * 1_000 / Double(4 * layers)
    }

    /// Measures `iterations` iterations of each, alternated (a slow spell of the machine then
    /// falls on both alike), after ten of each that are not counted.
    static func measure(layers: Int, iterations: Int) throws -> PhaseComparison {
        var incremental: [CellxPhases] = []
        var objects: [CellxPhases] = []
        for round in 0..<(iterations + 10) {
            let ours = try CellxPhases.measure(.incremental, layers: layers)
            let floor = try CellxPhases.measure(.objects, layers: layers)
            guard round >= 10 else { continue }
            incremental.append(ours)
            objects.append(floor)
        }
        func microseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        }
        func sorted(_ runs: [CellxPhases], _ time: (CellxPhases) -> Duration) -> [Double] {
            runs.map { microseconds(time($0)) }.sorted()
        }
        func phase(_ name: String, faults: Double?, _ time: (CellxPhases) -> Duration) -> Phase {
            let ours = sorted(incremental, time)
            let floor = sorted(objects, time)
            return Phase(
                name: name, incrementalP10: ours[ours.count / 10], incrementalMedian: ours[ours.count / 2],
                incrementalP90: ours[ours.count * 9 / 10], objectsMedian: floor[floor.count / 2], pageFaults: faults)
        }
        var phases = CellxPhases.names.indices.map { index in
            phase(
                CellxPhases.names[index],
                faults: Double(incremental.map { $0.pageFaults[index] }.reduce(0, +)) / Double(iterations)
            ) { $0.durations[index] }
        }
        phases.append(phase("total", faults: nil) { $0.durations.reduce(.zero, +) })
        return PhaseComparison(layers: layers, iterations: iterations, phases: phases)
    }

    /// The comparison as `report --phases` prints it.
    var text: String {
        var out = """
            cellx/\(layers), \(iterations) iterations of each, alternated: Incremental's µs per iteration \
            (p10 / median / p90) and page faults, the objects alone's median, and how much longer \
            Incremental's median is, in ns per node

            """
        for phase in phases {
            let spread = [phase.incrementalP10, phase.incrementalMedian, phase.incrementalP90].map(format)
            let faults = phase.pageFaults.map { String(format: ", %.2f faults", $0) } ?? ""
            out += "  \(phase.name.padding(toLength: 18, withPad: " ", startingAt: 0)) "
            out += "\(spread.joined(separator: " / ")) µs\(faults); objects \(format(phase.objectsMedian)) µs; "
            out += String(format: "%+.0f ns per node\n", nanosecondsAboveObjects(phase))
        }
        return out
    }
}

/// The sizes and iteration counts that a full run measures phase by phase.
let phaseSizes = [(layers: 1_000, iterations: 150), (layers: 2_500, iterations: 80), (layers: 5_000, iterations: 60)]

/// Measures every size of ``phaseSizes`` (`quick`: a few iterations each) and writes the
/// comparisons to `file` as JSON; `report --write` reads the `phases.json` of each pass.
func writePhaseComparisons(to file: URL, quick: Bool) throws {
    let comparisons = try phaseSizes.map { size in
        try PhaseComparison.measure(layers: size.layers, iterations: quick ? 2 : size.iterations)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(comparisons).write(to: file)
}

/// Reads what ``writePhaseComparisons(to:quick:)`` wrote.
func readPhaseComparisons(from file: URL) throws -> [PhaseComparison] {
    try JSONDecoder().decode([PhaseComparison].self, from: Data(contentsOf: file))
}
