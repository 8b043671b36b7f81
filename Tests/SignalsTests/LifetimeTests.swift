import Dispatch
import Signals
import Synchronization
import TestSupport
import Testing

/// Counts the tokens alive: each modifier remembers its last message, so a token outliving
/// its chain means a part of the chain was not freed.
final class TokenCounter: Sendable {
    private let alive = Atomic(0)
    var count: Int { alive.load(ordering: .acquiring) }
    func make(_ value: Int) -> Token { Token(value, counter: self) }
    fileprivate func born() { alive.add(1, ordering: .relaxed) }
    fileprivate func died() { alive.subtract(1, ordering: .releasing) }
}

/// A message whose lifetime a test watches.
final class Token: Sendable, Equatable {
    let value: Int
    private let counter: TokenCounter

    init(_ value: Int, counter: TokenCounter) {
        self.value = value
        self.counter = counter
        counter.born()
    }

    deinit { counter.died() }

    static func == (lhs: Token, rhs: Token) -> Bool { lhs.value == rhs.value }
}

@Suite("Lifetime: a chain's every part is freed with it")
struct LifetimeTests {
    /// Where the dispatched chain runs; draining it lets queued work drop its tokens.
    static let workQueue = DispatchQueue(label: "LifetimeTests.work")

    /// Builds one chain of every kind of modifier on `signal` and `other`, tokens made by
    /// `counter`, pacing and delays on `scheduler`.
    static func chains(
        _ signal: Signal<Int>, _ other: Signal<Int>, counter: TokenCounter, scheduler: TestScheduler,
        log: Log<Int>
    ) -> [MessageSource<Token>] {
        let tokens = signal.fired.noDispatch().map { counter.make($0) }
        let others = other.fired.noDispatch().map { counter.make($0) }
        return [
            tokens.filter { _ in true }.then { log.append($0.value) },
            tokens.compactMap { $0 }.distinct().discard(first: 0),
            tokens.scan(counter.make(0)) { _, next in next },
            tokens.merge(with: others),
            tokens.combineLatest(others).map { pair in pair.0 },
            tokens.debounce(pause: .seconds(1), scheduler: scheduler),
            tokens.throttle(pause: .seconds(1), latest: true, scheduler: scheduler),
            tokens.dispatch(to: workQueue).then { _ in },
            tokens.then(call: TokenSink.take, on: TokenSink()),
            // The stream operators: rules under a lock, inputs beyond the upstream, timers.
            tokens.zip(others).map { pair in pair.0 },
            tokens.withLatestFrom(others).map { pair in pair.0 },
            tokens.flatMapLatest { _ in others },
            tokens.delay(for: .seconds(1), scheduler: scheduler),
            tokens.collect(5).map { batch in batch[0] },
            tokens.prefix(5).onEnd { _ in },
        ]
    }

    @Test("releasing the collection frees every modifier's working part, timers pending")
    func releasingTheCollection() async {
        let counter = TokenCounter()
        let scheduler = TestScheduler()
        let (signal, other) = (Signal<Int>(), Signal<Int>())
        let log = Log<Int>()
        var observables: ObservableCollection? = ObservableCollection()
        for chain in Self.chains(signal, other, counter: counter, scheduler: scheduler, log: log) {
            chain.append(to: observables!)
        }
        other.fire(with: 0)
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(log.all == [1, 2])
        #expect(counter.count > 0)
        observables = nil
        #expect(signal.fired.connectedCount == 0)
        #expect(other.fired.connectedCount == 0)
        #expect(await eventuallyZero(counter))
        scheduler.advance(by: .seconds(5))
        #expect(await eventually { counter.count == 0 })
    }

    @Test("removeAll frees every part, and chains nothing keeps are freed at once")
    func removeAllAndUnkept() async {
        let counter = TokenCounter()
        let scheduler = TestScheduler()
        let (signal, other) = (Signal<Int>(), Signal<Int>())
        let log = Log<Int>()
        let observables = ObservableCollection()
        for chain in Self.chains(signal, other, counter: counter, scheduler: scheduler, log: log) {
            chain.append(to: observables)
        }
        other.fire(with: 0)
        signal.fire(with: 1)
        observables.removeAll()
        #expect(signal.fired.connectedCount == 0)
        #expect(other.fired.connectedCount == 0)
        #expect(await eventuallyZero(counter))
        // Not appended: replayed the last message when made (1 again), then freed as soon as
        // the array of chains is.
        _ = Self.chains(signal, other, counter: counter, scheduler: scheduler, log: log)
        signal.fire(with: 3)
        other.fire(with: 3)
        #expect(signal.fired.connectedCount == 0)
        #expect(await eventuallyZero(counter))
        #expect(log.all == [1, 1])
    }

