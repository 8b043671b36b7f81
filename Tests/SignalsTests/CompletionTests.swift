import Dispatch
import ReactiveTesting
import Signals
import Testing

/// An error for failing signals in tests.
struct Broken: Error, Equatable {
    var code = 1
}

/// What a chain saw: its messages, then its end, in order.
enum Seen: Equatable, Sendable {
    case message(Int)
    case finished
    case failed(Int)
    case interrupted

    init(_ completion: Completion<any Error>) {
        switch completion {
        case .finished: self = .finished
        case .failed(let error): self = .failed((error as? Broken)?.code ?? -1)
        case .interrupted: self = .interrupted
        }
    }
}

extension MessageSource where Message == Int {
    /// Logs every message and the end into `log`, inline.
    func logged(into log: Log<Seen>, in observables: ObservableCollection) {
        noDispatch().then { log.append(.message($0)) }.onEnd { log.append(Seen($0)) }.append(to: observables)
    }
}

@Suite("Completion: signals finish, fail and are interrupted")
struct CompletionTests {
    @Test("finish reaches a chain after the messages before it; later messages and ends are dropped")
    func finishAfterMessages() {
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().map { $0 * 10 }.logged(into: log, in: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        signal.finish()
        signal.fire(with: 3)
        signal.fail(Broken())
        #expect(log.all == [.message(10), .message(20), .finished])
        #expect(signal.fired.connectedCount == 0)
        #expect(signal.fired.lastMessage == nil)
        #expect(signal.completion.map(Seen.init) == .finished)
    }

    @Test("a chain connected after the end receives the end at once, and no last message")
    func lateChainReceivesTheEnd() {
        let signal = Signal<Int>(value: 5)
        signal.fail(Broken(code: 7))
        // Dropped: not remembered, not replayed (S9 checks the relay forgot it).
        signal.fire(with: 6)
        #expect(signal.fired.lastMessage == nil)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().filter { _ in true }.logged(into: log, in: observables)
        #expect(log.all == [.failed(7)])
    }

    @Test("onCompleted, onFailed and onInterrupted each run for their end only")
    func specificHandlers() {
        let log = Log<String>()
        let observables = ObservableCollection()
        let first = Signal<Int>()
        let second = Signal<Int>()
        for signal in [first, second] {
            signal.fired.noDispatch()
                .onCompleted { log.append("completed") }
                .onFailed { log.append("failed \(($0 as? Broken)?.code ?? 0)") }
                .onInterrupted { log.append("interrupted") }
                .append(to: observables)
        }
        first.finish()
        second.fail(Broken(code: 3))
        observables.removeAll()
        #expect(log.all == ["completed", "failed 3"])
    }

    @Test("removing a chain before its end interrupts it once; removing it after the end does not")
    func removalInterrupts() {
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.logged(into: log, in: observables)
        signal.fire(with: 1)
        observables.removeAll()
        signal.finish()
        #expect(log.all == [.message(1), .interrupted])

        let ended = Signal<Int>()
        let endedLog = Log<Seen>()
        let kept = ObservableCollection()
        ended.fired.logged(into: endedLog, in: kept)
        ended.finish()
        kept.removeAll()
        #expect(endedLog.all == [.finished])
    }

    @Test("a chain freed without being removed is interrupted")
    func freedChainIsInterrupted() {
        let signal = Signal<Int>()
        let log = Log<Seen>()
        do {
            let chain = signal.fired.noDispatch().onEnd { log.append(Seen($0)) }
            #expect(chain.connectedCount == 0)
        }
        #expect(log.all == [.interrupted])
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("an end sent from a handler during a delivery waits behind the messages sent before it")
    func reentrantEnd() {
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().then { value in
            if value == 1 {
                signal.fire(with: 2)
                signal.finish()
                signal.fire(with: 3)
            }
        }.append(to: observables)
        signal.fired.logged(into: log, in: observables)
        signal.fire(with: 1)
        #expect(log.all == [.message(1), .message(2), .finished])
    }

    @Test("a handler that removes its own chain during the end's delivery is not interrupted as well")
    func removalDuringTheEnd() {
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().onEnd { completion in
            log.append(Seen(completion))
            observables.removeAll()
        }.append(to: observables)
        signal.finish()
        #expect(log.all == [.finished])
        #expect(observables.count == 0)
    }

    @Test("on a queue, the end runs after every message queued before it")
    func endOnAQueue() {
        let queue = DispatchQueue(label: "CompletionTests.queue")
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        queue.suspend()
        signal.fired.dispatch(to: queue).map { $0 + 1 }
            .then { log.append(.message($0)) }
            .onEnd { log.append(Seen($0)) }
            .append(to: observables)
        for value in 0..<50 { signal.fire(with: value) }
        signal.finish()
        #expect(log.all.isEmpty)
        queue.resume()
        queue.sync {}
        #expect(log.all == (1...50).map(Seen.message) + [.finished])
    }

    @Test("messages and the end that come while a chain connects wait behind the replay, in order")
    func endWhileConnecting() {
        let signal = Signal<Int>(value: 1)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        let chain = signal.fired.noDispatch().then { value in
            log.append(.message(value))
            if value == 1 {
                signal.fire(with: 2)
                signal.finish()
            }
        }
        chain.append(to: observables)
        #expect(log.all == [.message(1), .message(2)])
        #expect(chain.completion.map(Seen.init) == .finished)
        #expect(signal.fired.connectedCount == 0)
        // Connected after the end: the chain ended while it connected (its replay's work
        // ended it), so it kept what it sent while connecting (its burst: the replay and
        // the message its work sent), and hands them before the end.
        let late = Log<Seen>()
        chain.logged(into: late, in: observables)
        #expect(late.all == [.message(1), .message(2), .finished])
        #expect(chain.lastMessage == nil)
    }

    @Test("merge finishes once both sources finished; a failure ends it at once")
    func mergeEnds() {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        first.fired.noDispatch().merge(with: second.fired).logged(into: log, in: observables)
        first.fire(with: 1)
        first.finish()
        second.fire(with: 2)
        #expect(log.all == [.message(1), .message(2)])
        second.finish()
        #expect(log.all == [.message(1), .message(2), .finished])

        let failing = Signal<Int>()
        let other = Signal<Int>()
        let failLog = Log<Seen>()
        failing.fired.noDispatch().merge(with: other.fired).logged(into: failLog, in: observables)
        other.fail(Broken(code: 2))
        failing.fire(with: 1)
        #expect(failLog.all == [.failed(2)])
        #expect(failing.fired.connectedCount == 0)
    }

    @Test("combineLatest finishes when both finished, or at once when one finishes without a message")
    func combineLatestEnds() {
        let observables = ObservableCollection()
        let left = Signal<Int>()
        let right = Signal<Int>()
        let pairs = Log<String>()
        left.fired.noDispatch().combineLatest(right.fired).then { pairs.append("\($0)\($1)") }
            .onEnd { pairs.append("\(Seen($0))") }.append(to: observables)
        left.fire(with: 1)
        right.fire(with: 2)
        left.finish()
        right.fire(with: 3)
        right.finish()
        #expect(pairs.all == ["12", "13", "finished"])

        let silent = Signal<Int>()
        let talking = Signal<Int>()
        let ends = Log<String>()
        silent.fired.noDispatch().combineLatest(talking.fired).onEnd { ends.append("\(Seen($0))") }
            .append(to: observables)
        talking.fire(with: 1)
        silent.finish()
        #expect(ends.all == ["finished"])
        #expect(talking.fired.connectedCount == 0)
    }

    @Test("debounce passes the message it holds, then the end")
    func debounceFlushesAtTheEnd() {
        let scheduler = TestScheduler()
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().debounce(pause: .seconds(1), scheduler: scheduler).logged(into: log, in: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        signal.finish()
        #expect(log.all == [.message(2), .finished])
        scheduler.advance(by: .seconds(5))
        #expect(log.all == [.message(2), .finished])
    }

    @Test("subscribe(events:) delivers the end, and its connection then reports itself disconnected")
    func subscribeEvents() {
        let signal = Signal<Int>(value: 1)
        let events = Log<String>()
        let connection = signal.fired.subscribe(events: { event in
            switch event {
            case .value(let value): events.append("\(value)")
            case .completion(let completion): events.append("\(Seen(completion))")
            }
        })
        signal.fire(with: 2)
        #expect(connection.isConnected)
        signal.finish()
        #expect(events.all == ["1", "2", "finished"])
        #expect(!connection.isConnected)

        let ended = Signal<Int>()
        ended.finish()
        let late = ended.fired.subscribe(events: { _ in })
        #expect(!late.isConnected)
    }

    @Test("a marble diagram plays into a signal, and a chain's recording ends with it")
    func marbles() {
        let test = MarbleTest()
        let signal = Signal<String>()
        test.play("-a-b-#", failure: Broken() as any Error, events: signal.send(event:))
        let recording = test.record(signal.fired.noDispatch().map { $0.uppercased() })
        test.run()
        test.expect(recording, "-A-B-#")
    }

    @Test("threads that fire while another ends it: a chain on a queue sees messages, then one end, nothing after")
    func concurrentEnd() async {
        for _ in 0..<20 {
            let signal = Signal<Int>()
            let log = Log<Seen>()
            let observables = ObservableCollection()
            let queue = DispatchQueue(label: "CompletionTests.concurrentEnd")
            signal.fired.dispatch(to: queue).map { $0 }.then { log.append(.message($0)) }
                .onEnd { log.append(Seen($0)) }.append(to: observables)
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<3 {
                    group.addTask { for value in 0..<200 { signal.fire(with: thread * 1_000 + value) } }
                }
                group.addTask { signal.finish() }
            }
            queue.sync {}
            let seen = log.all
            #expect(seen.last == .finished)
            #expect(seen.filter { $0 == .finished }.count == 1)
            #expect(signal.fired.connectedCount == 0)
        }
    }
}
