import Dispatch
import ReactiveCore
import ReactiveTesting
import Signals
import TestSupport
import Testing

/// A signal of strings played from a marble diagram, as an inline source.
private func playedSignal(_ diagram: String, in test: MarbleTest) -> (Signal<String>, MessageSource<String>) {
    let signal = Signal<String>()
    test.play(diagram, failure: Broken() as any Error, events: signal.send(event:))
    return (signal, signal.fired.noDispatch())
}

@Suite("Signals: the operator options of RxJS's, RxSwift's and ReactiveSwift's suites, as marbles and models")
struct OperatorOptionTests {
    @Test("prefix(while:inclusive:) passes the message that fails the predicate, then the end; a replayed one too")
    func inclusivePrefixWhile() {
        let test = MarbleTest()
        let (signal, source) = playedSignal("-a-b-c-d|", in: test)
        let inclusive = test.record(source.prefix(while: { $0 < "c" }, inclusive: true))
        let exclusive = test.record(source.prefix(while: { $0 < "c" }))
        test.run()
        test.expect(inclusive, "-a-b-(c|)")
        test.expect(exclusive, "-a-b-|")
        #expect(signal.fired.connectedCount == 0)

        // A property whose value already fails the predicate: the replay passes it, then the end.
        let level = Property(value: 5)
        let log = Log<Int>()
        let observables = ObservableCollection()
        level.didSet.noDispatch().map { $0 * 10 }.prefix(while: { $0 < 30 }, inclusive: true)
            .then { log.append($0) }.append(to: observables)
        level.value = 1
        #expect(log.all == [50])
        #expect(level.didSet.connectedCount == 0)
    }

    @Test(
        "collect(count:every:) sends overlapping or spaced windows, the open ones at the finish; a failure drops them")
    func collectEvery() {
        let test = MarbleTest()
        let (_, source) = playedSignal("-a-b-c-d|", in: test)
        let (_, failing) = playedSignal("-a-b-c-#", in: test)
        let sliding = test.record(source.collect(count: 3, every: 1).map { $0.joined() })
        let spaced = test.record(source.collect(count: 1, every: 3).map { $0.joined() })
        let failed = test.record(failing.collect(count: 2, every: 1).map { $0.joined() })
        test.run()
        test.expect(sliding, "-----[abc]-[bcd]([cd][d]|)")
        test.expect(spaced, "-a-----d|")
        test.expect(failed, "---[ab]-[bc]-#")
    }

