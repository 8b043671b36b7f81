import Dispatch
import Glue
import Incremental
import ReactiveCore
import Signals
import TestSupport
import Testing

/// Bridges used the hard way: disconnected while other threads send, and chained long.
@Suite("Bridges under adversarial use")
struct AdversarialBridgeTests {
    /// Four threads write a Signals property that drives another while a fifth disconnects
    /// the bridge. A delivery under way on another thread may still land after `disconnect()`
    /// returns (Signals' window, which a bridge from a thread-safe source shares); after
    /// `waitForDeliveriesUnderWay()` nothing more does, however long the writers go on.
    @Test("a Signals bridge disconnected while four threads send: after the wait, the target stays as it was")
    func disconnectRacingSends() {
        let source = Property(value: 0)
        let target = Property(value: -1)
        let bridge = source.drive(target)
        let written = LockedBox(0)
        let settled = LockedBox<Int?>(nil)
        let writes = 5_000
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            if thread == 4 {
                while written.read({ $0 }) < writes { continue }
                bridge.disconnect()
                ObservableCollection.waitForDeliveriesUnderWay()
                let now = target.value
                settled.mutate { $0 = now }
            } else {
                for index in 1...(writes * 2) {
                    source.value = thread * 100_000 + index
                    written.mutate { $0 += 1 }
                }
            }
        }
        #expect(written.read { $0 } == 4 * writes * 2)
        let settledValue = settled.read { $0 }
        #expect(settledValue != nil)
        #expect(target.value == settledValue, "nothing arrived after the wait")
        #expect(settledValue != 0, "the bridge delivered writes before it was disconnected")
        source.value = -5
        #expect(target.value == settledValue)
    }

    /// A thousand Glue variables, each driving the next through a bridge: a write to the
    /// first reaches the last, one transaction per hop; disconnecting every bridge frees them.
    @Test("a chain of a thousand bridged Glue variables carries each write to its end, and is freed")
    func longChain() {
        weak var first: Variable<Int>?
        weak var last: Variable<Int>?
        do {
            let variables = (0..<1_000).map { Variable($0 == 0 ? 1 : 0) }
            first = variables.first
            last = variables.last
            var bridges: [Connection] = []
            for (from, to) in zip(variables, variables.dropFirst()) { bridges.append(from.drive(to)) }
            #expect(variables.last?.value == 1, "each target takes its source's value at once")
            var seen: [Int] = []
            let watch = variables[999].changes.subscribe { seen.append($0.new) }
            variables[0].value = 7
            variables[0].value = 8
            #expect(seen == [7, 8])
            #expect(variables.allSatisfy { $0.value == 8 })
            watch.disconnect()
            for bridge in bridges { bridge.disconnect() }
            variables[0].value = 9
            #expect(variables[1].value == 8, "disconnected")
        }
        #expect(first == nil && last == nil)
    }

    /// A target that records every call made off its queue, and can hold the source's
    /// transaction open (its `beginTransaction` waits) while the test disconnects the bridge.
    final class QueueBoundTarget: DeltaTarget, @unchecked Sendable {
        // Unchecked: the counters are behind `LockedBox`; the semaphores are thread-safe.
        let queue: DispatchQueue
        private let key = DispatchSpecificKey<Bool>()
        let calls = LockedBox((begins: 0, applied: [Int](), ends: 0, offQueue: 0))
        let holdNextBegin = LockedBox(false)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        init(queue: DispatchQueue) {
            self.queue = queue
            queue.setSpecific(key: key, value: true)
        }

        private func record(_ change: (inout (begins: Int, applied: [Int], ends: Int, offQueue: Int)) -> Void) {
            let onQueue = DispatchQueue.getSpecific(key: key) == true
            calls.mutate {
                change(&$0)
                if !onQueue { $0.offQueue += 1 }
            }
        }

        func beginTransaction() {
            record { $0.begins += 1 }
            var hold = false
            holdNextBegin.mutate { swap(&hold, &$0) }
            if hold {
                entered.signal()
                release.wait()
            }
        }

        func apply(_ deltas: [Int]) { record { $0.applied += deltas } }

        func endTransaction() { record { $0.ends += 1 } }
    }

    @Test(
        "a bridge on a queue disconnected from another thread mid-transaction: the target's transaction ends on its queue"
    )
    func disconnectMidTransactionFromAnotherThread() {
        let queue = DispatchQueue(label: "target")
        let source = Property(value: 0)
        let target = QueueBoundTarget(queue: queue)
        let bridge = ValueDeltas(source.didSet.dispatch(to: queue)).drive(target)
        queue.sync {}
        target.holdNextBegin.mutate { $0 = true }
        source.value = 1
        target.entered.wait()  // the queue is inside the target's beginTransaction
        bridge.disconnect()
        target.release.signal()
        queue.sync {}
        let calls = target.calls.read { $0 }
        #expect(calls.offQueue == 0, "every call reached the target on its queue")
        #expect(calls.begins == calls.ends, "the target's transactions are balanced")
        #expect(!calls.applied.contains(1), "the transaction under way when the bridge closed applies nothing")
        source.value = 2
        queue.sync {}
        #expect(target.calls.read { $0.applied }.last != 2, "nothing after the disconnect")
    }

    /// An Incremental graph that lives on a queue, driven by a Signals property written from
    /// four threads, disconnected from a fifth: ThreadSanitizer sees every access to the
    /// graph on the queue (the step runs this suite under it).
    @Test(
        "a graph on a queue driven from four writing threads, disconnected from a fifth: the graph is touched only on its queue"
    )
    func graphOnQueueDisconnectedFromAnotherThread() {
        final class GraphOnQueue: @unchecked Sendable {
            // Unchecked: made, read and written only on `queue`.
            let graph = Graph()
            let input: Input<Int>
            var seen: [Int] = []
            var observation: Connection?

            init() {
                input = graph.input(0)
                observation = input.observe { [unowned self] in seen.append($0) }
            }
        }
        let queue = DispatchQueue(label: "graph")
        let world = queue.sync { GraphOnQueue() }
        let source = Property(value: 0)
        for _ in 0..<20 {
            let bridge = ValueDeltas(source.didSet.dispatch(to: queue)).drive(world.input)
            DispatchQueue.concurrentPerform(iterations: 5) { thread in
                if thread == 4 {
                    bridge.disconnect()
                } else {
                    for index in 1...50 { source.value = thread * 1_000 + index }
                }
            }
            queue.sync {}
            // No batch was left open: a write on the queue propagates at once.
            let propagated = queue.sync {
                world.input.write(-1)
                return world.seen.last == -1
            }
            #expect(propagated)
        }
        queue.sync { world.observation = nil }
    }
}
