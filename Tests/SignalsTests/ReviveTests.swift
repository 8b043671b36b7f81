import Dispatch
import Signals
import Synchronization
import Testing

/// A kept one-input modifier (`map`, `filter`, `compactMap`, `scan`, `discard`, `distinct`,
/// `then`) lets go of its source when its last chain is removed, and reconnects when a chain
/// connects to it again: it never goes dead, and it never works on a message twice.
@Suite("Revival: a kept modifier whose chains were all removed works again for the next one")
struct ReviveTests {
    @Test("a kept map lets go of its source with its last chain, and a new chain receives new messages")
    func keptMap() {
        let signal = Signal<Int>()
        let doubled = signal.fired.noDispatch().map { $0 * 2 }
        let first = ObservableCollection()
        let seen = Log<Int>()
        doubled.then { seen.append($0) }.append(to: first)
        signal.fire(with: 1)
        first.removeAll()
        #expect(signal.fired.connectedCount == 0)
        signal.fire(with: 2)
        let second = ObservableCollection()
        let later = Log<Int>()
        doubled.then { later.append($0) }.append(to: second)
        #expect(signal.fired.connectedCount == 1)
        // Brought up to date with the message sent while it was idle; no stale replay first.
        #expect(later.all == [4])
        signal.fire(with: 3)
        #expect(later.all == [4, 6])
        #expect(seen.all == [2])
        second.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("nothing sent while idle: the new chain is replayed the modifier's last message, worked on once")
    func nothingWhileIdle() {
        let signal = Signal<Int>()
        let works = Atomic(0)
        let sums = signal.fired.noDispatch().map { value -> Int in
            works.add(1, ordering: .relaxed)
            return value
        }.scan(0, +)
        let first = ObservableCollection()
        sums.then { _ in }.append(to: first)
        signal.fire(with: 1)
        signal.fire(with: 2)
        first.removeAll()
        let second = ObservableCollection()
        let later = Log<Int>()
        sums.then { later.append($0) }.append(to: second)
        // The scan's 3, replayed; neither the map nor the scan worked on 2 again.
        #expect(later.all == [3])
        #expect(works.load(ordering: .relaxed) == 2)
        signal.fire(with: 4)
        #expect(later.all == [3, 7])
        second.removeAll()
    }

    @Test("a revived filter replays the last message it passed when the source's newer one fails it")
    func filterKeepsItsLast() {
        let property = Property(value: 2)
        let even = property.didSet.noDispatch().filter { $0.isMultiple(of: 2) }
        let first = ObservableCollection()
        even.then { _ in }.append(to: first)
        first.removeAll()
        property.value = 3
        let second = ObservableCollection()
        let later = Log<Int>()
        even.then { later.append($0) }.append(to: second)
        #expect(later.all == [2])
        property.value = 4
        #expect(later.all == [2, 4])
        second.removeAll()
    }

    @Test("a chain of idle modifiers revives from the top down, each brought up to date once")
    func longIdleChain() {
        let signal = Signal<Int>(value: 1)
        var source: MessageSource<Int> = signal.fired.noDispatch()
        let works = Atomic(0)
        for _ in 0..<2_000 {
            source = source.map { value in
                works.add(1, ordering: .relaxed)
                return value + 1
            }
        }
        let kept = source
        let first = ObservableCollection()
        kept.then { _ in }.append(to: first)
        #expect(works.load(ordering: .relaxed) == 2_000)
        first.removeAll()
        #expect(signal.fired.connectedCount == 0)
        signal.fire(with: 10)
        let later = Log<Int>()
        let second = ObservableCollection()
        kept.then { later.append($0) }.append(to: second)
        #expect(later.all == [2_010])
        #expect(works.load(ordering: .relaxed) == 4_000)
        #expect(signal.fired.connectedCount == 1)
        second.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("removing one of two chains leaves a kept map connected; removing both lets go")
    func twoChains() {
        let signal = Signal<Int>()
        let mapped = signal.fired.noDispatch().map { $0 + 1 }
        let one = ObservableCollection()
        let two = ObservableCollection()
        let seen = Log<Int>()
        mapped.then { _ in }.append(to: one)
        mapped.then { seen.append($0) }.append(to: two)
        one.removeAll()
        signal.fire(with: 1)
        #expect(seen.all == [2])
        two.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a chain connected from a closure of the chain being removed revives the modifier")
    func reentrantConnect() {
        let signal = Signal<Int>()
        let mapped = signal.fired.noDispatch().map { $0 * 3 }
        let first = ObservableCollection()
        let second = ObservableCollection()
        let later = Log<Int>()
        mapped.then { _ in }.onEnd { _ in
            mapped.then { later.append($0) }.append(to: second)
        }.append(to: first)
        first.removeAll()
        #expect(signal.fired.connectedCount == 1)
        signal.fire(with: 2)
        #expect(later.all == [6])
        second.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a subscription to a kept map whose chains were removed receives new messages")
    func subscribeRevives() {
        let signal = Signal<Int>()
        let mapped = signal.fired.noDispatch().map { $0 - 1 }
        let first = ObservableCollection()
        mapped.then { _ in }.append(to: first)
        first.removeAll()
        let later = Log<Int>()
        let connection = mapped.subscribe { later.append($0) }
        signal.fire(with: 5)
        #expect(later.all == [4])
        connection.disconnect()
    }

    @Test(
        "removing and reconnecting under concurrent sends: each revived chain receives new messages, and the last is brought up to date"
    )
    func concurrentRemoveAndReconnect() async {
        let signal = Signal<Int>()
        let mapped = signal.fired.noDispatch().map { $0 }
        let flags = SendFlags()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var value = 0
                while !flags.stop.load(ordering: .relaxed) {
                    value += 1
                    signal.fire(with: value)
                    flags.sent.store(value, ordering: .relaxed)
                    // In bursts: a task on the concurrency pool, which has as many threads
                    // as cores, leaves room for the test's own task. (While a chain
                    // connects, the connect gate holds this sender back.)
                    if value.isMultiple(of: 64) { await Task.yield() }
                }
            }
            rounds: for _ in 0..<300 {
                let observables = ObservableCollection()
                let seen = Log<Int>()
                mapped.then { seen.append($0) }.append(to: observables)
                // Wait for a message sent after connecting (a chain that never gets one is
                // dead), then remove.
                let after = flags.sent.load(ordering: .relaxed) + 2
                var yields = 0
                while !(seen.all.last.map { $0 >= after } ?? false), yields < 1_000_000 {
                    await Task.yield()
                    yields += 1
                }
                observables.removeAll()
                guard yields < 1_000_000 else {
                    Issue.record("a revived chain received nothing new")
                    break rounds
                }
                // Every message is one the sender sent; at the boundary, a message the sender
                // was delivering as the last chain went can reach the revived map out of
                // order, or besides its replay (the window Semantics.md describes).
                #expect(seen.all.allSatisfy { $0 >= 1 })
            }
            flags.stop.store(true, ordering: .relaxed)
        }
        // A map still receiving what waited as a chain connected (handed to a global queue
        // while the sender sent) lets go when that is done.
        var yields = 0
        while signal.fired.connectedCount != 0, yields < 1_000_000 {
            await Task.yield()
            yields += 1
        }
        #expect(signal.fired.connectedCount == 0)
        // Connected once more, after the sender stopped: the last message, and new ones.
        let observables = ObservableCollection()
        let seen = Log<Int>()
        mapped.then { seen.append($0) }.append(to: observables)
        #expect(seen.all == [flags.sent.load(ordering: .relaxed)])
        signal.fire(with: -1)
        #expect(seen.all.last == -1)
        observables.removeAll()
    }

    @Test("operators with inputs or timers of their own do not revive: removing their last chain ends their work")
    func streamOperatorsDoNot() {
        let signal = Signal<Int>()
        let other = Signal<Int>()
        let merged = signal.fired.noDispatch().merge(with: other.fired)
        let first = ObservableCollection()
        merged.then { _ in }.append(to: first)
        first.removeAll()
        #expect(other.fired.connectedCount == 0)
        #expect(signal.fired.connectedCount == 0)
    }
}

/// What the sending task and the test share.
private final class SendFlags: Sendable {
    let stop = Atomic(false)
    let sent = Atomic(0)
}
