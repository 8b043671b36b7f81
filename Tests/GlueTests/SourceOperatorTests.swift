import Dispatch
import Glue
import TestSupport
import Testing

@Suite("Source operators")
struct SourceOperatorTests {
    @Test("map, filter and compactMap transform the stream")
    func mapFilterCompactMap() {
        let signal = Signal<String>()
        var mapped: [Int] = []
        var filtered: [String] = []
        var compacted: [Int] = []
        let connections = [
            signal.map { $0.count }.subscribe { mapped.append($0) },
            signal.filter { $0.hasPrefix("a") }.subscribe { filtered.append($0) },
            signal.compactMap { Int($0) }.subscribe { compacted.append($0) },
        ]
        for value in ["a", "bb", "12", "abc"] { signal.send(value) }
        #expect(mapped == [1, 2, 2, 3])
        #expect(filtered == ["a", "abc"])
        #expect(compacted == [12])
        _ = connections
    }

    @Test("operators chain: Signal → map → filter → sink")
    func chain() {
        let signal = Signal<Int>()
        var sum = 0
        let connection = signal.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.subscribe { sum += $0 }
        for value in 0..<10 { signal.send(value) }
        #expect(sum == 2 + 4 + 6 + 8 + 10)
        connection.disconnect()
        #expect(!signal.isConnected)
    }

    @Test("distinct drops repeats; distinct(by:) uses the given equivalence")
    func distinct() {
        let signal = Signal<Int>()
        var plain: [Int] = []
        var byParity: [Int] = []
        let connections = [
            signal.distinct().subscribe { plain.append($0) },
            signal.distinct { $0 % 2 == $1 % 2 }.subscribe { byParity.append($0) },
        ]
        for value in [1, 1, 2, 2, 2, 3, 1, 5, 4] { signal.send(value) }
        #expect(plain == [1, 2, 3, 1, 5, 4])
        #expect(byParity == [1, 2, 3, 4])
        _ = connections
    }

    @Test("accumulated and counted keep running results, per subscription")
    func accumulated() {
        let signal = Signal<Int>()
        var totals: [Int] = []
        var counts: [Int] = []
        let total = signal.accumulated(100) { $0 + $1 }.subscribe { totals.append($0) }
        signal.send(1)
        let count = signal.counted().subscribe { counts.append($0) }
        signal.send(2)
        signal.send(3)
        #expect(totals == [101, 103, 106])
        #expect(counts == [1, 2])
        _ = (total, count)
    }

    @Test("merged sources deliver values as they arrive, never nesting the sink")
    func merged() {
        let first = Signal<String>()
        let second = Signal<String>()
        var log: [String] = []
        var depth = 0
        var maximumDepth = 0
        let connection = first.merged(with: second).subscribe { value in
            depth += 1
            maximumDepth = max(maximumDepth, depth)
            log.append(value)
            if value == "a1" { second.send("b-from-a1") }
            depth -= 1
        }
        first.send("a1")
        second.send("b1")
        #expect(log == ["a1", "b-from-a1", "b1"])
        #expect(maximumDepth == 1)
        connection.disconnect()
        #expect(!first.isConnected && !second.isConnected)
    }

    @Test("Source.merge takes any number of sources")
    func mergeMany() {
        let signals = (0..<4).map { _ in Signal<Int>() }
        var seen: [Int] = []
        let connection = Source.merge(signals.map(\.source)).subscribe { seen.append($0) }
        for (index, signal) in signals.enumerated().reversed() { signal.send(index) }
        #expect(seen == [3, 2, 1, 0])
        _ = connection
    }

    @Test("buffered shares one upstream subscription and releases it with the last subscriber")
    func buffered() {
        let signal = Signal<Int>()
        var transforms = 0
        let shared = signal.map { value -> Int in
            transforms += 1
            return value * 2
        }.buffered()
        var first: [Int] = []
        var second: [Int] = []
        let a = shared.subscribe { first.append($0) }
        let b = shared.subscribe { second.append($0) }
        #expect(signal.subscriberCount == 1)
        signal.send(1)
        signal.send(2)
        #expect(first == [2, 4] && second == [2, 4])
        #expect(transforms == 2)
        a.disconnect()
        #expect(shared.isConnected)
        b.disconnect()
        #expect(!shared.isConnected)
        #expect(!signal.isConnected)
    }

    @Test("a buffered source is kept alive by its connections and freed after")
    func bufferedLifetime() {
        let signal = Signal<Int>()
        weak var weakShared: BufferedSource<Int>?
        var seen: [Int] = []
        var connection: Connection?
        do {
            let shared = signal.buffered()
            weakShared = shared
            connection = shared.subscribe { seen.append($0) }
        }
        signal.send(1)
        #expect(seen == [1])
        #expect(weakShared != nil)
        connection?.disconnect()
        #expect(weakShared == nil)
        #expect(!signal.isConnected)
    }

