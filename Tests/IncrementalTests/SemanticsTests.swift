import Incremental
import Testing

@Suite("Engine: semantics")
struct SemanticsTests {
    /// A flatMap over `useLeft` choosing between two derived values of `left` and `right`.
    private final class Branches {
        let graph = Graph()
        let useLeft: Input<Bool>
        let left: Input<Int>
        let right: Input<Int>
        var leftRuns = 0
        var rightRuns = 0
        var seen: [Int] = []
        var connection: Connection?

        init() {
            useLeft = graph.input(true)
            left = graph.input(1)
            right = graph.input(100)
            let leftDerived = left.map { [unowned self] in
                leftRuns += 1; return $0 * 2
            }
            let rightDerived = right.map { [unowned self] in
                rightRuns += 1; return $0 * 2
            }
            connection = useLeft.flatMap { $0 ? leftDerived : rightDerived }.observe { [unowned self] in seen.append($0)
            }
        }
    }

    @Test("after a branch switch, a value only the old branch read is not recomputed (switch and change in one batch)")
    func unreachableInOneBatch() {
        let branches = Branches()
        branches.graph.batch {
            branches.useLeft.write(false)
            branches.left.write(2)
        }
        #expect(branches.leftRuns == 1)
        #expect(branches.rightRuns == 1)
        branches.left.write(3)
        #expect(branches.leftRuns == 1)
        #expect(branches.seen == [2, 200])
    }

    @Test("after a branch switch, a value only the old branch read is not recomputed (writes one after another)")
    func unreachableInSequence() {
        let branches = Branches()
        branches.useLeft.write(false)
        branches.left.write(2)
        branches.left.write(3)
        #expect(branches.leftRuns == 1)
        branches.useLeft.write(true)
        #expect(branches.leftRuns == 2)
        #expect(branches.seen == [2, 200, 6])
    }

    @Test("the change arriving before the switch in one batch still does not recompute the old branch")
    func unreachableChangeFirst() {
        let branches = Branches()
        branches.graph.batch {
            branches.left.write(2)
            branches.right.write(101)
            branches.useLeft.write(false)
        }
        #expect(branches.leftRuns == 1)
        #expect(branches.rightRuns == 1)
        #expect(branches.seen == [2, 202])
    }

    @Test("a batch with no net change recomputes nothing and notifies nobody, observed or not")
    func noOpBatch() {
        let graph = Graph()
        let a = graph.input(0)
        var observedRuns = 0
        var unobservedRuns = 0
        let observed = a.map {
            observedRuns += 1; return $0 + 1
        }
        let unobserved = a.map {
            unobservedRuns += 1; return $0 + 2
        }
        var seen: [Int] = []
        let connection = observed.observe { seen.append($0) }
        #expect(unobserved.value == 2)
        let propagations = graph.statistics.propagations
        for _ in 0..<3 {
            graph.batch {
                a.write(5)
                a.write(0)
            }
        }
        #expect(observedRuns == 1)
        #expect(unobserved.value == 2)
        #expect(unobservedRuns == 1)
        #expect(seen == [1])
        #expect(graph.statistics.propagations == propagations)
        // A real change after the no-op batches propagates as usual.
        graph.batch {
            a.write(5)
            a.write(7)
        }
        #expect(seen == [1, 8])
        _ = connection
    }

    @Test("a batch that reverts through several values, and one that writes the same value, do nothing")
    func revertingBatch() {
        let graph = Graph()
        let a = graph.input("x")
        var runs = 0
        let connection = a.map {
            runs += 1; return $0.count
        }.observe { _ in }
        graph.batch {
            a.write("yy")
            a.write("zzz")
            a.write("x")
        }
        a.write("x")
        #expect(runs == 1)
        _ = connection
    }

    @Test("a class-typed derived value that returns the same instance is unchanged (identity cutoff)")
    func identityCutoff() {
        final class Model { var name = "a" }
        let graph = Graph()
        let shared = Model()
        let version = graph.input(0)
        var downstream = 0
        let model = version.map { _ in shared }
        let names = model.map {
            downstream += 1; return $0.name
        }
        var notified = 0
        let connection = model.observe { _ in notified += 1 }
        let namesConnection = names.observe { _ in }
        version.write(1)
        version.write(2)
        #expect(notified == 1)
        #expect(downstream == 1)
        // A new instance propagates.
        let other = Model()
        let swapped = version.map { $0 < 3 ? shared : other }
        var swaps = 0
        let swapConnection = swapped.observe { _ in swaps += 1 }
        version.write(3)
        #expect(swaps == 2)
        _ = (connection, namesConnection, swapConnection)
    }

    @Test("values that are neither Equatable nor classes always propagate")
    func nonEquatablePropagates() {
        struct Opaque { var value: Int }
        let graph = Graph()
        let a = graph.input(0)
        var notified = 0
        let connection = a.map { _ in Opaque(value: 1) }.observe { _ in notified += 1 }
        a.write(1)
        a.write(2)
        #expect(notified == 3)
        _ = connection
    }

