import Dispatch
import Signals
import TestSupport
import Testing

@Suite("Modifiers")
struct ModifierTests {
    @Test("a newly connected modifier receives the last message its observable sent")
    func replay() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let early = Log<Int>()
        signal.fired.noDispatch().then { early.append($0) }.append(to: observables)
        let evens = signal.fired.noDispatch().filter { $0.isMultiple(of: 2) }
        evens.append(to: observables)
        signal.fire(with: 2)
        signal.fire(with: 3)
        let late = Log<Int>()
        let lateFromFilter = Log<Int>()
        signal.fired.noDispatch().then { late.append($0) }.append(to: observables)
        evens.then { lateFromFilter.append($0) }.append(to: observables)
        #expect(early.all == [2, 3])
        #expect(late.all == [3])
        #expect(lateFromFilter.all == [2])
        #expect(signal.fired.lastMessage == 3 && evens.lastMessage == 2)
    }

    @Test("a signal that never fired replays nothing")
    func noReplayBeforeFirst() {
        let signal = Signal<String>()
        let log = Log<String>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().then { log.append($0) }.append(to: observables)
        #expect(log.all.isEmpty)
    }

    @Test("discard(first:) and distinct()")
    func discardAndDistinct() {
        let signal = Signal<Int>()
        let discarded = Log<Int>()
        let distinct = Log<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().discard(first: 2).then { discarded.append($0) }.append(to: observables)
        signal.fired.noDispatch().distinct().then { distinct.append($0) }.append(to: observables)
        for value in [1, 1, 2, 2, 3, 1] { signal.fire(with: value) }
        #expect(discarded.all == [2, 2, 3, 1])
        #expect(distinct.all == [1, 2, 3, 1])
    }

    @Test("throttle passes a message only after a pause since the last one it passed")
    func throttle() {
        let scheduler = TestScheduler()
        let signal = Signal<Int>()
        let passed = Log<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().throttle(pause: .seconds(1), scheduler: scheduler)
            .then { passed.append($0) }.append(to: observables)
        signal.fire(with: 1)
        scheduler.advance(by: .milliseconds(500))
        signal.fire(with: 2)
        scheduler.advance(by: .milliseconds(500))
        signal.fire(with: 3)
        signal.fire(with: 4)
        scheduler.advance(by: .seconds(5))
        signal.fire(with: 5)
        #expect(passed.all == [1, 3, 5])
    }

    @Test("debounce passes the last message of each burst after a quiet pause")
    func debounce() {
        let scheduler = TestScheduler()
        let signal = Signal<String>()
        let passed = Log<String>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().debounce(pause: .milliseconds(300), scheduler: scheduler)
            .then { passed.append($0) }.append(to: observables)
        for query in ["s", "sw", "swi"] {
            signal.fire(with: query)
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(passed.all.isEmpty)
        scheduler.advance(by: .milliseconds(300))
        signal.fire(with: "swift")
        scheduler.advance(by: .seconds(1))
        #expect(passed.all == ["swi", "swift"])
        observables.removeAll()
        signal.fire(with: "gone")
        scheduler.advance(by: .seconds(1))
        #expect(passed.all == ["swi", "swift"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("throttle(pause:latest:) passes on both edges: at once, then the latest or earliest of each pause")
    func trailingThrottle() {
        for latest in [true, false] {
            let scheduler = TestScheduler()
            let signal = Signal<Int>()
            let passed = Log<String>()
            let observables = ObservableCollection()
            signal.fired.noDispatch().throttle(pause: .seconds(3), latest: latest, scheduler: scheduler)
                .then { passed.append("\($0)@\(scheduler.now.offset.components.seconds)") }.append(to: observables)
            for (time, value) in [(0, 1), (1, 2), (2, 3), (6, 4), (8, 5)] {
                scheduler.advance(to: .zero + .seconds(time))
                signal.fire(with: value)
            }
            scheduler.advance(by: .seconds(10))
            #expect(passed.all == (latest ? ["1@0", "3@3", "4@6", "5@9"] : ["1@0", "2@3", "4@6", "5@9"]))
            observables.removeAll()
            #expect(scheduler.pendingCount == 0)
        }
    }

    @Test("a trailing throttle fed from many threads passes the first message at once and the last after the pause")
    func trailingThrottleConcurrent() async {
        let scheduler = TestScheduler()
        let signal = Signal<Int>()
        let passed = Log<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().throttle(pause: .seconds(1), latest: true, scheduler: scheduler)
            .then { passed.append($0) }.append(to: observables)
        signal.fire(with: -1)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for value in 0..<500 { signal.fire(with: thread * 1_000 + value) } }
            }
        }
        signal.fire(with: 99_999)
        #expect(passed.all == [-1])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(passed.all == [-1, 99_999])
        observables.removeAll()
    }

    @Test("dispatch(to:) runs the rest of the chain on the queue, in order, even on a concurrent queue")
    func dispatchOrder() async {
        let concurrent = DispatchQueue(label: "SignalsTests.concurrent", attributes: .concurrent)
        let signal = Signal<Int>()
        let log = Log<Int>()
        let observables = ObservableCollection()
        let done = Gate()
        signal.fired.dispatch(to: concurrent).map { $0 * 10 }.then {
            log.append($0)
            if $0 == 9_990 { done.open() }
        }.append(to: observables)
        for value in 0..<1_000 { signal.fire(with: value) }
        await done.wait()
        #expect(log.all == (0..<1_000).map { $0 * 10 })
    }

    @Test("negative counts and pauses are precondition failures")
    func misuse() async {
        let discard = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.discard(first: -1)
        }
        expectStandardError(of: discard, contains: "discard(first:) needs a count of zero or more, got -1")
        let throttle = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.throttle(pause: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: throttle, contains: "throttle(pause:) needs a pause of zero or more")
        let trailing = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.throttle(pause: .seconds(-1), latest: true, scheduler: TestScheduler())
        }
        expectStandardError(of: trailing, contains: "throttle(pause:latest:) needs a pause of zero or more")
        let debounce = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.debounce(pause: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: debounce, contains: "debounce(pause:) needs a pause of zero or more")
        let timer = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PeriodicTimer(interval: .zero, scheduler: TestScheduler())
        }
        expectStandardError(of: timer, contains: "PeriodicTimer needs a positive interval")
    }
}
