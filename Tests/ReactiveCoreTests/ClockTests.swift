import TestSupport
import Testing

@testable import ReactiveCore

@Suite("Clocks")
struct ClockTests {
    @Test("a TestScheduler is a Clock: a sleep ends when an advance reaches its deadline")
    func testSchedulerSleeps() async throws {
        let scheduler = TestScheduler()
        let log = Log<SchedulerInstant>()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            log.append(scheduler.now)
        }
        #expect(await eventually { scheduler.pendingCount == 1 })
        await scheduler.advanceTasks(by: .milliseconds(999))
        #expect(log.all.isEmpty)
        #expect(scheduler.pendingCount == 1)
        await scheduler.advanceTasks(by: .milliseconds(1))
        try await task.value
        #expect(log.all == [.zero + .seconds(1)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a task that sleeps in a loop wakes at each deadline within one advanceTasks")
    func loopOfSleeps() async throws {
        let scheduler = TestScheduler()
        let log = Log<SchedulerInstant>()
        let task = Task {
            for _ in 0..<3 {
                try await scheduler.sleep(for: .seconds(1))
                log.append(scheduler.now)
            }
        }
        #expect(await eventually { scheduler.pendingCount == 1 })
        await scheduler.advanceTasks(by: .seconds(3))
        try await task.value
        #expect(log.all == [1, 2, 3].map { .zero + .seconds($0) })
        #expect(scheduler.now == .zero + .seconds(3))
    }

    @Test("advanceTasks waits for a woken task to resume, however long its executor holds it back")
    func advanceTasksWaitsForResumption() async {
        let scheduler = TestScheduler()
        let executor = QueueExecutor("ClockTests.sleeper")
        let log = Log<SchedulerInstant>()
        let task = Task(executorPreference: executor) {
            for _ in 0..<3 {
                try await scheduler.sleep(for: .seconds(1))
                log.append(scheduler.now)
            }
        }
        #expect(await eventually { scheduler.pendingCount == 1 })
        // The sleeper's queue is blocked until another executor has yielded far more often
        // than advanceTasks does after an instant (100 times).
        let gate = executor.hold()
        let opening = Task(executorPreference: QueueExecutor("ClockTests.opener")) {
            await yieldTimes(10_000)
            gate.open()
        }
        await scheduler.advanceTasks(by: .seconds(3))
        let woke = log.all
        #expect(woke == [1, 2, 3].map { .zero + .seconds($0) })
        if woke.count < 3 { task.cancel() }
        _ = await task.result
        await opening.value
        #expect(scheduler.wokenSleeperCount == 0)
    }

