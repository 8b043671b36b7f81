import Incremental
import ReactiveCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// cellx: four sources, then layers of p1 = prev.p2, p2 = prev.p1 − prev.p3,
/// p3 = prev.p2 + prev.p4, p4 = prev.p3, with an effect on every node. One iteration builds
/// the graph, reads the last layer, writes (4, 3, 2, 1) in one batch and reads again.
///
/// Incremental, Observation (memoized derived values) and the baseline run it, and so do the
/// objects alone (`objectsCellx`): what Incremental's API shape costs before any engine. OpenCombine's
/// `combineLatest` emits once per path from a source, and the number of paths grows
/// exponentially with depth; Glue's derived values are recomputed on every read, which is
/// exponential too.
enum CellxCases {
    static let expected: [Int: (before: [Int], after: [Int])] = [
        1_000: ([-3, -6, -2, 2], [-2, -4, 2, 3]),
        2_500: ([-3, -6, -2, 2], [-2, -4, 2, 3]),
        5_000: ([2, 4, -1, -6], [-2, 1, -4, -4]),
    ]

    static var all: [BenchmarkCase] {
        [1_000, 2_500, 5_000].flatMap { layers in
            let text = "build \(layers) layers, read, write all four sources in one batch, read"
            return [
                BenchmarkCase("cellx/\(layers)", "Incremental", iteration: text, events: 4 * layers) {
                    ClosureRunner { try incrementalCellx(layers) }
                },
                BenchmarkCase("cellx/\(layers)", "Observation", iteration: text, events: 4 * layers) {
                    ClosureRunner { try observationCellx(layers) }
                },
                BenchmarkCase("cellx/\(layers)", "Baseline", iteration: text, events: 4 * layers) {
                    ClosureRunner { try baselineCellx(layers) }
                },
                BenchmarkCase("cellx/\(layers)", "Objects", iteration: text, events: 4 * layers) {
                    ClosureRunner { try objectsCellx(layers) }
                },
            ]
        }
    }

    static func checkLayer(_ name: String, _ layers: Int, _ values: [Int], after: Bool) throws {
        guard let expected = expected[layers] else { return }
        let want = after ? expected.after : expected.before
        try check(values == want, "\(name) cellx \(layers): last layer \(values), expected \(want)")
    }
}

/// `mark` is called at the end of each phase (see ``CellxPhases``); the benchmark passes none.
func incrementalCellx(_ layers: Int, mark: () -> Void = {}) throws {
    let graph = Graph()
    let sources = (1...4).map { graph.input($0) }
    var previous: [I<Int>] = sources
    var effects = 0
    var connections: [Connection] = []
    connections.reserveCapacity(4 * layers)
    for _ in 0..<layers {
        let (p1, p2, p3, p4) = (previous[0], previous[1], previous[2], previous[3])
        let layer = [
            p2.map { $0 },
            map2(p1, p3) { $0 - $1 },
            map2(p2, p4) { $0 + $1 },
            p3.map { $0 },
        ]
        for node in layer { connections.append(node.observe { _ in effects += 1 }) }
        previous = layer
    }
    try CellxCases.checkLayer("Incremental", layers, previous.map(\.value), after: false)
    mark()
    graph.batch {
        for (source, value) in zip(sources, [4, 3, 2, 1]) { source.write(value) }
        mark()
    }
    mark()
    try CellxCases.checkLayer("Incremental", layers, previous.map(\.value), after: true)
    try check(effects >= 4 * layers, "Incremental cellx: \(effects) effect runs")
    for connection in connections { connection.disconnect() }
    mark()
    connections = []
    previous = []
    mark()
}

/// A cellx iteration split into its phases, timed: building the layers and their observers,
/// the batch's writes (marking what they reach), the propagation at the batch's end, the
/// disconnections, and freeing everything. For `report --phases`, which shows where
/// Incremental's time goes, phase by phase, next to the objects alone's (the same phases of
/// `objectsCellx`: making, writing the sources, recomputing every node, letting go of the
/// connections' nodes, freeing); each duration is one iteration's.
public struct CellxPhases: Sendable {
    /// Whose iteration is timed.
    public enum Implementation: Sendable {
        /// Incremental's.
        case incremental
        /// The objects alone's: the floor under Incremental's API shape.
        case objects
    }

    /// The phases' names, in the order of ``durations``.
    public static let names = ["build and observe", "writes", "propagation", "disconnect", "free"]
    /// How long each phase took.
    public var durations: [Duration]
    /// The minor page faults each phase took (as `getrusage` counts them).
    public var pageFaults: [Int]

    /// Runs one iteration at `layers` layers, checking its values as the benchmark does.
    public static func measure(_ implementation: Implementation = .incremental, layers: Int) throws -> CellxPhases {
        let clock = ContinuousClock()
        var marks: [(ContinuousClock.Instant, Int)] = []
        marks.reserveCapacity(names.count + 1)
        func mark() { marks.append((clock.now, minorPageFaults())) }
        mark()
        switch implementation {
        case .incremental: try incrementalCellx(layers, mark: mark)
        case .objects: try objectsCellx(layers, mark: mark)
        }
        return CellxPhases(
            durations: (1..<marks.count).map { marks[$0].0 - marks[$0 - 1].0 },
            pageFaults: (1..<marks.count).map { marks[$0].1 - marks[$0 - 1].1 })
    }

