import ReactiveCore
import TestSupport
import Testing

/// Drives a pacer on virtual time: each arrival advances the scheduler to its instant (which
/// runs the timers due by then), then sends. Returns what passed, with the instants.
@MainActor
private func run(
    _ rule: PacingRule, pause: Int, arrivals: [(time: Int, value: Int)], cancels: Set<Int> = []
) -> [Passed] {
    let scheduler = TestScheduler()
    var passed: [Passed] = []
    let pacer = Pacer<Int>(rule, pause: .seconds(pause), scheduler: scheduler) { value in
        passed.append(Passed(time: seconds(scheduler.now), value: value))
    }
    for (index, arrival) in arrivals.enumerated() {
        scheduler.advance(to: .zero + .seconds(arrival.time))
        if cancels.contains(index) { pacer.cancel() }
        pacer.send(arrival.value)
    }
    scheduler.advance(by: .seconds(3 * pause + 1))
    return passed
}

private typealias Passed = TimedPassage

private func seconds(_ instant: SchedulerInstant) -> Int {
    Int(instant.offset.components.seconds)
}

private func reference(
    _ rule: PacingRule, pause: Int, arrivals: [(time: Int, value: Int)], cancels: Set<Int> = []
) -> [Passed] {
    pacingReference(rule, pause: pause, arrivals: arrivals, cancels: cancels)
}

@Suite("Pacing: throttle and debounce")
@MainActor
struct PacingTests {
    static let example: [(time: Int, value: Int)] = [(0, 1), (1, 2), (2, 3), (6, 4), (8, 5)]

