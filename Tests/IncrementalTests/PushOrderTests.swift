import Incremental
import TestSupport
import Testing

/// A propagation first brings the nodes its writes marked up to date in the order they were
/// marked (so that a chain is recomputed from the bottom without walking down it). These
/// tests hold that path to the same rules as the pull from observed nodes.
@Suite("Engine: propagation in push order")
struct PushOrderTests {
    @Test("a chain disconnected and freed inside a batch, after a write, is neither computed nor touched")
    func disconnectedInsideBatch() {
        let graph = Graph()
        let source = graph.input(0)
        var runs = 0
        var chain: I<Int>? = source
        for _ in 0..<20 {
            chain = chain!.map {
                runs += 1
                return $0 + 1
            }
        }
        weak let top = chain
        var connection: Connection? = chain!.observe { _ in }
        chain = nil
        let kept = source.map { $0 * 2 }
        var seen: [Int] = []
        let keptConnection = kept.observe { seen.append($0) }
        runs = 0
        graph.batch {
            source.write(1)
            connection?.disconnect()
            connection = nil
        }
        #expect(top == nil, "the chain is freed by the end of the batch")
        #expect(runs == 0, "nothing needs the chain any more")
        #expect(seen == [0, 2])
        _ = keptConnection
    }

    @Test("an observer connected inside a batch, between writes, receives the final value once")
    func observedBetweenWrites() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(10)
        let sum = map2(a, b) { $0 + $1 }
        let doubled = sum.map { $0 * 2 }
        var seen: [Int] = []
        var connection: Connection?
        graph.batch {
            a.write(2)
            connection = doubled.observe { seen.append($0) }
            b.write(20)
        }
        #expect(seen == [24, 44])
        _ = connection
    }

    @Test("a diamond in push order: each node computes once, after both of its inputs")
    func diamond() {
        let graph = Graph()
        let source = graph.input(1)
        var log: [String] = []
        let left = source.map {
            log.append("left")
            return $0 + 1
        }
        let right = source.map {
            log.append("right")
            return $0 * 10
        }
        // Marked through `left` first: its reader `join` comes before `right` in the order
        // of marking, and must still wait for `right`.
        let join = map2(left, right) {
            log.append("join \($0) \($1)")
            return $0 + $1
        }
        var seen: [Int] = []
        let connection = join.observe { seen.append($0) }
        log = []
        source.write(2)
        #expect(log.filter { $0.hasPrefix("join") } == ["join 3 20"])
        #expect(log.count == 3)
        #expect(seen == [12, 23])
        _ = connection
    }

    @Test("a closure that reads a node reading it stops with the cycle message")
    func cycleInPushOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Box { var node: I<Int>? }
            let graph = Graph()
            let source = graph.input(0)
            let box = Box()
            let middle = source.map { value in value + (value > 0 ? box.node!.value : 0) }
            let top = middle.map { $0 + 1 }
            box.node = top
            let connection = top.observe { _ in }
            source.write(1)
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a node reads its own value")
    }
}
