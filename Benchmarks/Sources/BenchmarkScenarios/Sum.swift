import Glue
import Incremental
import ReactiveCore

/// Jane Street's example: the sum of n leaves; change one leaf, read the sum. And an empty
/// propagation, the fixed cost of asking a graph to stabilize.
enum SumCases {
    static let leaves = 100_000
    static let changes = 100

    static var all: [BenchmarkCase] {
        let text = "100 changes of one leaf of 100,000, each followed by a read of the sum"
        return [
            BenchmarkCase("sum/100k-leaves", "Incremental", iteration: text, events: changes) { IncrementalSum() },
            BenchmarkCase("sum/100k-leaves", "Glue", iteration: text, events: changes) { GlueSum() },
            BenchmarkCase("sum/100k-leaves", "FromScratch", iteration: text, events: changes) { ScratchSum() },
            BenchmarkCase(
                "incremental/empty-propagation", "Incremental", iteration: "1,000 empty batches", events: 1_000
            ) {
                let graph = Graph()
                let connection = graph.input(0).observe { _ in }
                return ClosureRunner(keep: [connection, graph]) {
                    for _ in 0..<1_000 { graph.batch {} }
                }
            },
        ]
    }
}

/// The leaf values and the sum they should have, shared by the implementations.
struct LeafChanges {
    var round = 0

    /// The changes of one iteration: (leaf, new value).
    mutating func next() -> [(Int, Int)] {
        defer { round += 1 }
        return (0..<SumCases.changes).map { change in
            ((change * 7_919 + round * 104_729) % SumCases.leaves, (round * 31 + change) % 1_000)
        }
    }
}

final class IncrementalSum: ScenarioRunner {
    let graph = Graph()
    let leaves: ArrayInput<Int>
    var expected: Int
    var values: [Int]
    var changes = LeafChanges()
    var connection: Connection?
    let sum: I<Int>

    init() {
        values = Array(repeating: 1, count: SumCases.leaves)
        expected = SumCases.leaves
        leaves = graph.arrayInput(values)
        sum = leaves.sum()
        connection = sum.observe { _ in }
    }

    func iterate() throws {
        for (leaf, value) in changes.next() {
            expected += value - values[leaf]
            values[leaf] = value
            leaves[leaf] = value
            try check(sum.value == expected, "Incremental sum is \(sum.value), expected \(expected)")
        }
    }

    func finish() throws { connection?.disconnect() }
}

final class GlueSum: ScenarioRunner {
    let leaves: ArrayVariable<Int>
    var expected: Int
    var values: [Int]
    var changes = LeafChanges()
    let sum: ReducedObservable<Int>
    var connection: Connection?

    init() {
        values = Array(repeating: 1, count: SumCases.leaves)
        expected = SumCases.leaves
        leaves = ArrayVariable(values)
        sum = leaves.sum()
        connection = sum.subscribe { _ in }
    }

    func iterate() throws {
        for (leaf, value) in changes.next() {
            expected += value - values[leaf]
            values[leaf] = value
            leaves.replaceSubrange(leaf..<(leaf + 1), with: [value])
            try check(sum.value == expected, "Glue sum is \(sum.value), expected \(expected)")
        }
    }

    func finish() throws { connection?.disconnect() }
}

/// Recomputes the sum from the leaves after every change.
final class ScratchSum: ScenarioRunner {
    var leaves = Array(repeating: 1, count: SumCases.leaves)
    var expected = SumCases.leaves
    var changes = LeafChanges()

    func iterate() throws {
        for (leaf, value) in changes.next() {
            expected += value - leaves[leaf]
            leaves[leaf] = value
            let sum = leaves.reduce(0, &+)
            try check(sum == expected, "from-scratch sum is \(sum), expected \(expected)")
        }
    }
}
