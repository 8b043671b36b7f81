import Dispatch
import Signals
import Testing

@Suite("Concurrency and lifetime")
struct ConcurrencyTests {
    @Test("8 threads × 100,000 messages: none lost, none duplicated, each thread's in order")
    func manyProducers() {
        let threads = 8
        let perThread = 100_000
        let signal = Signal<Int>()
        let counts = LockedState([Int](repeating: 0, count: threads))
        let outOfOrder = LockedState(0)
        let lastSeen = LockedState([Int](repeating: -1, count: threads))
        let observables = ObservableCollection()
        signal.fired.noDispatch().then { message in
            let (thread, sequence) = (message / perThread, message % perThread)
            counts.withLock { $0[thread] += 1 }
            lastSeen.withLock { last in
                if sequence <= last[thread] { outOfOrder.withLock { $0 += 1 } }
                last[thread] = sequence
            }
        }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for sequence in 0..<perThread { signal.fire(with: thread * perThread + sequence) }
        }
        #expect(counts.withLock { $0 } == [Int](repeating: perThread, count: threads))
        #expect(outOfOrder.withLock { $0 } == 0)
    }

    @Test("value += 1 from many threads loses no increment; the last message equals the value at every hop")
    func atomicIncrement() {
        let property = Property(value: 0)
        let received = LockedState(0)
        let observables = ObservableCollection()
        let mapped = property.didSet.noDispatch().map { $0 * 2 }
        mapped.then { _ in received.withLock { $0 += 1 } }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { property.value += 1 }
        }
        #expect(property.value == 80_000)
        #expect(property.didSet.lastMessage == 80_000)
        #expect(mapped.lastMessage == 160_000)
        // A write overtaken on its way by a newer one is skipped, never processed late.
        #expect((1...80_001).contains(received.withLock { $0 }))
    }

    @Test("a dispatched chain after a property written from many threads never goes back, and ends with the value")
    func dispatchedChainNeverGoesBack() async {
        let property = Property(value: 0)
        let seen = LockedState((backwards: 0, last: -1))
        let observables = ObservableCollection()
        let queue = DispatchQueue(label: "states")
        property.didSet.dispatch(to: queue).map { $0 * 2 }.then { value in
            seen.withLock { seen in
                if value <= seen.last { seen.backwards += 1 }
                seen.last = value
            }
        }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 { property.value += 1 }
        }
        queue.sync {}
        let (backwards, last) = seen.withLock { $0 }
        #expect(backwards == 0)
        #expect(last == 80_000)
    }

    @Test("an inline chain may read its property without deadlock")
    func readInsideChain() {
        let property = Property(value: 1)
        let log = Log<Int>()
        let observables = ObservableCollection()
        property.didSet.noDispatch().then { _ in log.append(property.value) }.append(to: observables)
        property.value = 2
        #expect(log.all == [1, 2])
    }

    @Test("chains connect, fire and tear down from many threads at once")
    func concurrentTeardown() {
        let signal = Signal<Int>()
        let received = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            let observables = ObservableCollection()
            for index in 0..<200 {
                signal.fired.noDispatch().filter { _ in true }.then { _ in received.withLock { $0 += 1 } }
                    .append(to: observables)
                signal.fire(with: index)
                if index.isMultiple(of: 50) { observables.removeAll() }
            }
        }
        #expect(signal.fired.connectedCount == 0)
        #expect(received.withLock { $0 } > 0)
    }

    @Test("a chain nothing keeps is freed at once and receives nothing")
    func unkeptChain() {
        let signal = Signal<Int>()
        let log = Log<Int>()
        weak var weakChain: ThenModifier<Int>?
        do {
            let chain = signal.fired.noDispatch().then { log.append($0) }
            weakChain = chain
        }
        signal.fire(with: 1)
        #expect(weakChain == nil)
        #expect(log.all.isEmpty)
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("releasing the collection tears its chains down and frees them")
    func collectionTeardown() {
        let signal = Signal<Int>()
        weak var weakChain: ThenModifier<Int>?
        weak var weakFirst: DispatchModifier<Int>?
        var observables: ObservableCollection? = ObservableCollection()
        do {
            let first = signal.fired.noDispatch()
            let chain = first.map { $0 + 1 }.then { _ in }
            chain.append(to: observables!)
            (weakChain, weakFirst) = (chain, first)
        }
        signal.fire(with: 1)
        #expect(weakChain != nil && weakFirst != nil)
        #expect(observables?.count == 1)
        observables = nil
        #expect(weakChain == nil && weakFirst == nil)
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("subscribe, the uniform view, delivers the last message and later ones inline")
    func uniformView() {
        let property = Property(value: "a")
        let log = Log<String>()
        let connection = property.didSet.subscribe { log.append($0) }
        property.value = "b"
        connection.disconnect()
        property.value = "c"
        #expect(log.all == ["a", "b"])
    }
}
