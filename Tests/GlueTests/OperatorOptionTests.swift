import Glue
import ReactiveCore
import ReactiveTesting
import TestSupport
import Testing

@Suite("Glue: the operator options of RxJS's and RxSwift's suites, as marbles and models")
struct OperatorOptionTests {
    static let numbers = ["1": 1, "2": 2, "3": 3, "4": 4]

    @Test("prefix(while:inclusive:) sends the value that fails the predicate, then lets go of its input")
    func inclusivePrefixWhile() {
        let marbles = MarbleTest()
        let input = Signal<Int>()
        marbles.play("-1-2-3-4-1", values: Self.numbers, into: input.send)
        let inclusive = marbles.record(input.prefix(while: { $0 < 3 }, inclusive: true))
        let exclusive = marbles.record(input.prefix(while: { $0 < 3 }, inclusive: false))
        let firstFails = marbles.record(input.prefix(while: { $0 > 1 }, inclusive: true))
        let connection = input.prefix(while: { $0 < 2 }, inclusive: true).subscribe { _ in }
        marbles.run()
        marbles.expect(inclusive, "-1-2-3", values: Self.numbers)
        marbles.expect(exclusive, "-1-2", values: Self.numbers)
        marbles.expect(firstFails, "-1", values: Self.numbers)
        #expect(!connection.isConnected, "a prefix that stopped reports its connection disconnected")
        #expect(input.subscriberCount == 0)
    }

