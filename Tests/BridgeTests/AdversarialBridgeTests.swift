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
}