    @Test("tasks woken together at one instant have all resumed, and slept again, before time moves on")
    func advanceTasksManySleepers() async {
        let scheduler = TestScheduler()
        let log = Log<Int>()
        let tasks = (0..<20).map { index in
            Task {
                for _ in 0..<2 {
                    try await scheduler.sleep(for: .seconds(1))
                    log.append(index)
                }
            }
        }
        #expect(await eventually { scheduler.pendingCount == 20 })
        await scheduler.advanceTasks(by: .seconds(2))
        let woke = log.all
        #expect(woke.count == 40)
        #expect(Set(woke) == Set(0..<20))
        if woke.count < 40 { tasks.forEach { $0.cancel() } }
        for task in tasks { _ = await task.result }
        #expect(scheduler.wokenSleeperCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(
        "sleeps cancelled from another thread while an advance wakes them: each ends once, and the count of woken sleeps returns to zero"
    )
    func advanceTasksRacingCancellation() async {
        let scheduler = TestScheduler()
        let tasks = (0..<50).map { _ in Task { try await scheduler.sleep(for: .seconds(1)) } }
        #expect(await eventually { scheduler.pendingCount == 50 })
        let cancelling = Task.detached { for task in tasks.reversed() { task.cancel() } }
        await scheduler.advanceTasks(by: .seconds(1))
        await cancelling.value
        var woken = 0
        var cancelled = 0
        for task in tasks {
            switch await task.result {
            case .success: woken += 1
            case .failure(let error): if error is CancellationError { cancelled += 1 }
            }
        }
        #expect(woken + cancelled == 50)
        #expect(scheduler.wokenSleeperCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a wait bound gives up only past both its yields and its time: yields alone, time alone, neither")
    func waitBound() {
        var yieldsOnly = WaitBound(yields: 3, duration: .zero)
        let allowed = (0..<5).map { _ in yieldsOnly.allowsYield() }
        #expect(allowed == [true, true, true, false, false])
        #expect(yieldsOnly.yielded == 3)
        // Past its yields, a bound whose minute has not passed still allows yields.
        var timeLeft = WaitBound(yields: 0, duration: .seconds(60))
        let allowedForTime = (0..<1_000).map { _ in timeLeft.allowsYield() }
        #expect(allowedForTime.allSatisfy { $0 })
        #expect(timeLeft.yielded == 1_000)
        var none = WaitBound(yields: 0, duration: .zero)
        let allowedNone = none.allowsYield()
        #expect(!allowedNone)
        #expect(none.yielded == 0)
    }

    @Test("cancelling a sleeping task throws CancellationError and cancels its wake-up")
    func cancelSleep() async {
        let scheduler = TestScheduler()
        let task = Task { try await scheduler.sleep(for: .seconds(1)) }
        #expect(await eventually { scheduler.pendingCount == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(2))
    }

    @Test("a task cancelled before it sleeps throws at once and schedules nothing")
    func cancelledBeforeSleeping() async {
        let scheduler = TestScheduler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scheduler.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a deadline that is not in the future returns at once (no-op)")
    func pastDeadline() async throws {
        let scheduler = TestScheduler(now: .zero + .seconds(5))
        try await scheduler.sleep(until: .zero + .seconds(5))
        try await scheduler.sleep(for: .zero)
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .zero + .seconds(5))
    }

    @Test("any scheduler's clock reads its time and sleeps on its work")
    func schedulerClock() async throws {
        let scheduler = TestScheduler()
        let clock: any Clock<Duration> = scheduler.clock
        let log = Log<String>()
        let task = Task {
            try await clock.sleep(for: .seconds(2))
            log.append("woke")
        }
        #expect(await eventually { scheduler.pendingCount == 1 })
        await scheduler.advanceTasks(by: .seconds(1))
        #expect(log.all.isEmpty)
        await scheduler.advanceTasks(by: .seconds(1))
        try await task.value
        #expect(log.all == ["woke"])
        #expect(scheduler.clock.now == scheduler.now)
        #expect(scheduler.clock.minimumResolution == .nanoseconds(1))
    }

    @Test("a ClockScheduler runs work in order of instant, FIFO at one instant, on virtual time")
    func clockSchedulerOrder() async {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock: clock)
        let log = Log<String>()
        let connections = [
            scheduler.schedule(after: .seconds(2)) { log.append("c") },
            scheduler.schedule(after: .seconds(1)) { log.append("a") },
            scheduler.schedule(after: .seconds(1)) { log.append("b") },
        ]
        // The scheduler's task sleeps until the earliest work (perhaps after a first sleep
        // until 2 s, woken early).
        #expect(await eventually { clock.nextInstant == .zero + .seconds(1) })
        await clock.advanceTasks(by: .seconds(1))
        #expect(await eventually { log.all == ["a", "b"] })
        #expect(scheduler.now == .zero + .seconds(1))
        await clock.advanceTasks(by: .seconds(1))
        #expect(await eventually { log.all == ["a", "b", "c"] })
        #expect(connections.count == 3)
    }