    private static func minorPageFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_minflt)
    }
}

/// Observation as its users write derived values: memoized caches, one effect per node.
func observationCellx(_ layers: Int) throws {
    let sources = (1...4).map { ObservedCell($0) }
    let effects = ObservationEffects()
    var previous: [() -> Int] = sources.map { source in { source.value } }
    var effectRuns = 0
    for _ in 0..<layers {
        let (p1, p2, p3, p4) = (previous[0], previous[1], previous[2], previous[3])
        let layer = [
            effects.derived { p2() },
            effects.derived { p1() - p3() },
            effects.derived { p2() + p4() },
            effects.derived { p3() },
        ]
        for node in layer {
            effects.effect {
                _ = node.value; effectRuns += 1
            }
        }
        previous = layer.map { node in { node.value } }
    }
    try CellxCases.checkLayer("Observation", layers, previous.map { $0() }, after: false)
    effects.batch {
        for (source, value) in zip(sources, [4, 3, 2, 1]) { source.value = value }
    }
    try CellxCases.checkLayer("Observation", layers, previous.map { $0() }, after: true)
    try check(effectRuns >= 4 * layers, "Observation cellx: \(effectRuns) effect runs")
}

/// The objects that an API of Incremental's shape makes, and nothing else: a node object per
/// value (holding its graph and the nodes it reads, and computing its value from them) and a
/// connection object per observer (holding its node), built, computed, written and released
/// as the Incremental iteration does. No propagation, no cutoff, no observer closures: a
/// floor under any engine whose values are objects its users hold and whose `observe`
/// returns a connection.
///
/// `mark` is called at the end of each phase, as in ``incrementalCellx(_:mark:)``.
func objectsCellx(_ layers: Int, mark: () -> Void = {}) throws {
    let graph = ObjectGraph()
    let sources = (1...4).map { ObjectNode(graph: graph, value: $0) }
    var previous = sources
    var nodes: [ObjectNode] = []
    nodes.reserveCapacity(4 * layers)
    var connections: [ObjectConnection] = []
    connections.reserveCapacity(4 * layers)
    var effects = 0
    for _ in 0..<layers {
        let (p1, p2, p3, p4) = (previous[0], previous[1], previous[2], previous[3])
        let layer = [
            ObjectNode(graph: graph, kind: .copy, p2, nil),
            ObjectNode(graph: graph, kind: .difference, p1, p3),
            ObjectNode(graph: graph, kind: .sum, p2, p4),
            ObjectNode(graph: graph, kind: .copy, p3, nil),
        ]
        for node in layer {
            _ = node.compute()
            effects += 1
            connections.append(ObjectConnection(node))
            nodes.append(node)
        }
        previous = layer
    }
    try CellxCases.checkLayer("objects", layers, previous.map(\.value), after: false)
    mark()
    for (source, value) in zip(sources, [4, 3, 2, 1]) { source.value = value }
    mark()
    for node in nodes where node.compute() { effects += 1 }
    mark()
    try CellxCases.checkLayer("objects", layers, previous.map(\.value), after: true)
    try check(effects >= 4 * layers, "objects cellx: \(effects) effect runs")
    for connection in connections { connection.node = nil }
    mark()
    connections = []
    nodes = []
    previous = []
    mark()
}

final class ObjectGraph {}

final class ObjectNode {
    enum Kind { case source, copy, difference, sum }
    let graph: ObjectGraph
    let kind: Kind
    let a: ObjectNode?
    let b: ObjectNode?
    var value = 0

    init(graph: ObjectGraph, value: Int) {
        (self.graph, kind, a, b, self.value) = (graph, .source, nil, nil, value)
    }

    init(graph: ObjectGraph, kind: Kind, _ a: ObjectNode, _ b: ObjectNode?) {
        (self.graph, self.kind, self.a, self.b) = (graph, kind, a, b)
    }

    /// Recomputes from the inputs (computed before it); whether the value changed.
    func compute() -> Bool {
        let old = value
        switch kind {
        case .source: return false
        case .copy: value = a!.value
        case .difference: value = a!.value - b!.value
        case .sum: value = a!.value + b!.value
        }
        return value != old
    }
}

final class ObjectConnection {
    var node: ObjectNode?
    init(_ node: ObjectNode) { self.node = node }
}

/// The limit: arrays of the four values per layer, recomputed in one pass, effects as calls.
func baselineCellx(_ layers: Int) throws {
    var effects = 0
    func run(_ start: [Int], previous: [[Int]]?) -> [[Int]] {
        var result: [[Int]] = []
        result.reserveCapacity(layers)
        var last = start
        for layer in 0..<layers {
            let next = [last[1], last[0] - last[2], last[1] + last[3], last[2]]
            for index in 0..<4 where previous?[layer][index] != next[index] { effects += 1 }
            result.append(next)
            last = next
        }
        return result
    }
    let before = run([1, 2, 3, 4], previous: nil)
    try CellxCases.checkLayer("baseline", layers, before[layers - 1], after: false)
    let after = run([4, 3, 2, 1], previous: before)
    try CellxCases.checkLayer("baseline", layers, after[layers - 1], after: true)
    try check(effects >= 4 * layers, "baseline cellx: \(effects) effect runs")
}
