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

    @Test("a node read directly (its inputs current) whose closure reads it stops with the cycle message")
    func cycleInDirectRefresh() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Box { var node: I<Int>? }
            let graph = Graph()
            let source = graph.input(0)
            let box = Box()
            let node = source.map { value in value > 0 ? box.node!.value : 0 }
            box.node = node
            #expect(node.value == 0)
            source.write(1)
            _ = node.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a node reads its own value")
    }

    @Test("observers told first read nodes told later current; every queued node computes once, before any observer")
    func observersReadNodesQueuedAfterThem() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(10)
        var runs: [String: Int] = [:]
        let left = a.map { value in
            runs["left", default: 0] += 1
            return value * 2
        }
        let right = map2(a, b) { x, y in
            runs["right", default: 0] += 1
            return x + y
        }
        var seen: [String] = []
        var propagating = false
        let first = left.observe { value in
            // In a propagation, `right` is queued after `left`: current when `left`'s
            // observer runs, computed by the round, not by this read.
            let before = runs["right", default: 0]
            seen.append("left \(value) right \(right.value)")
            if propagating { #expect(runs["right", default: 0] == before) }
        }
        let second = right.observe { seen.append("right \($0)") }
        runs = [:]
        propagating = true
        graph.batch {
            a.write(2)
            b.write(20)
        }
        #expect(seen == ["left 2 right 11", "right 11", "left 4 right 22", "right 22"])
        #expect(runs == ["left": 1, "right": 1])
        #expect(graph.statistics.lastRecomputations == 2)
        _ = (first, second)
    }

    // An input written again with the same links reuses the order of its last write (a
    // plan); any change of links anywhere makes it walk the readers again.

    @Test("repeated writes reuse the order until links change; readers added or removed later are honoured")
    func planFollowsLinks() {
        let graph = Graph()
        let source = graph.input(0)
        let middle = source.map { $0 + 1 }
        let top = middle.map { $0 * 2 }
        var seen: [Int] = []
        let connection = top.observe { seen.append($0) }
        for value in 1...3 { source.write(value) }
        #expect(seen == [2, 4, 6, 8])
        // A reader added after the order was made is reached by the next write.
        var sideRuns = 0
        var side: I<Int>? = middle.map {
            sideRuns += 1
            return $0 - 1
        }
        var sideSeen: [Int] = []
        var sideConnection: Connection? = side!.observe { sideSeen.append($0) }
        source.write(10)
        source.write(11)
        #expect(sideSeen == [3, 10, 11])
        #expect(seen == [2, 4, 6, 8, 22, 24])
        // A reader removed and freed is not touched by the next writes.
        weak let freed = side
        sideConnection?.disconnect()
        sideConnection = nil
        side = nil
        #expect(freed == nil)
        sideRuns = 0
        source.write(12)
        source.write(13)
        #expect(sideRuns == 0)
        #expect(seen == [2, 4, 6, 8, 22, 24, 26, 28])
        _ = connection
    }

    @Test("a reused order puts every node after its inputs: each closure runs once per write, with current values")
    func planIsTopological() {
        let graph = Graph()
        let source = graph.input(1)
        var log: [String] = []
        var left: I<Int> = source
        for _ in 0..<3 { left = left.map { $0 + 1 } }
        let right = source.map { $0 * 10 }
        let join = map2(left, right) { a, b in
            log.append("\(a) \(b)")
            return a + b
        }
        let connection = join.observe { _ in }
        for value in 2...6 {
            log = []
            let before = graph.statistics.recomputations
            source.write(value)
            #expect(log == ["\(value + 3) \(value * 10)"])
            #expect(graph.statistics.recomputations - before == 5, "three on the left, one on the right, the join")
        }
        _ = connection
    }

    @Test("two inputs written in one batch, each with its order, compute a node they both reach once")
    func twoPlansInOneBatch() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(0)
        let x = a.map { $0 + 1 }
        var runs = 0
        let y = map2(x, b) { x, b in
            runs += 1
            return x * 100 + b
        }
        var seen: [Int] = []
        let connection = y.observe { seen.append($0) }
        for value in 1...4 {
            runs = 0
            graph.batch {
                // b first: y is marked before x, and must still wait for x.
                b.write(value)
                a.write(value)
            }
            #expect(runs == 1)
        }
        #expect(seen == [100, 201, 302, 403, 504])
        _ = connection
    }

    @Test("a closure that reads a node later in the order (not one of its inputs) reads it current")
    func readAheadOfOrder() {
        let graph = Graph()
        let source = graph.input(0)
        let a = source.map { $0 + 1 }
        let b = a.map { $0 * 2 }
        // Marked after a and b, so it comes before them in the order; it reads b by hand.
        let c = source.map { $0 + b.value }
        var seen: [Int] = []
        let connections = [b.observe { _ in }, c.observe { seen.append($0) }]
        for value in 1...3 { source.write(value) }
        #expect(seen == [2, 5, 8, 11])
        _ = connections
    }

    // A single write whose input has an order marks nothing; the round walks the order. What
    // needs the marks before then (a read, a change of links, another write) makes them.

    /// A chain of `source` + 1 + 1 + 1, observed, with the order of `source` made (written twice).
    private func chainWithPlan() -> (Graph, Input<Int>, I<Int>, Connection, () -> [Int]) {
        let graph = Graph()
        let source = graph.input(0)
        var top: I<Int> = source
        for _ in 0..<3 { top = top.map { $0 + 1 } }
        final class Log { var values: [Int] = [] }
        let log = Log()
        let connection = top.observe { log.values.append($0) }
        source.write(1)
        source.write(2)
        return (graph, source, top, connection, { log.values })
    }

    @Test("a read inside a batch, after a single write, sees the write")
    func readAfterUnmarkedWrite() {
        let (graph, source, top, connection, seen) = chainWithPlan()
        graph.batch {
            source.write(10)
            #expect(top.value == 13)
            source.write(20)
            #expect(top.value == 23)
        }
        #expect(seen() == [3, 4, 5, 23])
        _ = connection
    }

    @Test("a write undone in its batch, with an order, computes nothing and notifies nobody")
    func revertedUnmarkedWrite() {
        let (graph, source, _, connection, seen) = chainWithPlan()
        let before = graph.statistics
        graph.batch {
            source.write(7)
            source.write(2)
        }
        #expect(graph.statistics.propagations == before.propagations)
        #expect(graph.statistics.recomputations == before.recomputations)
        #expect(seen() == [3, 4, 5])
        _ = connection
    }

    @Test("an observer disconnected inside the batch of a single write: its chain is freed and not computed")
    func disconnectAfterUnmarkedWrite() {
        let graph = Graph()
        let source = graph.input(0)
        var runs = 0
        var chain: I<Int>? = source
        for _ in 0..<5 {
            chain = chain!.map {
                runs += 1
                return $0 + 1
            }
        }
        weak let freed = chain
        var connection: Connection? = chain!.observe { _ in }
        chain = nil
        source.write(1)
        source.write(2)
        runs = 0
        graph.batch {
            source.write(3)
            connection?.disconnect()
            connection = nil
        }
        #expect(freed == nil)
        #expect(runs == 0)
    }

    @Test("a closure that throws during the walk: the error is the node's state, and it recovers")
    func errorDuringWalk() {
        struct Odd: Error {}
        let graph = Graph()
        let source = graph.input(0)
        let checked = source.map { value -> Int in
            if value % 2 != 0 { throw Odd() }
            return value
        }
        let doubled = checked.map { $0 * 2 }
        var results: [String] = []
        let connection = doubled.observeResult { result in
            switch result {
            case .success(let value): results.append("\(value)")
            case .failure: results.append("error")
            }
        }
        for value in [2, 4, 5, 6, 7] { source.write(value) }
        #expect(results == ["0", "4", "8", "error", "12", "error"])
        _ = connection
    }

    @Test("dot(_:) inside a batch, after a single write, shows the nodes the write reaches as pending")
    func dotAfterUnmarkedWrite() {
        let (graph, source, top, connection, _) = chainWithPlan()
        graph.batch {
            source.write(9)
            #expect(graph.dot([top]).contains("pending"))
        }
        #expect(!graph.dot([top]).contains("pending"))
        _ = connection
    }
}
