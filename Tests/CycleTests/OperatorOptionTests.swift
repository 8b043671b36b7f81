import Cycle
import ReactiveCore
import ReactiveTesting
import TestSupport
import Testing

@Suite("Cycle: the operator options of RxJS's, RxSwift's and xstream's suites, as marbles and models")
struct OperatorOptionTests {
    /// A subject and the function that plays a diagram's events into it.
    final class Input<Value> {
        let subject = EventSubject<Value>()
        var stream: EventStream<Value> { subject.stream }
        func send(_ event: StreamEvent<Value, Never>) { subject.send(event: event) }
    }

    @Test("prefix(while:inclusive:) sends the value that fails the predicate, then the end")
    func inclusivePrefixWhile() {
        let marbles = MarbleTest()
        let input = Input<String>()
        marbles.play("-a-b-c-d|", events: input.send)
        let inclusive = marbles.record(input.stream.prefix(while: { $0 < "c" }, inclusive: true))
        let exclusive = marbles.record(input.stream.prefix(while: { $0 < "c" }))
        let never = marbles.record(input.stream.prefix(while: { $0 < "z" }, inclusive: true))
        marbles.run()
        marbles.expect(inclusive, "-a-b-(c|)")
        marbles.expect(exclusive, "-a-b-|")
        marbles.expect(never, "-a-b-c-d|")
        #expect(input.subject.subscriberCount == 0)
    }

    @Test("collect(count:every:) sends overlapping or spaced windows, and the open ones at the end, oldest first")
    func collectEvery() {
        let marbles = MarbleTest()
        let input = Input<String>()
        marbles.play("-a-b-c-d|", events: input.send)
        let sliding = marbles.record(input.stream.collect(count: 3, every: 1).map { $0.joined() })
        let spaced = marbles.record(input.stream.collect(count: 1, every: 3).map { $0.joined() })
        let overlapping = marbles.record(input.stream.collect(count: 3, every: 2).map { $0.joined() })
        marbles.run()
        marbles.expect(sliding, "-----[abc]-[bcd]([cd][d]|)")
        marbles.expect(spaced, "-a-----d|")
        marbles.expect(overlapping, "-----[abc]--([cd]|)")
    }

    @Test("a sink that sends into collect(count:every:)'s input gets the value after the current window, never nested")
    func collectEveryReentrant() {
        let input = EventSubject<Int>()
        var windows: [[Int]] = []
        let connection = input.stream.collect(count: 2, every: 1).subscribe { window in
            windows.append(window)
            if window == [1, 2] { input.send(10) }
        }
        input.send(1)
        input.send(2)
        input.send(3)
        input.finish()
        #expect(windows == [[1, 2], [2, 10], [10, 3], [3]])
        #expect(!connection.isConnected)
    }

    @Test(
        "timeout(first:) ends only when the first value is late; timeouts with a fallback switch to it, its end included"
    )
    func timeouts() {
        let marbles = MarbleTest()
        let late = Input<String>()
        let input = Input<String>()
        let fallback = Input<String>()
        marbles.play("----a-b|", events: late.send)
        marbles.play("-a-b------c|", events: input.send)
        marbles.play("----w----x-y|", events: fallback.send)
        let scheduler = marbles.scheduler
        let lateFirst = marbles.record(late.stream.timeout(first: .seconds(3), scheduler: scheduler))
        let first = marbles.record(input.stream.timeout(first: .seconds(3), scheduler: scheduler))
        let switched = marbles.record(
            input.stream.timeout(.seconds(3), scheduler: scheduler, switchingTo: fallback.stream))
        let lateSwitched = marbles.record(
            late.stream.timeout(first: .seconds(3), scheduler: scheduler, switchingTo: fallback.stream))
        var inputSubscribers: [Int] = []
        let probes = [5, 7].map { tick in
            scheduler.schedule(
                after: .seconds(tick) + .milliseconds(500),
                isolated: { inputSubscribers.append(input.subject.subscriberCount) })
        }
        marbles.run()
        marbles.expect(lateFirst, "---|")
        marbles.expect(first, "-a-b------c|")
        marbles.expect(switched, "-a-b-----x-y|")
        marbles.expect(lateSwitched, "----w----x-y|")
        // first and switched hold the input at 5; at 7, switched has let go of it.
        #expect(inputSubscribers == [2, 1])
        #expect(late.subject.subscriberCount == 0 && fallback.subject.subscriberCount == 0)
        _ = probes
    }

    @Test(
        "throttle(pause:leading:trailing:) on the trailing edge holds the first value; at the end a held value goes out"
    )
    func trailingThrottle() {
        let marbles = MarbleTest()
        let input = Input<String>()
        marbles.play("-ab--c-----d-|", events: input.send)
        let scheduler = marbles.scheduler
        let pause = Duration.seconds(3)
        let trailing = marbles.record(
            input.stream.throttle(pause: pause, leading: false, trailing: true, scheduler: scheduler))
        let rule = marbles.record(input.stream.paced(.trailingThrottle, pause: pause, scheduler: scheduler))
        let both = marbles.record(
            input.stream.throttle(pause: pause, leading: true, trailing: true, scheduler: scheduler))
        marbles.run()
        // d (at 11) is held when the input ends at 13: it goes out then, before the end.
        marbles.expect(trailing, "----b--c-----(d|)")
        marbles.expect(rule, "----b--c-----(d|)")
        marbles.expect(both, "-a--b--c---d-|")
    }

    @Test(
        "model: random arrivals through the timeouts, their fallbacks and the trailing throttle match references written from the definitions"
    )
    func timedModel() {
        TimedOptionProgram.checkRandomPrograms { program, scheduler, recording in
            let input = EventSubject<Int>()
            let fallback = EventSubject<Int>()
            let interval = program.interval
            let stream = input.stream
            let connections = [
                stream.timeout(interval, scheduler: scheduler).subscribe(recording.record("each")),
                stream.timeout(first: interval, scheduler: scheduler).subscribe(recording.record("first")),
                stream.timeout(interval, scheduler: scheduler, switchingTo: fallback.stream).subscribe(
                    recording.record("eachFallback")),
                stream.timeout(first: interval, scheduler: scheduler, switchingTo: fallback.stream).subscribe(
                    recording.record("firstFallback")),
                stream.throttle(pause: program.pause, leading: false, trailing: true, scheduler: scheduler).subscribe(
                    recording.record("trailing")),
            ]
            return TimedModelRun(
                input: { input.send($0) }, fallback: { fallback.send($0) },
                tearDown: { for connection in connections { connection.disconnect() } },
                released: { input.subscriberCount == 0 && fallback.subscriberCount == 0 && scheduler.pendingCount == 0 }
            )
        }
    }

    @Test("collect(count:every:) with an every of 0, and a throttle on neither edge, are precondition failures")
    func preconditions() async {
        let none = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.collect(count: 0, every: 1)
        }
        expectStandardError(of: none, contains: "Cycle: collect(count:every:) needs a count of at least 1, got 0")
        let every = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.collect(count: 2, every: 0)
        }
        expectStandardError(of: every, contains: "Cycle: collect(count:every:) needs an every of at least 1, got 0")
        let neither = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.throttle(
                pause: .seconds(1), leading: false, trailing: false, scheduler: TestScheduler())
        }
        expectStandardError(of: neither, contains: "a throttle needs its leading or its trailing edge")
    }
}