    @Test("dispatch(on:) delivers on the queue, in order, and stops at disconnect")
    func dispatchOnQueue() async {
        let queue = DispatchQueue(label: "GlueTests.dispatch")
        let signal = Signal<Int>()
        let log = Log<Int>()
        let connection = signal.dispatch(on: queue).subscribe { value in
            dispatchPrecondition(condition: .onQueue(queue))
            log.append(value)
        }
        for value in 0..<100 { signal.send(value) }
        await withCheckedContinuation { done in queue.async { done.resume() } }
        #expect(log.all == Array(0..<100))
        queue.suspend()
        signal.send(100)
        connection.disconnect()
        queue.resume()
        await withCheckedContinuation { done in queue.async { done.resume() } }
        #expect(log.all.count == 100)
        #expect(!signal.isConnected)
    }

    @Test("a timer source ticks only while subscribed")
    func timerSource() {
        let scheduler = TestScheduler()
        let timer = TimerSource(scheduler: scheduler, interval: .seconds(1))
        var ticks: [SchedulerInstant] = []
        #expect(!timer.isRunning)
        scheduler.advance(by: .seconds(5))
        let connection = timer.subscribe { ticks.append(scheduler.now) }
        #expect(timer.isRunning)
        scheduler.advance(by: .seconds(3))
        connection.disconnect()
        #expect(!timer.isRunning)
        scheduler.advance(by: .seconds(3))
        #expect(ticks == [6, 7, 8].map { .zero + .seconds($0) })
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a timer source with a start instant ticks on that grid")
    func timerSourceStart() {
        let scheduler = TestScheduler()
        let timer = TimerSource(scheduler: scheduler, start: .zero + .milliseconds(500), interval: .seconds(1))
        var ticks: [Duration] = []
        let connection = timer.subscribe { ticks.append(scheduler.now.offset) }
        scheduler.advance(by: .seconds(2))
        #expect(ticks == [.milliseconds(500), .milliseconds(1500)])
        _ = connection
    }

    @Test("a timer source with a zero interval is a precondition failure")
    func timerSourceZeroInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TimerSource(scheduler: TestScheduler(), interval: .zero)
        }
        expectStandardError(of: result, contains: "TimerSource needs a positive interval")
    }

    @Test("throttle and debounce pace each subscription on its own, by ReactiveCore's rules")
    func paced() {
        let scheduler = TestScheduler()
        let typed = Signal<Int>()
        var log: [String: [String]] = [:]
        func record(_ name: String) -> (Int) -> Void {
            { value in log[name, default: []].append("\(value)@\(scheduler.now.offset.components.seconds)") }
        }
        var connections = [
            typed.throttle(pause: .seconds(3), scheduler: scheduler).subscribe(record("leading")),
            typed.throttle(pause: .seconds(3), latest: true, scheduler: scheduler).subscribe(record("latest")),
            typed.throttle(pause: .seconds(3), latest: false, scheduler: scheduler).subscribe(record("earliest")),
            typed.debounce(pause: .seconds(3), scheduler: scheduler).subscribe(record("debounce")),
        ]
        for (time, value) in [(0, 1), (1, 2), (2, 3), (6, 4), (8, 5)] {
            scheduler.advance(to: .zero + .seconds(time))
            typed.send(value)
        }
        scheduler.advance(by: .seconds(10))
        #expect(log["leading"] == ["1@0", "4@6"])
        #expect(log["latest"] == ["1@0", "3@3", "4@6", "5@9"])
        #expect(log["earliest"] == ["1@0", "2@3", "4@6", "5@9"])
        #expect(log["debounce"] == ["3@5", "5@11"])
        // Disconnecting drops what a pause holds: no timer is left behind.
        typed.send(6)
        typed.send(7)
        #expect(scheduler.pendingCount == 3)
        connections.removeAll()
        #expect(scheduler.pendingCount == 0)
        #expect(!typed.isConnected)
        scheduler.advance(by: .seconds(10))
        #expect(log["latest"]?.last == "6@18")
    }

    @Test("a sink that sends into the throttled signal is paced too, never nested")
    func pacedReentrant() {
        let scheduler = TestScheduler()
        let typed = Signal<Int>()
        var passed: [Int] = []
        let connection = typed.throttle(pause: .seconds(1), latest: true, scheduler: scheduler).subscribe { value in
            passed.append(value)
            if value < 3 { typed.send(value + 1) }
        }
        typed.send(0)
        #expect(passed == [0])
        scheduler.advance(by: .seconds(5))
        #expect(passed == [0, 1, 2, 3])
        connection.disconnect()
    }

    @Test("a negative pause for throttle or debounce is a precondition failure")
    func negativePause() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().debounce(pause: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: result, contains: "Glue: throttle and debounce need a pause of zero or more")
    }

    @Test("every operator's chain is freed after disconnect")
    func chainsAreFreed() {
        weak var weakSignal: Signal<Int>?
        weak var weakToken: Token?
        var connection: Connection?
        do {
            let signal = Signal<Int>()
            let token = Token()
            connection = signal.map { $0 + 1 }.filter { _ in true }.compactMap { $0 }.distinct()
                .accumulated(0, +).merged(with: Signal<Int>()).buffered()
                .throttle(pause: .seconds(1), latest: true, scheduler: TestScheduler())
                .subscribe { _ in _ = token }
            (weakSignal, weakToken) = (signal, token)
            signal.send(1)
        }
        #expect(weakSignal != nil)
        connection?.disconnect()
        #expect(weakSignal == nil)
        #expect(weakToken == nil)
    }
}