    @Test("work scheduled earlier than the ClockScheduler's current sleep wakes it early")
    func clockSchedulerEarlierWork() async {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock: clock)
        let log = Log<SchedulerInstant>()
        let late = scheduler.schedule(after: .seconds(10)) { log.append(scheduler.now) }
        #expect(await eventually { clock.pendingCount == 1 })
        let early = scheduler.schedule(after: .seconds(1)) { log.append(scheduler.now) }
        await clock.advanceTasks(by: .seconds(1))
        #expect(await eventually { log.all == [.zero + .seconds(1)] })
        await clock.advanceTasks(by: .seconds(9))
        #expect(await eventually { log.all.count == 2 })
        #expect(log.all.last == .zero + .seconds(10))
        #expect([late, early].count == 2)
    }

    @Test("cancelled ClockScheduler work does not run; the rest does")
    func clockSchedulerCancel() async {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock: clock)
        let log = Log<String>()
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.append("cancelled") }
        let kept = scheduler.schedule(after: .seconds(2)) { log.append("kept") }
        cancelled.disconnect()
        #expect(await eventually { clock.pendingCount == 1 })
        await clock.advanceTasks(by: .seconds(2))
        #expect(await eventually { log.all == ["kept"] })
        #expect(kept.isConnected)
    }

    @Test("ClockScheduler work scheduled from its own work runs, in order")
    func clockSchedulerReentrant() async {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock: clock)
        let log = Log<String>()
        let keep = Log<Connection>()
        keep.append(
            scheduler.schedule(after: .seconds(1)) {
                log.append("first")
                keep.append(scheduler.schedule(after: .zero) { log.append("now") })
                keep.append(scheduler.schedule(after: .seconds(1)) { log.append("later") })
            })
        await clock.advanceTasks(by: .seconds(1))
        #expect(await eventually { log.all == ["first", "now"] })
        await clock.advanceTasks(by: .seconds(1))
        #expect(await eventually { log.all == ["first", "now", "later"] })
    }

    @Test("a ClockScheduler on a real clock runs work that is due")
    func clockSchedulerContinuous() async {
        let scheduler = ClockScheduler(clock: ContinuousClock())
        #expect(scheduler.now >= .zero)
        let keep = Log<Connection>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            keep.append(scheduler.schedule(after: .zero) { continuation.resume() })
        }
        #expect(keep.all.count == 1)
    }

    @Test("advanceTasks(by:) with a negative duration is a precondition failure")
    func advanceTasksBackwards() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await TestScheduler().advanceTasks(by: .seconds(-1))
        }
        expectStandardError(of: result, contains: "TestScheduler.advanceTasks(by:) cannot move time backwards")
    }

    @Test("sleepingCount counts sleeps from their start until an advance or a cancellation ends them")
    func sleepingCount() async throws {
        let scheduler = TestScheduler()
        #expect(scheduler.sleepingCount == 0)
        #expect(await scheduler.waitForSleepers(0))
        let first = Task { try await scheduler.sleep(for: .seconds(1)) }
        let second = Task { try await scheduler.sleep(for: .seconds(2)) }
        #expect(await scheduler.waitForSleepers(2))
        #expect(scheduler.sleepingCount == 2)
        await scheduler.advanceTasks(by: .seconds(1))
        try await first.value
        #expect(scheduler.sleepingCount == 1)
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(scheduler.sleepingCount == 0)
        #expect(scheduler.pendingCount == 0)
        // A sleep whose deadline has passed, or a task cancelled before it sleeps, never counts.
        try await scheduler.sleep(until: scheduler.now)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scheduler.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(scheduler.sleepingCount == 0)
    }

    @Test("a task that sleeps again from its wake-up is counted again: a loop of sleeps")
    func sleepingCountReentrant() async throws {
        let scheduler = TestScheduler()
        let task = Task {
            for _ in 0..<2 { try await scheduler.sleep(for: .seconds(1)) }
        }
        #expect(await scheduler.waitForSleepers(1))
        await scheduler.advanceTasks(by: .seconds(1))
        #expect(await scheduler.waitForSleepers(1))
        #expect(scheduler.sleepingCount == 1)
        await scheduler.advanceTasks(by: .seconds(1))
        try await task.value
        #expect(scheduler.sleepingCount == 0)
    }

    @Test("waitForSleepers gives up, returning false, when no task sleeps within its bound")
    func waitForSleepersGivesUp() async {
        let scheduler = TestScheduler()
        #expect(await scheduler.waitForSleepers(1, timeout: .zero) == false)
    }

    @Test("many tasks sleeping and cancelled from several threads leave the count at zero")
    func sleepingCountConcurrent() async {
        let scheduler = TestScheduler()
        let tasks = (0..<200).map { index in
            Task.detached { try await scheduler.sleep(for: .seconds(Double(index % 7 + 1))) }
        }
        #expect(await scheduler.waitForSleepers(200))
        for (index, task) in tasks.enumerated() where index % 2 == 0 { task.cancel() }
        await scheduler.advanceTasks(by: .seconds(8))
        for task in tasks { _ = try? await task.value }
        #expect(scheduler.sleepingCount == 0)
    }

    @Test("waitForSleepers with a negative count is a precondition failure")
    func negativeSleeperCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await TestScheduler().waitForSleepers(-1)
        }
        expectStandardError(of: result, contains: "TestScheduler.waitForSleepers(_:) needs a count of zero or more")
    }
}
