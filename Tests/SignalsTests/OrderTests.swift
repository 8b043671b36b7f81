import Dispatch
import Signals
import Testing

@Suite("Order under reentrancy and races")
struct OrderTests {
    @Test(
        "a message fired from an inline chain is queued: every chain sees FIFO order, and the last message is the newest"
    )
    func reentrantFireIsFIFO() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let first = Log<Int>()
        let second = Log<Int>()
        signal.fired.noDispatch().then { message in
            first.append(message)
            if message < 100 { signal.fire(with: message + 100) }
        }.append(to: observables)
        let mapped = signal.fired.noDispatch().map { $0 * 10 }
        mapped.then { second.append($0) }.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(first.all == [1, 101, 2, 102])
        #expect(second.all == [10, 1_010, 20, 1_020])
        #expect(signal.fired.lastMessage == 102)
        #expect(mapped.lastMessage == 1_020)
        // A chain connected now is replayed the newest message, not an older one.
        let late = Log<Int>()
        signal.fired.noDispatch().then { late.append($0) }.append(to: observables)
        #expect(late.all == [102])
    }

    @Test("a fire from deep in one branch of a shared inline chain is queued: every branch and modifier stays FIFO")
    func reentrantFireFromSharedChain() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let left = Log<Int>()
        let right = Log<Int>()
        // Modifiers with one input send without the thread's delivery record: this checks
        // that a fire from below them is still queued by the source, not nested.
        let shared = signal.fired.noDispatch().map { $0 + 1 }.filter { _ in true }
        shared.map { $0 * 2 }.then { value in
            left.append(value)
            if value < 100 { signal.fire(with: value * 10) }
        }.append(to: observables)
        let sums = shared.scan(0, +)
        sums.then { right.append($0) }.append(to: observables)
        signal.fire(with: 1)
        #expect(left.all == [4, 82, 1_642])
        // The right branch sees 2, 41, 821 in that order (running sums).
        #expect(right.all == [2, 43, 864])
        #expect(shared.lastMessage == 821)
        #expect(sums.lastMessage == 864)
        observables.removeAll()
    }

    @Test("a chain connected from inside a delivery gets the replay after the message in flight, then the queued ones")
    func connectDuringDelivery() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let late = Log<Int>()
        signal.fired.noDispatch().then { message in
            if message == 1 {
                signal.fired.noDispatch().then { late.append($0) }.append(to: observables)
                signal.fire(with: 2)
            }
        }.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 3)
        #expect(late.all == [1, 2, 3])
        // The first chain's closure holds the collection that holds it: break the cycle.
        observables.removeAll()
    }

    @Test("removeAll from inside a delivery stops the other chains at once")
    func removeAllDuringInlineDelivery() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let later = Log<Int>()
        signal.fired.noDispatch().then { message in
            if message == 2 { observables.removeAll() }
        }.append(to: observables)
        signal.fired.noDispatch().filter { _ in true }.then { later.append($0) }.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        signal.fire(with: 3)
        #expect(later.all == [1])
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("removeAll drops messages already queued on a chain's queue, in every modifier of the chain")
    func removeAllDropsQueuedWork() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let queue = DispatchQueue(label: "chain")
        let log = Log<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // hold the queue while messages are queued on it
        signal.fired.dispatch(to: queue).then { log.append("first \($0)") }.then { log.append("second \($0)") }
            .append(to: observables)
        for message in 1...3 { signal.fire(with: message) }
        observables.removeAll()
        gate.signal()
        queue.sync {}
        #expect(log.all.isEmpty)
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a no-op: a chain removed twice, or a collection emptied twice, does nothing more")
    func removeTwice() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let log = Log<Int>()
        signal.fired.noDispatch().then { log.append($0) }.append(to: observables)
        observables.removeAll()
        observables.removeAll()
        signal.fire(with: 1)
        #expect(log.all.isEmpty)
        #expect(observables.count == 0)
    }
}