    @Test("a chain removed from inside its own delivery is freed once the delivery ends")
    func removedDuringDelivery() async {
        let counter = TokenCounter()
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let log = Log<Int>()
        signal.fired.noDispatch().map { counter.make($0) }
            .then { token in
                log.append(token.value)
                observables.removeAll()
            }
            .then { log.append(-$0.value) }
            .append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        // The modifier after the removal processes nothing more, not even the rest of the
        // delivery under way.
        #expect(log.all == [1])
        #expect(await eventually { counter.count == 0 })
        #expect(signal.fired.connectedCount == 0)
    }

    @Test(
        "the thread that removes a chain during a delivery frees it when its delivery ends, with no later removal needed"
    )
    func removedDuringDeliveryIsFreedByThatThread() async {
        // In a process of its own: no other test's thread is pinned or retiring lists, so the
        // chain must be gone the moment `fire` returns, freed by this thread's unpinning.
        await #expect(processExitsWith: .success) {
            final class Token: Sendable {}
            let signal = Signal<Int>()
            let removed = ObservableCollection()
            let remover = ObservableCollection()
            weak var weakToken: Token?
            do {
                let token = Token()
                weakToken = token
                signal.fired.noDispatch().then { _ in _ = token }.append(to: removed)
            }
            signal.fired.noDispatch().then { _ in removed.removeAll() }.append(to: remover)
            signal.fire(with: 1)
            precondition(weakToken == nil, "the chain removed during the delivery outlived it")
            remover.removeAll()
        }
    }

    @Test("chains freed on one thread while another delivers to them: nothing leaks, nothing crashes")
    func freedWhileDelivering() async {
        let counter = TokenCounter()
        let signal = Signal<Int>()
        let delivered = Atomic(0)
        let firing = LoopingThread { signal.fire(with: $0) }
        await Task.detached {
            // At least 2,000 chains, and on until the firing thread has delivered 2,000 times
            // to chains being freed (how many that takes depends on how the threads run).
            var made = 0
            while made < 2_000 || (delivered.load(ordering: .relaxed) < 2_000 && made < 10_000_000) {
                made += 1
                // Made and freed at once: the firing thread may be delivering to it meanwhile.
                let chain = signal.fired.noDispatch().map { counter.make($0) }.then { _ in
                    delivered.add(1, ordering: .relaxed)
                }
                _ = chain
            }
        }.value
        firing.stop()
        #expect(signal.fired.connectedCount == 0)
        // A chain that connected while the other thread fired may have handed what waited to
        // a global queue (see `ModifierCore.attach()`); it is freed when that work ends.
        #expect(await eventually { counter.count == 0 })
        #expect(delivered.load(ordering: .relaxed) >= 2_000)
    }

    @Test("chains made and removed in batches, as a long-running program does: after every batch, nothing is kept")
    func soak() async {
        // A long-running app that opens and closes screens: each iteration makes a dispatched
        // chain on a queue of its own, a throttled chain, and a subscription, and removes all
        // three at once; every tenth writes, so that the throttle's pause is still running
        // when it is removed. What an iteration left behind would grow with the batches:
        // tokens the chains' parts remember, receivers the property still lists, timers the
        // throttles left pending. (Memory measured the same way levels off: the growth the
        // process shows first is Dispatch's own, see Documentation/Internals/Signals.md.)
        let counter = TokenCounter()
        let scheduler = TestScheduler()
        let property = Property(value: 0)
        var pausesRunning = 0
        for batch in 0..<3 {
            for iteration in 0..<2_000 {
                let observables = ObservableCollection()
                property.didSet.dispatch(to: DispatchQueue(label: "LifetimeTests.soak"))
                    .map { counter.make($0) }.filter { $0.value >= 0 }
                    .then { _ in }
                    .append(to: observables)
                property.didSet.noDispatch().map { counter.make($0) }
                    .throttle(pause: .seconds(60), latest: true, scheduler: scheduler).then { _ in }
                    .append(to: observables)
                let subscription = property.didSet.noDispatch().map { counter.make($0) }.subscribe { _ in }
                if iteration % 10 == 0 {
                    property.value = batch * 10_000 + iteration
                    pausesRunning += scheduler.pendingCount
                }
                observables.removeAll()
                subscription.disconnect()
            }
            ObservableCollection.waitForDeliveriesUnderWay()
            #expect(property.didSet.connectedCount == 0, "batch \(batch)")
            #expect(scheduler.pendingCount == 0, "batch \(batch): removed throttles left their pauses pending")
            #expect(await eventuallyZero(counter), "batch \(batch): \(counter.count) tokens outlived their chains")
        }
        #expect(pausesRunning == 3 * 200, "each write started one throttle's pause")
    }

    @Test("subscribe's connection frees the subscription when disconnected")
    func subscription() {
        let counter = TokenCounter()
        let signal = Signal<Int>()
        let tokens = signal.fired.noDispatch().map { counter.make($0) }
        let connection = tokens.subscribe { _ in }
        signal.fire(with: 1)
        #expect(tokens.connectedCount == 1)
        connection.disconnect()
        #expect(tokens.connectedCount == 0)
    }

    /// Waits for the dispatched chain's queued work, which holds its messages until it runs
    /// (and, the chain being removed, drops them), then for the working parts to be freed:
    /// once every delivery under way when they were removed has ended, on any thread (other
    /// tests deliver in parallel; see the Lifetime section of Semantics.md).
    func eventuallyZero(_ counter: TokenCounter) async -> Bool {
        Self.workQueue.sync {}
        return await eventually { counter.count == 0 }
    }
}