    @Test("the documented timeline: values at 0, 1, 2, 6, 8 with a pause of 3")
    func documentedTimeline() {
        #expect(run(.leadingThrottle, pause: 3, arrivals: Self.example).description == "[1@0, 4@6]")
        #expect(
            run(.throttle(latest: true), pause: 3, arrivals: Self.example).description == "[1@0, 3@3, 4@6, 5@9]")
        #expect(
            run(.throttle(latest: false), pause: 3, arrivals: Self.example).description == "[1@0, 2@3, 4@6, 5@9]")
        #expect(run(.trailingThrottle, pause: 3, arrivals: Self.example).description == "[3@3, 5@9]")
        #expect(run(.debounce, pause: 3, arrivals: Self.example).description == "[3@5, 5@11]")
    }

    @Test("RxJS's leading and trailing edges name the three throttles")
    func edges() {
        #expect(PacingRule.throttle(leading: true, trailing: false) == .leadingThrottle)
        #expect(PacingRule.throttle(leading: true, trailing: true) == .throttle(latest: true))
        #expect(PacingRule.throttle(leading: false, trailing: true) == .trailingThrottle)
    }

    @Test(
        "model: random arrivals and cancellations against the rules written from their definitions",
        arguments: [
            PacingRule.leadingThrottle, .throttle(latest: true), .throttle(latest: false), .trailingThrottle, .debounce,
        ])
    func model(rule: PacingRule) {
        for seed in 0..<200 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            let pause = Int.random(in: 0..<4, using: &random)
            var time = 0
            var arrivals: [(time: Int, value: Int)] = []
            for value in 0..<Int.random(in: 0..<12, using: &random) {
                time += Int.random(in: 0..<5, using: &random)
                arrivals.append((time, value))
            }
            var cancels: Set<Int> = []
            for index in arrivals.indices where Int.random(in: 0..<6, using: &random) == 0 { cancels.insert(index) }
            let got = run(rule, pause: pause, arrivals: arrivals, cancels: cancels)
            let want = reference(rule, pause: pause, arrivals: arrivals, cancels: cancels)
            #expect(got == want, "seed \(seed), pause \(pause), arrivals \(arrivals), cancels \(cancels.sorted())")
            if got != want { return }
        }
    }

    @Test("a debounce cancelled drops the value it held; the next value waits a whole pause")
    func debounceCancel() {
        let scheduler = TestScheduler()
        var passed: [Int] = []
        let pacer = Pacer<Int>(.debounce, pause: .seconds(2), scheduler: scheduler) { passed.append($0) }
        pacer.send(1)
        scheduler.advance(by: .seconds(1))
        pacer.cancel()
        #expect(!pacer.isPacing)
        scheduler.advance(by: .seconds(5))
        #expect(passed.isEmpty)
        pacer.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(passed.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(passed == [2])
    }

    @Test("a debounce keeps one timer for a burst and passes the last value a pause after it")
    func debounceBurst() {
        let scheduler = TestScheduler()
        var passed: [(Int, Int)] = []
        let pacer = Pacer<Int>(.debounce, pause: .seconds(3), scheduler: scheduler) {
            passed.append(($0, seconds(scheduler.now)))
        }
        for value in 0..<5 {
            pacer.send(value)
            #expect(scheduler.pendingCount == 1)
            scheduler.advance(by: .seconds(1))
        }
        scheduler.advance(by: .seconds(10))
        #expect(passed.map(\.0) == [4] && passed.map(\.1) == [7])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a value sent from the output is paced like any other")
    func reentrantSend() {
        let scheduler = TestScheduler()
        var passed: [Int] = []
        var pacer: Pacer<Int>?
        pacer = Pacer<Int>(.throttle(latest: true), pause: .seconds(1), scheduler: scheduler) { value in
            passed.append(value)
            // Each value passed sends its successor, up to 3: held during the pause it started.
            if value < 3 { pacer?.send(value + 1) }
        }
        pacer?.send(0)
        #expect(passed == [0])
        scheduler.advance(by: .seconds(1))
        #expect(passed == [0, 1])
        scheduler.advance(by: .seconds(2))
        #expect(passed == [0, 1, 2, 3])
        #expect(pacer?.isPacing == true)
        scheduler.advance(by: .seconds(1))
        #expect(pacer?.isPacing == false)
        pacer = nil
    }

    @Test("a released pacer cancels its timer and is freed; the held value never passes")
    func release() {
        let scheduler = TestScheduler()
        var passed: [Int] = []
        var pacer: Pacer<Int>? = Pacer(.throttle(latest: true), pause: .seconds(1), scheduler: scheduler) {
            passed.append($0)
        }
        weak let weakPacer = pacer
        pacer?.send(1)
        pacer?.send(2)
        #expect(scheduler.pendingCount == 1)
        pacer = nil
        #expect(weakPacer == nil)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(passed == [1])
    }

    @Test("a timer that fires after it was replaced or cancelled does nothing")
    func staleTimer() {
        var machine = PacingStateMachine<Int>(.throttle(latest: true), pause: .seconds(1))
        guard case .pass(1, let first?) = machine.receive(1, at: .zero) else {
            Issue.record("the first value did not pass with a timer")
            return
        }
        _ = machine.receive(2, at: .zero)
        let hadTimer = machine.cancel()
        #expect(hadTimer)
        guard case .none = machine.timerFired(first, at: first.deadline) else {
            Issue.record("a cancelled timer acted")
            return
        }
        guard case .pass(3, let second?) = machine.receive(3, at: first.deadline) else {
            Issue.record("after a cancel, a value did not pass at once")
            return
        }
        #expect(second.deadline == first.deadline + .seconds(1))
        let stillHadTimer = machine.cancel()
        #expect(stillHadTimer)
    }

    @Test("a stale timer that fires during a newer pause or wait neither passes the held value nor ends it early")
    func staleTimerDuringNewerPause() {
        let half = SchedulerInstant.zero + .milliseconds(500)
        var throttle = PacingStateMachine<Int>(.throttle(latest: true), pause: .seconds(1))
        guard case .pass(1, let stale?) = throttle.receive(1, at: .zero) else {
            Issue.record("the first value did not pass with a timer")
            return
        }
        throttle.cancel()
        guard case .pass(2, let current?) = throttle.receive(2, at: half) else {
            Issue.record("after a cancel, a value did not pass at once")
            return
        }
        _ = throttle.receive(3, at: half)
        guard case .none = throttle.timerFired(stale, at: stale.deadline) else {
            Issue.record("the stale throttle timer acted during the newer pause")
            return
        }
        #expect(throttle.held == 3)
        guard case .pass(3, _) = throttle.timerFired(current, at: current.deadline) else {
            Issue.record("the current timer did not pass the held value")
            return
        }

        var debounce = PacingStateMachine<Int>(.debounce, pause: .seconds(1))
        guard case .startTimer(let old) = debounce.receive(1, at: .zero) else {
            Issue.record("a debounce did not start a timer")
            return
        }
        debounce.cancel()
        guard case .startTimer(let new) = debounce.receive(2, at: half) else {
            Issue.record("a debounce did not start a timer after a cancel")
            return
        }
        guard case .none = debounce.timerFired(old, at: old.deadline) else {
            Issue.record("the stale debounce timer acted during the newer wait")
            return
        }
        guard case .pass(2, nil) = debounce.timerFired(new, at: new.deadline) else {
            Issue.record("the current debounce timer did not pass the value")
            return
        }
    }

    @Test("a throttle with a zero pause passes every value at once; a debounce coalesces until its timer runs")
    func zeroPause() {
        let scheduler = TestScheduler()
        var throttled: [Int] = []
        var debounced: [Int] = []
        let throttle = Pacer<Int>(.throttle(latest: true), pause: .zero, scheduler: scheduler) { throttled.append($0) }
        let debounce = Pacer<Int>(.debounce, pause: .zero, scheduler: scheduler) { debounced.append($0) }
        for value in 1...3 {
            throttle.send(value)
            debounce.send(value)
        }
        #expect(throttled == [1, 2, 3])
        #expect(debounced.isEmpty)
        scheduler.advance()
        #expect(debounced == [3])
    }

    @Test("no-ops: cancelling an idle pacer changes nothing; equal values are paced like any others")
    func noOps() {
        let scheduler = TestScheduler()
        var passed: [Int] = []
        let pacer = Pacer<Int>(.throttle(latest: true), pause: .seconds(1), scheduler: scheduler) { passed.append($0) }
        pacer.cancel()
        #expect(!pacer.isPacing && scheduler.pendingCount == 0)
        // The machine never compares values: a repeat is held and passes like a new one.
        pacer.send(7)
        pacer.send(7)
        scheduler.advance(by: .seconds(1))
        #expect(passed == [7, 7])
        scheduler.advance(by: .seconds(1))
        #expect(!pacer.isPacing && scheduler.pendingCount == 0)
        pacer.cancel()
        pacer.send(8)
        #expect(passed == [7, 7, 8])
    }

    @Test("a negative pause is a precondition failure")
    func negativePause() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PacingStateMachine<Int>(.debounce, pause: .seconds(-1))
        }
        expectStandardError(of: result, contains: "PacingStateMachine needs a pause of zero or more")
    }
}