    @Test("a handler that fires collect(count:every:)'s input gets the message after the current window, never nested")
    func collectEveryReentrant() {
        let signal = Signal<Int>()
        let log = Log<[Int]>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().collect(count: 2, every: 1).then { window in
            log.append(window)
            if window == [1, 2] { signal.fire(with: 10) }
        }.append(to: observables)
        for value in [1, 2, 3] { signal.fire(with: value) }
        #expect(log.all == [[1, 2], [2, 10], [10, 3]])
        observables.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("timeout(first:) ends only when the first message is late; customError makes it fail")
    func timeoutFirst() {
        let test = MarbleTest()
        let (late, lateSource) = playedSignal("----a-b|", in: test)
        let (_, early) = playedSignal("-a-------b|", in: test)
        let lateFirst = test.record(lateSource.timeout(first: .seconds(3), scheduler: test.scheduler))
        let lateFailed = test.record(
            lateSource.timeout(first: .seconds(3), scheduler: test.scheduler, customError: { Broken(code: 9) }))
        let earlyFirst = test.record(early.timeout(first: .seconds(3), scheduler: test.scheduler))
        let earlyEach = test.record(early.timeout(.seconds(3), scheduler: test.scheduler))
        test.run()
        test.expect(lateFirst, "---|")
        test.expect(lateFailed, "---#")
        test.expect(earlyFirst, "-a-------b|")
        test.expect(earlyEach, "-a--|")
        #expect(late.fired.connectedCount == 0)
    }

    @Test("a timeout with a fallback lets go of its source at the deadline and passes the fallback's messages and end")
    func timeoutFallback() {
        let test = MarbleTest()
        let (signal, source) = playedSignal("-a-b------c|", in: test)
        let (fallbackSignal, fallback) = playedSignal("----w----x-y|", in: test)
        let switched = test.record(source.timeout(.seconds(3), scheduler: test.scheduler, switchingTo: fallback))
        let firstOnly = test.record(
            source.timeout(first: .seconds(3), scheduler: test.scheduler, switchingTo: fallback))
        let at = test.record(
            source.map { $0.uppercased() }.timeout(
                first: .milliseconds(500), scheduler: test.scheduler, switchingTo: fallback))
        let counts = Log<Int>()
        let probes = [5, 7].map { tick in
            test.scheduler.schedule(after: .seconds(tick) + .milliseconds(500)) {
                counts.append(signal.fired.connectedCount)
            }
        }
        test.run()
        // The fallback's last message (w, at 4) is handed over as it connects, at 6.
        test.expect(switched, "-a-b--w--x-y|")
        test.expect(firstOnly, "-a-b------c|")
        test.expect(at, "----w----x-y|")
        // At 5 the first two hold the source (the third let go of its map at once); at 7 the
        // first has let go of it too.
        #expect(counts.all == [2, 1])
        #expect(signal.fired.connectedCount == 0 && fallbackSignal.fired.connectedCount == 0)
        _ = probes
    }

    @Test("a fallback with a last message replays it as it connects; removing the chain then frees every core")
    func fallbackReplayAndRemoval() {
        let scheduler = TestScheduler()
        let signal = Signal<Int>()
        let fallback = Property(value: 7)
        let log = Log<Int>()
        let observables = ObservableCollection()
        weak var weakChain: StreamModifier<Int, Int>?
        do {
            let chain = signal.fired.noDispatch().map { $0 + 1 }
                .timeout(.seconds(1), scheduler: scheduler, switchingTo: fallback.didSet.noDispatch())
            weakChain = chain
            chain.then { log.append($0) }.append(to: observables)
        }
        signal.fire(with: 1)
        scheduler.advance(by: .seconds(2))
        #expect(signal.fired.connectedCount == 0, "the switch let go of the source and of the map before it")
        signal.fire(with: 2)
        fallback.value = 8
        #expect(log.all == [2, 7, 8])
        observables.removeAll()
        #expect(weakChain == nil)
        #expect(fallback.didSet.connectedCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(
        "under sends from other threads, a timeout that switches passes nothing of its source after the fallback's first message, and a chain removed during the switch leaves nothing connected"
    )
    func concurrentTimeoutSwitch() async {
        for round in 0..<40 {
            let scheduler = TestScheduler()
            let source = Signal<Int>()
            let fallback = Signal<Int>()
            // The source's messages are positive, the fallback's negative.
            let log = Log<Int>()
            let observables = ObservableCollection()
            let sending = source.fired.noDispatch()
            let eachMessage = round.isMultiple(of: 2)
            let chain =
                eachMessage
                ? sending.timeout(.seconds(1), scheduler: scheduler, switchingTo: fallback.fired.noDispatch())
                : sending.timeout(first: .seconds(1), scheduler: scheduler, switchingTo: fallback.fired.noDispatch())
            chain.then { log.append($0) }.append(to: observables)
            // The source and the fallback send as the deadline passes on another thread; half
            // the rounds remove the chain meanwhile from a fourth. Each sender sends a bounded
            // number, so that no thread spins beside the rest of the suite.
            let count = 500
            let removesDuringSwitch = round % 4 >= 2
            await runOnThreadsOfTheirOwn(
                [
                    { for value in 1...count { source.fire(with: value) } },
                    { for value in 1...count { fallback.fire(with: -value) } },
                    { scheduler.advance(by: .seconds(2)) },
                ] + (removesDuringSwitch ? [{ observables.removeAll() }] : []))
            // With the source quiet, a deadline re-armed by its last messages passes too.
            scheduler.advance(by: .seconds(2))
            let switched = fallback.fired.connectedCount == 1
            if !removesDuringSwitch {
                // A timeout on every message switches once the source is quiet; one on the
                // first message only if the deadline beat the source's first message.
                if eachMessage { #expect(switched) }
                #expect(source.fired.connectedCount == (switched ? 0 : 1), "the switch let go of the source")
                fallback.fire(with: -(count + 1))
                source.fire(with: count + 1)
                #expect(log.all.last == (switched ? -(count + 1) : count + 1))
            }
            let seen = log.all
            let fromSource = seen.filter { $0 > 0 }
            let fromFallback = seen.filter { $0 < 0 }
            // Each stream in its order; nothing of the source after the fallback's first.
            #expect(zip(fromSource, fromSource.dropFirst()).allSatisfy { $0 < $1 })
            #expect(zip(fromFallback, fromFallback.dropFirst()).allSatisfy { $0 > $1 })
            if let first = seen.firstIndex(where: { $0 < 0 }) { #expect(seen[first...].allSatisfy { $0 < 0 }) }
            observables.removeAll()
            #expect(source.fired.connectedCount == 0)
            #expect(fallback.fired.connectedCount == 0)
            #expect(scheduler.pendingCount == 0)
        }
    }

    @Test(
        "throttle(pause:leading:trailing:) on the trailing edge holds the first message; the finish sends what is held")
    func trailingThrottle() {
        let test = MarbleTest()
        let (_, source) = playedSignal("-ab--c-----d-|", in: test)
        let pause = Duration.seconds(3)
        let trailing = test.record(
            source.throttle(pause: pause, leading: false, trailing: true, scheduler: test.scheduler))
        let both = test.record(source.throttle(pause: pause, leading: true, trailing: true, scheduler: test.scheduler))
        let leading = test.record(
            source.throttle(pause: pause, leading: true, trailing: false, scheduler: test.scheduler))
        test.run()
        test.expect(trailing, "----b--c-----(d|)")
        test.expect(both, "-a--b--c---d-|")
        test.expect(leading, "-a---c-----d-|")
    }

    @Test(
        "model: random arrivals through the timeouts, their fallbacks and the trailing throttle match references written from the definitions"
    )
    func timedModel() {
        // A Signal hands a chain that connects its last message: the fallback's, at the switch.
        TimedOptionProgram.checkRandomPrograms(fallbackReplaysLast: true) { program, scheduler, recording in
            let input = Signal<Int>()
            let fallback = Signal<Int>()
            let observables = ObservableCollection()
            func record(_ name: String, _ chain: MessageSource<Int>) {
                chain.then(do: recording.record(name)).append(to: observables)
            }
            let interval = program.interval
            let source = input.fired.noDispatch()
            let other = fallback.fired.noDispatch()
            record("each", source.timeout(interval, scheduler: scheduler))
            record("first", source.timeout(first: interval, scheduler: scheduler))
            record("eachFallback", source.timeout(interval, scheduler: scheduler, switchingTo: other))
            record("firstFallback", source.timeout(first: interval, scheduler: scheduler, switchingTo: other))
            record(
                "trailing", source.throttle(pause: program.pause, leading: false, trailing: true, scheduler: scheduler))
            return TimedModelRun(
                input: { input.fire(with: $0) }, fallback: { fallback.fire(with: $0) },
                tearDown: { observables.removeAll() },
                released: { input.fired.connectedCount == 0 && fallback.fired.connectedCount == 0 })
        }
    }

    @Test("collect(count:every:) with an every of 0, and a throttle on neither edge, are precondition failures")
    func preconditions() async {
        let every = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.collect(count: 2, every: 0)
        }
        expectStandardError(of: every, contains: "collect(count:every:) needs an every of at least 1, got 0")
        let neither = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.throttle(pause: .seconds(1), leading: false, trailing: false)
        }
        expectStandardError(of: neither, contains: "a throttle needs its leading or its trailing edge")
        let negative = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.throttle(pause: .seconds(-1), leading: true, trailing: true)
        }
        expectStandardError(
            of: negative, contains: "throttle(pause:leading:trailing:) needs a pause of zero or more, got")
    }
}