    @Test("collect(count:every:) sends overlapping windows, or spaced ones, and collect(n) is every n")
    func collectEvery() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-a-b-c-d-e", into: input.send)
        let sliding = marbles.record(input.collect(count: 3, every: 1).map { $0.joined() })
        let spaced = marbles.record(input.collect(count: 2, every: 3).map { $0.joined() })
        let pairs = marbles.record(input.collect(count: 2, every: 2).map { $0.joined() })
        let plain = marbles.record(input.collect(2).map { $0.joined() })
        marbles.run()
        marbles.expect(sliding, "-----[abc]-[bcd]-[cde]")
        marbles.expect(spaced, "---[ab]-----[de]")
        marbles.expect(pairs, "---[ab]---[cd]")
        marbles.expect(plain, "---[ab]---[cd]")
    }

    @Test("a sink that sends into collect(count:every:)'s input gets the value in the windows after the current one")
    func collectEveryReentrant() {
        let input = Signal<Int>()
        var windows: [[Int]] = []
        let connection = input.collect(count: 2, every: 1).subscribe { window in
            windows.append(window)
            if window == [1, 2] { input.send(10) }
        }
        input.send(1)
        input.send(2)
        input.send(3)
        #expect(windows == [[1, 2], [2, 10], [10, 3]])
        connection.disconnect()
        #expect(input.subscriberCount == 0)
    }

    @Test("timeout(first:) stops only when the first value is late; later silences are allowed")
    func timeoutFirst() {
        let marbles = MarbleTest()
        let late = Signal<String>()
        let early = Signal<String>()
        marbles.play("----a-b", into: late.send)
        marbles.play("-a-------b", into: early.send)
        let scheduler = marbles.scheduler
        let lateRecording = marbles.record(late.timeout(first: .seconds(3), scheduler: scheduler))
        let earlyRecording = marbles.record(early.timeout(first: .seconds(3), scheduler: scheduler))
        let each = marbles.record(early.timeout(.seconds(3), scheduler: scheduler))
        marbles.run()
        marbles.expect(lateRecording, "")
        marbles.expect(earlyRecording, "-a-------b")
        marbles.expect(each, "-a")
        #expect(late.subscriberCount == 0, "the timeout let go of its input")
        #expect(scheduler.pendingCount == 0, "no timer runs after the first value")
    }

    @Test("timeout(switchingTo:) lets go of the source at the deadline and sends the fallback's values from then on")
    func timeoutFallback() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        let fallback = Signal<String>()
        marbles.play("-a-b------c", into: input.send)
        marbles.play("----w----x-y", into: fallback.send)
        let scheduler = marbles.scheduler
        let switched = marbles.record(input.timeout(.seconds(3), scheduler: scheduler, switchingTo: fallback))
        let firstOnly = marbles.record(input.timeout(first: .seconds(3), scheduler: scheduler, switchingTo: fallback))
        let never = marbles.record(
            input.timeout(first: .milliseconds(500), scheduler: scheduler, switchingTo: fallback))
        var counts: [String: Int] = [:]
        let probes = [5, 7].map { tick in
            scheduler.schedule(
                after: .seconds(tick) + .milliseconds(500),
                isolated: { counts["\(tick)"] = input.subscriberCount * 10 + fallback.subscriberCount })
        }
        marbles.run()
        // b at 3, silent until 6: switched there; w (at 4) came before the switch.
        marbles.expect(switched, "-a-b-----x-y")
        marbles.expect(firstOnly, "-a-b------c")
        marbles.expect(never, "----w----x-y")
        // At 5 the input is held by the first two and the fallback by the third; at 7 the
        // first has let go of the input and holds the fallback.
        #expect(counts == ["5": 2 * 10 + 1, "7": 1 * 10 + 2])
        _ = probes
    }

    @Test("a subscription disconnected by the fallback's first delivery holds nothing")
    func fallbackDisconnectsDuringDelivery() {
        let scheduler = TestScheduler()
        let input = Signal<Int>()
        let fallback = Signal<Int>()
        var received: [Int] = []
        var connection: Connection?
        let switching = input.timeout(.seconds(1), scheduler: scheduler, switchingTo: fallback.prepend(7))
        connection = switching.subscribe { value in
            received.append(value)
            connection?.disconnect()
        }
        scheduler.advance(by: .seconds(2))
        fallback.send(8)
        #expect(received == [7])
        #expect(input.subscriberCount == 0)
        #expect(fallback.subscriberCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(
        "throttle(pause:leading:trailing:) on the trailing edge holds the first value and sends the latest at the pause's end"
    )
    func trailingThrottle() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-ab--c-----d", into: input.send)
        let scheduler = marbles.scheduler
        let pause = Duration.seconds(3)
        let trailing = marbles.record(
            input.throttle(pause: pause, leading: false, trailing: true, scheduler: scheduler))
        let both = marbles.record(input.throttle(pause: pause, leading: true, trailing: true, scheduler: scheduler))
        let latest = marbles.record(input.throttle(pause: pause, latest: true, scheduler: scheduler))
        let leading = marbles.record(input.throttle(pause: pause, leading: true, trailing: false, scheduler: scheduler))
        let leadingOnly = marbles.record(input.throttle(pause: pause, scheduler: scheduler))
        marbles.run()
        marbles.expect(trailing, "----b--c------d")
        marbles.expect(both, "-a--b--c---d")
        marbles.expect(latest, "-a--b--c---d")
        marbles.expect(leading, "-a---c-----d")
        marbles.expect(leadingOnly, "-a---c-----d")
    }

    @Test(
        "model: random arrivals through the timeouts, their fallbacks and the trailing throttle match references written from the definitions"
    )
    func timedModel() {
        TimedOptionProgram.checkRandomPrograms { program, scheduler, recording in
            let input = Signal<Int>()
            let fallback = Signal<Int>()
            let interval = program.interval
            let connections = [
                input.timeout(interval, scheduler: scheduler).subscribe(recording.record("each")),
                input.timeout(first: interval, scheduler: scheduler).subscribe(recording.record("first")),
                input.timeout(interval, scheduler: scheduler, switchingTo: fallback).subscribe(
                    recording.record("eachFallback")),
                input.timeout(first: interval, scheduler: scheduler, switchingTo: fallback).subscribe(
                    recording.record("firstFallback")),
                input.throttle(pause: program.pause, leading: false, trailing: true, scheduler: scheduler).subscribe(
                    recording.record("trailing")),
            ]
            return TimedModelRun(
                input: input.send, fallback: fallback.send,
                tearDown: { for connection in connections { connection.disconnect() } },
                released: { input.subscriberCount == 0 && fallback.subscriberCount == 0 && scheduler.pendingCount == 0 }
            )
        }
    }

    @Test("the operators hold their inputs only while subscribed: all freed after disconnection")
    func freedAfterTeardown() {
        weak var weakInput: Signal<Int>?
        weak var weakFallback: Signal<Int>?
        let scheduler = TestScheduler()
        do {
            let input = Signal<Int>()
            let fallback = Signal<Int>()
            weakInput = input
            weakFallback = fallback
            let connections = [
                input.prefix(while: { $0 < 3 }, inclusive: true).subscribe { _ in },
                input.collect(count: 3, every: 1).subscribe { _ in },
                input.timeout(first: .seconds(1), scheduler: scheduler, switchingTo: fallback).subscribe { _ in },
                input.throttle(pause: .seconds(1), leading: false, trailing: true, scheduler: scheduler).subscribe {
                    _ in
                },
            ]
            input.send(1)
            scheduler.advance(by: .seconds(2))
            for connection in connections { connection.disconnect() }
        }
        #expect(weakInput == nil)
        #expect(weakFallback == nil)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("collect(count:every:) with an every of 0, and a throttle on neither edge, are precondition failures")
    func preconditions() async {
        let none = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().collect(count: 0, every: 1)
        }
        expectStandardError(of: none, contains: "Glue: collect(count:every:) needs a count of at least 1, got 0")
        let every = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().collect(count: 2, every: 0)
        }
        expectStandardError(of: every, contains: "Glue: collect(count:every:) needs an every of at least 1, got 0")
        let neither = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().throttle(pause: .seconds(1), leading: false, trailing: false, scheduler: TestScheduler())
        }
        expectStandardError(of: neither, contains: "a throttle needs its leading or its trailing edge")
    }
}
