import Dispatch
import Signals
import Testing

/// Operators whose replay ends them (`first(where:)` on a property that already matches) pass
/// the message they ended on to the closures written after them, then the end.
@Suite("Replay that ends an operator: the message still reaches the closures after it")
struct ReplayEndingTests {
    /// What `chain` made of `property` (with a `map` before it) delivers to a closure after it.
    private func delivered(
        from property: Property<Int>,
        _ chain: (MessageSource<Int>) -> MessageSource<Int>
    ) -> (log: Log<Seen>, observables: ObservableCollection) {
        let log = Log<Seen>()
        let observables = ObservableCollection()
        chain(property.didSet.noDispatch().map { $0 * 10 }).logged(into: log, in: observables)
        return (log, observables)
    }

    @Test("first(where:) whose replay matches delivers that message, then the end")
    func firstWhere() {
        let property = Property(value: 3)
        let (log, observables) = delivered(from: property) { $0.first(where: { $0 > 0 }) }
        #expect(log.all == [.message(30), .finished])
        property.value = 4
        #expect(log.all == [.message(30), .finished])
        #expect(property.didSet.connectedCount == 0)
        observables.removeAll()
    }

    @Test("first() delivers the replayed message, then the end")
    func first() {
        let property = Property(value: 2)
        let (log, observables) = delivered(from: property) { $0.first() }
        #expect(log.all == [.message(20), .finished])
        observables.removeAll()
    }

    @Test("prefix(1) delivers the replayed message, then the end; prefix(2) waits for one more")
    func prefix() {
        let property = Property(value: 2)
        let (one, kept) = delivered(from: property) { $0.prefix(1) }
        #expect(one.all == [.message(20), .finished])
        let (two, keptToo) = delivered(from: property) { $0.prefix(2) }
        #expect(two.all == [.message(20)])
        property.value = 5
        #expect(two.all == [.message(20), .message(50), .finished])
        kept.removeAll()
        keptToo.removeAll()
    }

    @Test("prefix(while:) whose replay fails ends at once; one whose replay passes keeps going")
    func prefixWhile() {
        let property = Property(value: 2)
        let (failing, kept) = delivered(from: property) { $0.prefix(while: { $0 > 100 }) }
        #expect(failing.all == [.finished])
        let (passing, keptToo) = delivered(from: property) { $0.prefix(while: { $0 < 100 }) }
        #expect(passing.all == [.message(20)])
        property.value = 11
        #expect(passing.all == [.message(20), .finished])
        kept.removeAll()
        keptToo.removeAll()
    }

    @Test("prefix(untilOutputFrom:) passes the replayed message while its trigger waits")
    func prefixUntilOutput() {
        let property = Property(value: 2)
        let trigger = Signal<Void>()
        let (log, observables) = delivered(from: property) { $0.prefix(untilOutputFrom: trigger.fired) }
        #expect(log.all == [.message(20)])
        trigger.fire()
        property.value = 3
        #expect(log.all == [.message(20), .finished])
        observables.removeAll()
    }

    @Test("prefix(untilOutputFrom:) with a replayed trigger ends at once, before any message")
    func prefixUntilReplayedTrigger() {
        let property = Property(value: 2)
        let trigger = Signal<Void>(value: ())
        let (log, observables) = delivered(from: property) { $0.prefix(untilOutputFrom: trigger.fired) }
        #expect(log.all == [.finished])
        observables.removeAll()
    }

    @Test("every chain connected later to an operator its replay ended is handed the message, then the end")
    func laterChains() {
        let property = Property(value: 7)
        let first = property.didSet.noDispatch().first(where: { $0 > 5 })
        #expect(first.lastMessage == nil)
        #expect(first.completion != nil)
        let observables = ObservableCollection()
        let logs = [Log<Seen>(), Log<Seen>()]
        for log in logs { first.logged(into: log, in: observables) }
        for log in logs { #expect(log.all == [.message(7), .finished]) }
        #expect(property.didSet.connectedCount == 0)
        observables.removeAll()
    }

    @Test("an operator ended by a message sent later forgets it: a chain connected afterwards gets the end only")
    func endedLaterForgets() {
        let signal = Signal<Int>()
        let first = signal.fired.noDispatch().first()
        signal.fire(with: 1)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        first.logged(into: log, in: observables)
        #expect(log.all == [.finished])
        observables.removeAll()
    }

    @Test("on a queue, the replayed message and the end reach the closures after it, in order")
    func onAQueue() {
        let queue = DispatchQueue(label: "ReplayEndingTests.queue")
        let property = Property(value: 3)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        queue.suspend()
        property.didSet.dispatch(to: queue).map { $0 + 1 }.first(where: { $0 > 0 })
            .then { log.append(.message($0)) }
            .onEnd { log.append(Seen($0)) }
            .append(to: observables)
        #expect(log.all.isEmpty)
        queue.resume()
        queue.sync {}
        #expect(log.all == [.message(4), .finished])
        observables.removeAll()
    }

    @Test("a closure that connects a chain from inside the replay's end is handed the message too")
    func reentrantConnect() {
        let property = Property(value: 3)
        let observables = ObservableCollection()
        let log = Log<Seen>()
        let first = property.didSet.noDispatch().first()
        first.onEnd { _ in
            first.noDispatch().then { log.append(.message($0)) }.onEnd { log.append(Seen($0)) }
                .append(to: observables)
        }.append(to: observables)
        #expect(log.all == [.message(3), .finished])
        observables.removeAll()
    }
}