    @Test("incremental values conform to Subscribable: subscribe and .values")
    func subscribable() async {
        let graph = Graph()
        let a = graph.input(1)
        let doubled = a.map { $0 * 2 }
        func firstValue(of source: some Subscribable<Int>) async -> Int? {
            var iterator = source.values.makeAsyncIterator()
            return await iterator.next()
        }
        var received: [Int] = []
        let connection = doubled.subscribe { received.append($0) }
        a.write(2)
        #expect(received == [2, 4])
        #expect(await firstValue(of: doubled) == 4)
        var iterator = doubled.values.makeAsyncIterator()
        a.write(3)
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first == 4)
        #expect(second == 6)
        _ = connection
    }

    @Test("dot export shows nodes, heights, necessity, versions and edges")
    func dotExport() {
        let graph = Graph()
        let a = graph.input(1)
        a.debugName = "a"
        let b = a.map { $0 + 1 }
        b.debugName = "b"
        let c = map2(a, b) { $0 * $1 }
        c.debugName = "c"
        let unobserved = c.map { $0 }
        let connection = c.observe { _ in }
        let dot = graph.dot([unobserved])
        #expect(dot.hasPrefix("digraph incremental {"))
        #expect(dot.contains("a = 1\\nh 0"))
        #expect(dot.contains("b = 2\\nh 1"))
        #expect(dot.contains("c = 2\\nh 2"))
        #expect(dot.contains("observed ×1, necessary"))
        #expect(dot.contains("unnecessary"))
        #expect(dot.split(separator: "->", omittingEmptySubsequences: false).count - 1 == 4)
        _ = connection
    }

    @Test(
        "an observer that runs after an earlier observer's write in the same round gets the current value, even the one it last received"
    )
    func observerAfterUndoingWrite() {
        let graph = Graph()
        let a = graph.input(0)
        var first: [Int] = []
        var second: [Int] = []
        let undo = a.observe { value in
            first.append(value)
            if value == 1 { a.write(0) }
        }
        let later = a.observe { second.append($0) }
        a.write(1)
        // The first observer saw 1 and wrote 0 back before the second ran: the second is told
        // its value changed in this round, with the current value, which it had already.
        #expect(first == [0, 1, 0])
        #expect(second == [0, 0])
        #expect(a.value == 0)
        undo.disconnect()
        later.disconnect()
    }

    @Test(
        "a graph is freed after an observer wrote an input nothing reads, alone or in a batch that restored it",
        arguments: [false, true])
    func freedAfterObserverWroteUnreadInput(restores: Bool) {
        weak var weakGraph: Graph?
        weak var weakInput: Input<Int>?
        do {
            let graph = Graph()
            weakGraph = graph
            let trigger = graph.input(0)
            let unread = graph.input(0)
            weakInput = unread
            let connection = trigger.observe { value in
                guard value == 1 else { return }
                graph.batch {
                    unread.write(5)
                    if restores { unread.write(0) }
                }
            }
            trigger.write(1)
            #expect(unread.value == (restores ? 0 : 5))
            connection.disconnect()
        }
        #expect(weakInput == nil)
        #expect(weakGraph == nil)
    }

    @Test(
        "a queued node whose last observer goes, and that nothing else holds, is not told and is freed after the propagation",
        arguments: [false, true])
    func queuedNodeLosesItsLastObserver(inBatch: Bool) {
        let graph = Graph()
        let source = graph.input(0)
        var firstSeen: [Int] = []
        var dropped: Connection?
        weak var weakDropped: I<Int>?
        var droppedSeen: [Int] = []
        // Connected first, so it runs first in each round: it lets go of the other node's only
        // observer (and so of the node) while that node waits in the round's queue.
        let first = source.map { $0 + 1 }.observe { value in
            firstSeen.append(value)
            if value == 2 { dropped = nil }
        }
        do {
            let node = source.map { $0 * 10 }
            weakDropped = node
            dropped = node.observe { droppedSeen.append($0) }
        }
        #expect(weakDropped != nil)
        if inBatch {
            // The node is queued by the write, then loses its observer before the batch ends.
            graph.batch {
                source.write(3)
                dropped = nil
            }
            #expect(firstSeen == [1, 4])
            #expect(droppedSeen == [0])
        } else {
            source.write(1)
            #expect(firstSeen == [1, 2])
            #expect(droppedSeen == [0])
        }
        #expect(dropped == nil)
        #expect(weakDropped == nil)
        source.write(7)
        #expect(firstSeen.last == 8)
        #expect(droppedSeen == [0])
        first.disconnect()
    }

    @Test(
        "an observer that lets go of every connection to its node while the node's observers are told: the rest are not told, and the node is freed after"
    )
    func observerDropsEveryConnectionToItsNode() {
        let graph = Graph()
        let source = graph.input(0)
        var log: [String] = []
        var first: Connection?
        var second: Connection?
        weak var weakNode: I<Int>?
        do {
            let node = source.map { $0 + 1 }
            weakNode = node
            first = node.observe { value in
                log.append("first \(value)")
                if value == 2 {
                    first = nil
                    second = nil
                }
            }
            second = node.observe { value in log.append("second \(value)") }
        }
        source.write(1)
        #expect(log == ["first 1", "second 1", "first 2"])
        #expect(first == nil && second == nil)
        #expect(weakNode == nil)
        source.write(2)
        #expect(log == ["first 1", "second 1", "first 2"])
    }

    @Test(
        "a write made by an observer during its first delivery (inside observe) propagates after that delivery returns, never nested in it"
    )
    func firstDeliveryWriteIsNotNested() {
        let graph = Graph()
        let target = graph.input(0)
        let trigger = graph.input(1)
        var log: [String] = []
        let watching = target.map { $0 * 10 }.observe { log.append("watching \($0)") }
        let writing = trigger.observe { value in
            log.append("writing begins \(value)")
            target.write(value + 4)
            log.append("writing ends \(value)")
        }
        #expect(log == ["watching 0", "writing begins 1", "writing ends 1", "watching 50"])
        // The same inside a propagation: the write waits for the observers of this one.
        trigger.write(2)
        #expect(
            log == [
                "watching 0", "writing begins 1", "writing ends 1", "watching 50", "writing begins 2", "writing ends 2",
                "watching 60",
            ])
        watching.disconnect()
        writing.disconnect()
    }
}