/// A target for `then(call:on:)`.
final class TokenSink: Sendable {
    func take(_ token: Token) {}
}

@Suite("Reentrancy through the new delivery path")
struct DeliveryReentrancyTests {
    @Test("a send nested in a merge's delivery through its second source waits its turn: FIFO at the merge")
    func nestedThroughMergeSide() {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let observables = ObservableCollection()
        let merged = first.fired.noDispatch().merge(with: second.fired.noDispatch())
        let seen = Log<String>()
        merged.then { value in
            seen.append("a\(value)")
            // While the merge delivers 1, fire its second source: 2 reaches the merge nested.
            if value == 1 { second.fire(with: 2) }
        }.append(to: observables)
        merged.then { seen.append("b\($0)") }.append(to: observables)
        first.fire(with: 1)
        // Both receivers see 1 before 2, and the merge's last message is the newest.
        #expect(seen.all == ["a1", "b1", "a2", "b2"])
        #expect(merged.lastMessage == 2)
    }

    @Test("a modifier whose last reference goes away during its own delivery finishes it, then is freed")
    func releasedDuringOwnDelivery() async {
        let counter = TokenCounter()
        let signal = Signal<Int>()
        let holder = LockedState<ThenModifier<Token>?>(nil)
        let seen = Log<Int>()
        let tokens = signal.fired.noDispatch().map { counter.make($0) }
        holder.withLock { held in
            held = tokens.then { token in
                seen.append(token.value)
                // The last reference to this very modifier goes away here.
                holder.withLock { $0 = nil }
                seen.append(-token.value)
            }
        }
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(seen.all == [1, -1])
        #expect(tokens.connectedCount == 0)
        // `tokens` still holds its own last message; nothing else does.
        #expect(await eventually { counter.count == 1 })
    }

    @Test("a thread that delivers on many relays leaves no nested message behind")
    func manyThreadsNesting() async {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let total = LockedState(0)
        signal.fired.noDispatch().then { value in
            total.withLock { $0 += 1 }
            // Each message fires one nested message (negative), which fires nothing.
            if value > 0 { signal.fire(with: -value) }
        }.append(to: observables)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 1...1_000 { signal.fire(with: thread * 10_000 + index) }
                }
            }
        }
        #expect(total.withLock { $0 } == 16_000)
    }
}

@Suite("Messages of every layout")
struct MessageLayoutTests {
    /// 12 words and a string: bigger than any slot a small message needs.
    struct Large: Equatable, Sendable {
        var values = SIMD8<Int>(repeating: 0)
        var more = SIMD4<Int>(repeating: 0)
        var text = ""
    }

    /// Replays `first`, then passes `second` and replays it to a chain connected later.
    func roundTrip<Message: Sendable & Equatable>(_ first: Message, _ second: Message) {
        let signal = Signal(value: first)
        let observables = ObservableCollection()
        let seen = LockedState<[Message]>([])
        let mapped = signal.fired.noDispatch().map { $0 }
        mapped.then { message in seen.withLock { $0.append(message) } }.append(to: observables)
        signal.fire(with: second)
        let later = LockedState<[Message]>([])
        mapped.then { message in later.withLock { $0.append(message) } }.append(to: observables)
        #expect(seen.withLock { $0 } == [first, second])
        #expect(later.withLock { $0 } == [second])
        #expect(mapped.lastMessage == second)
    }

