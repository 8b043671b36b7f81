import Dispatch
import Signals
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a connection is owed, as one rule (S13): the last message, the last N
/// (`replay(_:)`), values ahead of them (`prepend`), or a whole sequence; each message once,
/// in order, with no gap between the replay and what follows.
@Suite("Replay rule: replay(_:), prepend, sequence sources and the replay/live boundary")
struct ReplayRuleTests {
    /// The messages and end a chain on `source` delivers.
    private func record(_ source: MessageSource<Int>, in observables: ObservableCollection) -> Log<Seen> {
        let log = Log<Seen>()
        source.logged(into: log, in: observables)
        return log
    }

    @Test("replay(3) hands a chain connected later the last three messages, oldest first, then what follows")
    func replayLastThree() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let recent = signal.fired.noDispatch().replay(3)
        recent.append(to: observables)
        for value in 1...5 { signal.fire(with: value) }
        let late = record(recent.map { $0 * 10 }, in: observables)
        #expect(late.all == [.message(30), .message(40), .message(50)])
        signal.fire(with: 6)
        #expect(late.all == [.message(30), .message(40), .message(50), .message(60)])
        #expect(recent.lastMessage == 6)
        observables.removeAll()
    }

    @Test("replay(3) with fewer messages hands those there are; replay(1) is the plain rule")
    func replayFewerAndOne() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let three = signal.fired.noDispatch().replay(3)
        let one = signal.fired.noDispatch().replay(1)
        three.append(to: observables)
        one.append(to: observables)
        let plain = signal.fired.noDispatch().map { $0 }
        plain.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(record(three, in: observables).all == [.message(1), .message(2)])
        #expect(record(one, in: observables).all == [.message(2)])
        #expect(record(plain, in: observables).all == [.message(2)])
        observables.removeAll()
    }

    @Test("replay(0) owes nothing: a late chain receives only later messages, and there is no last message")
    func replayNothing() {
        let property = Property(value: 7)
        let observables = ObservableCollection()
        let none = property.didSet.noDispatch().replay(0)
        none.append(to: observables)
        #expect(none.lastMessage == nil)
        let late = record(none, in: observables)
        #expect(late.all.isEmpty)
        property.value = 8
        #expect(late.all == [.message(8)])
        observables.removeAll()
    }

    @Test("after the end, replay(2) hands a late chain its last two messages, then the end")
    func replayOutlivesTheEnd() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let recent = signal.fired.noDispatch().replay(2)
        recent.append(to: observables)
        for value in 1...3 { signal.fire(with: value) }
        signal.finish()
        #expect(recent.lastMessage == nil)
        let late = record(recent, in: observables)
        #expect(late.all == [.message(2), .message(3), .finished])
        #expect(record(recent, in: observables).all == [.message(2), .message(3), .finished])
        observables.removeAll()
    }

    @Test("a chain whose closure fires the source during its replay of three gets the new message after the three")
    func sendDuringReplay() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let recent = signal.fired.noDispatch().replay(3)
        recent.append(to: observables)
        for value in 1...3 { signal.fire(with: value) }
        let log = Log<Int>()
        recent.map { $0 }.then { value in
            log.append(value)
            if value == 1 { signal.fire(with: 4) }
        }.append(to: observables)
        #expect(log.all == [1, 2, 3, 4])
        observables.removeAll()
    }

    @Test("a kept replay(3) whose chains were removed comes back with what it had and its upstream's newest")
    func replayRevives() {
        let signal = Signal<Int>()
        let recent = signal.fired.noDispatch().replay(3)
        let first = ObservableCollection()
        let early = record(recent, in: first)
        for value in 1...3 { signal.fire(with: value) }
        #expect(early.all == [.message(1), .message(2), .message(3)])
        first.removeAll()
        #expect(signal.fired.connectedCount == 0)
        signal.fire(with: 4)
        signal.fire(with: 5)
        let second = ObservableCollection()
        let late = record(recent, in: second)
        // It saw 1, 2, 3, and 5 (its upstream's last) as it came back: the last three of those.
        #expect(late.all == [.message(2), .message(3), .message(5)])
        signal.fire(with: 6)
        #expect(late.all.last == .message(6))
        second.removeAll()
    }

    @Test("prepend hands each chain the values, then the current value, then changes")
    func prependValues() {
        let property = Property(value: 5)
        let observables = ObservableCollection()
        let started = property.didSet.noDispatch().map { $0 * 10 }.prepend(0, 1)
        started.append(to: observables)
        let first = record(started, in: observables)
        #expect(first.all == [.message(0), .message(1), .message(50)])
        property.value = 6
        #expect(first.all == [.message(0), .message(1), .message(50), .message(60)])
        let second = record(started, in: observables)
        #expect(second.all == [.message(0), .message(1), .message(60)])
        observables.removeAll()
    }

    @Test("prepend's values cross the modifiers after it whole, though each connects after the one before")
    func prependThroughAChain() {
        let signal = Signal<Int>(value: 9)
        let observables = ObservableCollection()
        let log = record(
            signal.fired.noDispatch().prepend(contentsOf: [1, 2]).map { $0 + 100 }.filter { $0 != 101 }, in: observables
        )
        #expect(log.all == [.message(102), .message(109)])
        signal.fire(with: 3)
        #expect(log.all == [.message(102), .message(109), .message(103)])
        let empty = record(signal.fired.noDispatch().prepend(contentsOf: []), in: observables)
        #expect(empty.all == [.message(3)])
        observables.removeAll()
    }

    @Test("a sequence source hands every chain all its values through every modifier, then .finished")
    func sequenceSource() {
        let observables = ObservableCollection()
        let source = MessageSource.sequence([1, 2, 3, 4])
        let log = record(source.noDispatch().map { $0 * 10 }.filter { $0 != 20 }.scan(0, +), in: observables)
        #expect(log.all == [.message(10), .message(40), .message(80), .finished])
        let again = record(source.noDispatch().prefix(2), in: observables)
        #expect(again.all == [.message(1), .message(2), .finished])
        #expect(source.completion != nil)
        #expect(source.lastMessage == nil)
        #expect(source.connectedCount == 0)
        let empty = record(MessageSource<Int>.sequence([]).noDispatch().map { $0 }, in: observables)
        #expect(empty.all == [.finished])
        observables.removeAll()
    }

    @Test("a sequence source's values reach a chain on a queue, in order, then the end")
    func sequenceOnAQueue() async {
        let observables = ObservableCollection()
        let log = Log<Seen>()
        let done = Gate()
        MessageSource.sequence(1...50).dispatch(to: DispatchQueue(label: "replay-rule"))
            .then { log.append(.message($0)) }
            .onEnd {
                log.append(Seen($0)); done.open()
            }
            .append(to: observables)
        await done.wait()
        #expect(log.all == (1...50).map { Seen.message($0) } + [.finished])
        observables.removeAll()
    }

    @Test("chains connected to replay(3) while another thread sends get each message once, in order, with no gap")
    func connectRacingSends() async {
        let signal = Signal<Int>()
        let recent = signal.fired.noDispatch().replay(3)
        let observables = ObservableCollection()
        recent.append(to: observables)
        let sent = 4_000
        let chains = 40
        let progress = Progress()
        let logs = (0..<chains).map { _ in Log<Int>() }
        // On two threads of their own, not the test's task pool: one sends, the other
        // connects a chain each time the sender has gone a step further, so connects meet
        // sends.
        await runOnThreadsOfTheirOwn([
            {
                for value in 0..<sent {
                    signal.fire(with: value)
                    progress.sent.store(value + 1, ordering: .releasing)
                }
            },
            {
                for (index, log) in logs.enumerated() {
                    while progress.sent.load(ordering: .acquiring) < index * sent / chains { sched_yield() }
                    recent.noDispatch().then { log.append($0) }.append(to: observables)
                }
            },
        ])
        for log in logs {
            let values = log.all
            // The replay (up to three) then every later message: consecutive, none twice.
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 + 1 == $1 }, "\(values.prefix(8))")
            #expect(values.last == sent - 1)
        }
        observables.removeAll()
    }

    @Test("removed chains on replay, prepend and a sequence source are freed")
    func chainsFreed() {
        weak var replayed: MessageSource<Int>?
        weak var prepended: MessageSource<Int>?
        weak var sequenced: MessageSource<Int>?
        let signal = Signal<Int>(value: 1)
        do {
            let observables = ObservableCollection()
            let recent = signal.fired.noDispatch().replay(4)
            let started = signal.fired.noDispatch().prepend(0)
            let values = MessageSource.sequence([1, 2])
            replayed = recent
            prepended = started
            sequenced = values
            _ = record(recent, in: observables)
            _ = record(started, in: observables)
            _ = record(values.noDispatch().map { $0 }, in: observables)
            observables.removeAll()
        }
        #expect(replayed == nil)
        #expect(prepended == nil)
        #expect(sequenced == nil)
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a negative replay count is a precondition failure that names it")
    func negativeReplayCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.replay(-1)
        }
        expectStandardError(of: result, contains: "Signals: replay(_:) needs a count of zero or more, got -1")
    }
}

/// How far a sending thread has got.
private final class Progress: Sendable {
    let sent = Atomic(0)
}
