import Dispatch
import Glue
import Incremental
import ReactiveCore
import Synchronization

/// A Glue array of n numbers followed by an Incremental sum of them. One iteration makes 100
/// updates of one element of the Glue array, each checked on the Incremental side before the
/// next. "drive" joins them with a bridge (`rows.drive(input)` into an array input, summed
/// edit by edit); "values-feed" goes through an `AsyncSequence`, as before bridges: the
/// array's `.values` fed into an input of the whole array (`input.feed(from: rows.values)`),
/// summed by a `map`, both on one actor, each update awaited until the sum shows it.
enum BridgeCases {
    static let updates = 100

    static func all(sizes: [Int]) -> [BenchmarkCase] {
        sizes.flatMap { size in
            let scenario = "bridges/\(size / 1_000)k-elements"
            let text = "\(updates) updates of one element of a Glue array of \(size), each summed by Incremental"
            return [
                BenchmarkCase(scenario, "drive", iteration: text, events: updates) { DrivenSum(size) },
                BenchmarkCase(scenario, "values-feed", iteration: text, events: updates) { FedSum(size) },
            ]
        }
    }

    /// The value written at `index` in `round`: it changes the element every time.
    static func value(round: Int, index: Int) -> Int { round * 1_000 + index + 1 }
}

final class DrivenSum: ScenarioRunner {
    private let rows: ArrayVariable<Int>
    private let graph = Graph()
    private let total: I<Int>
    private let connections: [Connection]
    private var round = 0
    private var expected: Int

    init(_ size: Int) {
        rows = ArrayVariable(Array(repeating: 0, count: size))
        let input = graph.arrayInput([Int]())
        total = input.sum()
        connections = [rows.drive(input), total.observe { _ in }]
        expected = 0
    }

    func iterate() throws {
        round += 1
        for index in 0..<BridgeCases.updates {
            let value = BridgeCases.value(round: round, index: index)
            expected += value - rows[index]
            rows[index] = value
            try check(total.value == expected, "drive: sum \(total.value), expected \(expected)")
        }
    }

    func finish() throws {
        for connection in connections { connection.disconnect() }
    }
}

final class FedSum: ScenarioRunner {
    private let bench: FeedBench
    private var round = 0

    init(_ size: Int) {
        bench = FeedBench(size: size)
        _ = waitForAsync { [bench] in await bench.start() }
    }

    func iterate() throws {
        round += 1
        let round = round
        let mismatches = waitForAsync { [bench] in await bench.iterate(round: round) }
        try check(mismatches == 0, "values-feed: \(mismatches) sums differed")
    }

    func finish() throws {
        _ = waitForAsync { [bench] in await bench.stop() }
    }
}

/// The Glue array, the graph and the feed, isolated to one actor.
actor FeedBench {
    private let rows: ArrayVariable<Int>
    private let graph = Graph()
    private let input: Input<[Int]>
    private let total: I<Int>
    private var connections: [Connection] = []
    private let latest = LatestSum()
    private var expected = 0

    init(size: Int) {
        rows = ArrayVariable(Array(repeating: 0, count: size))
        input = graph.input([Int]())
        total = input.map { $0.reduce(0, &+) }
    }

    func start() -> Int {
        let latest = latest
        connections = [input.feed(from: rows.values), total.observe { latest.value = $0 }]
        return 0
    }

    /// Each update, then a wait until the sum shows it; the number of sums that were wrong.
    func iterate(round: Int) async -> Int {
        var mismatches = 0
        for index in 0..<BridgeCases.updates {
            let value = BridgeCases.value(round: round, index: index)
            expected += value - rows[index]
            rows[index] = value
            var yields = 0
            while latest.value != expected && yields < 1_000_000 {
                await Task.yield()
                yields += 1
            }
            if latest.value != expected { mismatches += 1 }
        }
        return mismatches
    }

    func stop() -> Int {
        for connection in connections { connection.disconnect() }
        return 0
    }
}

/// The last sum the feed's graph computed.
final class LatestSum {
    var value = 0
}