    @Test("the last message is kept and replayed whatever its size and alignment")
    func layouts() {
        roundTrip(1 as UInt8, 2)
        roundTrip(SIMD8<Float>(repeating: 1), SIMD8<Float>(repeating: 2))
        roundTrip(SIMD16<Double>(repeating: 1), SIMD16<Double>(repeating: 2))
        var large = Large()
        large.more[3] = 11
        large.text = String(repeating: "x", count: 100)
        roundTrip(Large(), large)
        roundTrip("a", String(repeating: "b", count: 1_000))
        let signal = Signal<Void>()
        let count = LockedState(0)
        let observables = ObservableCollection()
        signal.fired.noDispatch().then { count.withLock { $0 += 1 } }.append(to: observables)
        signal.fire()
        signal.fired.noDispatch().then { count.withLock { $0 += 1 } }.append(to: observables)
        #expect(count.withLock { $0 } == 2)
    }
}

/// Operators that end a chain, after another operator: at the end the source reports the
/// chain gone and the operators before the end run no more, as when the chain is removed.
@Suite("Signals: a chain that ends lets go of its source at once")
struct EndingReleasesTests {
    typealias Ending = @Sendable (MessageSource<Int>) -> StreamModifier<Int, Int>

    static let endings: [(String, Ending)] = [
        ("prefix(1)", { $0.prefix(1) }),
        ("first()", { $0.first() }),
        ("first(where:)", { $0.first { $0 > 1 } }),
        ("prefix(while:)", { $0.prefix { $0 < 2 } }),
        ("take(first: 2)", { $0.take(first: 2) }),
    ]

    @Test("prefix, first, first(where:), prefix(while:) and take after a map: the source releases the chain at its end")
    func endingAfterMap() {
        for (name, ending) in Self.endings {
            let signal = Signal<Int>()
            let mapped = LockedBox(0)
            let received = LockedBox<[Int]>([])
            let observables = ObservableCollection()
            ending(
                signal.fired.noDispatch().map { value in
                    mapped.mutate { $0 += 1 }
                    return value
                }
            )
            .then { value in received.mutate { $0.append(value) } }
            .append(to: observables)
            #expect(signal.fired.connectedCount == 1, "\(name)")
            for value in 1...3 { signal.fire(with: value) }
            #expect(signal.fired.connectedCount == 0, "\(name): the source still reports the ended chain")
            let mappedAtEnd = mapped.read { $0 }
            for value in 4...6 { signal.fire(with: value) }
            #expect(mapped.read { $0 } == mappedAtEnd, "\(name): the map ran after the end")
            #expect(!received.read { $0 }.isEmpty, "\(name)")
            observables.removeAll()
        }
    }

    @Test("prefix(untilOutputFrom:) after a filter: the trigger's message releases both the source and the trigger")
    func untilTriggerAfterFilter() {
        let signal = Signal<Int>()
        let stop = Signal<Void>()
        let filtered = LockedBox(0)
        let observables = ObservableCollection()
        signal.fired.noDispatch().filter { _ in
            filtered.mutate { $0 += 1 }
            return true
        }
        .prefix(untilOutputFrom: stop.fired)
        .then { _ in }
        .append(to: observables)
        signal.fire(with: 1)
        stop.fire()
        #expect(signal.fired.connectedCount == 0)
        #expect(stop.fired.connectedCount == 0)
        signal.fire(with: 2)
        #expect(filtered.read { $0 } == 1)
        observables.removeAll()
    }

    @Test("a kept map feeding two chains: one chain's end leaves the map connected for the other")
    func sharedModifierStays() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let doubled = signal.fired.noDispatch().map { $0 * 2 }
        let all = LockedBox<[Int]>([])
        doubled.prefix(1).then { _ in }.append(to: observables)
        doubled.then { value in all.mutate { $0.append(value) } }.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(signal.fired.connectedCount == 1)
        #expect(all.read { $0 } == [2, 4])
        observables.removeAll()
    }

    @Test("a chain of a thousand maps ending in prefix(1): its end releases the source, every map detached in one loop")
    func longChainEnds() {
        let signal = Signal<Int>()
        var source: MessageSource<Int> = signal.fired.noDispatch()
        for _ in 0..<1_000 { source = source.map { $0 } }
        let observables = ObservableCollection()
        let received = LockedBox<[Int]>([])
        source.prefix(1).then { value in received.mutate { $0.append(value) } }.append(to: observables)
        signal.fire(with: 7)
        #expect(received.read { $0 } == [7])
        #expect(signal.fired.connectedCount == 0)
        observables.removeAll()
    }
}
