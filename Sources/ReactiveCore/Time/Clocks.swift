/// A `Clock` that reads and sleeps on a ``Scheduler``: the way from the package's schedulers
/// to Swift concurrency.
///
/// Code written against `any Clock<Duration>` (an effect that debounces with
/// `clock.sleep(for:)`, a driver that polls) runs on real time with a
/// ``DispatchScheduler``'s clock and on virtual time with a ``TestScheduler``, which is a
/// `Clock` itself:
///
/// ```swift
/// func poll(clock: some Clock<Duration>) async throws {
///     while true {
///         try await clock.sleep(for: .seconds(5))
///         refresh()
///     }
/// }
/// try await poll(clock: DispatchScheduler(queue: .global()).clock)
/// ```
///
/// ## Sleeping
///
/// A sleep schedules its wake-up on the scheduler at the deadline and suspends; the
/// scheduler resumes it when the deadline's work runs (for a ``TestScheduler``, during an
/// advance). A deadline that is not in the future returns at once. Cancelling the sleeping
/// task cancels the scheduled work and throws `CancellationError`, as `Task.sleep` does;
/// a task already cancelled throws before scheduling anything. `tolerance` is ignored: the
/// scheduler runs work at its instant.
public struct SchedulerClock<Base: Scheduler>: Clock {
    /// The scheduler this clock reads and sleeps on.
    public let scheduler: Base

    /// A clock on `scheduler`'s time.
    public init(_ scheduler: Base) {
        self.scheduler = scheduler
    }

    /// The scheduler's current time.
    public var now: SchedulerInstant { scheduler.now }

    /// The smallest step the clock resolves: one nanosecond, the package's unit of time.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the scheduler reaches `deadline`, or throws `CancellationError` if the
    /// task is cancelled first.
    public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
        try await sleepOnScheduler(scheduler, until: deadline)
    }
}

extension Scheduler {
    /// This scheduler as a Swift `Clock`: `now` is the scheduler's time and sleeping waits
    /// for work scheduled at the deadline. See ``SchedulerClock``.
    public var clock: SchedulerClock<Self> { SchedulerClock(self) }
}

/// A ``TestScheduler`` is a `Clock` on its own virtual time, so code that sleeps on an
/// injected `some Clock<Duration>` can be tested without waiting.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let task = Task { try await scheduler.sleep(for: .seconds(1)); print("woke") }
/// await scheduler.waitForSleepers(1)              // the task sleeps
/// await scheduler.advanceTasks(by: .seconds(1))   // prints "woke", at once
/// ```
///
/// A sleep counts in ``sleepingCount`` from when it begins until an advance or a
/// cancellation ends it. It schedules its wake-up like any other work (it counts in ``pendingCount`` and
/// runs in order with other work due at the same instant) and resumes when an advance
/// reaches it. Because the sleeping task resumes on its own executor, use
/// ``advanceTasks(by:maximumYields:)`` rather than ``advance(by:)`` when tasks sleep on the
/// scheduler: it lets them run between steps. The rules of ``SchedulerClock`` apply.
extension TestScheduler: Clock {
    /// The scheduler's virtual instants.
    public typealias Instant = SchedulerInstant

    /// The smallest step the clock resolves: one nanosecond, the package's unit of time.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until an advance reaches `deadline`, or throws `CancellationError` if the
    /// task is cancelled first.
    public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
        try await sleepOnScheduler(self, until: deadline)
    }

    /// Moves time forward by `duration` like ``advance(by:)``, letting tasks that sleep on
    /// the scheduler (or wait on work it runs) take their turn between steps.
    ///
    /// Before moving time, and again after each instant at which work ran, the caller
    /// waits for other tasks, so that a task woken at one instant can schedule its next
    /// sleep before time moves past it:
    ///
    /// - Before moving time, the wait ends as soon as work is scheduled (a task that is
    ///   about to sleep has done so) or after `maximumYields` yields. To be sure a task has
    ///   started its sleep, call ``waitForSleepers(_:timeout:isolation:)`` first.
    /// - After an instant, the wait lasts until every task whose sleep on this scheduler
    ///   ended at that instant has resumed (suspended until they have; in case a task's
    ///   executor never runs it, not past a minute on the real clock and 100,000 yields
    ///   after it). It then lasts until as many tasks sleep on the scheduler as before the
    ///   instant (the woken tasks slept again), suspended until they do; a woken task that
    ///   ends, or waits on something else, ends this wait after 50 milliseconds on the real
    ///   clock and `maximumYields` yields.
    ///
    /// The waits never sleep and never spin while what they wait for is on its way: they end
    /// as soon as it has come, so a task that sleeps in a loop costs no real time. The 50
    /// milliseconds bound only what a woken task that does not sleep again costs.
    ///
    /// - Precondition: `duration` is not negative; no other advance is under way.
    public func advanceTasks(by duration: Duration = .zero, maximumYields: Int = 100) async {
        await advanceTasks(by: duration, maximumYields: maximumYields, awaitingSleeps: .milliseconds(50))
    }

    /// ``advanceTasks(by:maximumYields:)``, waiting after each instant up to
    /// `awaitingSleeps` on the real clock for the woken tasks to sleep again; with `nil`,
    /// only `maximumYields` yields (for a caller that waits for its own tasks afterwards, as
    /// Resin's test store does).
    package func advanceTasks(by duration: Duration, maximumYields: Int, awaitingSleeps: Duration?) async {
        precondition(
            duration >= .zero,
            "TestScheduler.advanceTasks(by:) cannot move time backwards (by \(duration))")
        let deadline = now + duration
        var yields = 0
        while pendingCount == 0 && yields < maximumYields {
            await Task.yield()
            yields += 1
        }
        while let next = nextInstant, next <= deadline {
            let sleepersBefore = sleepingCount
            advance(to: next)
            // Until the woken tasks have resumed; in case one's executor never runs it, not
            // past a minute and 100,000 yields after it, whichever ends later.
            _ = await waitUntil(activity, timeout: .seconds(60), graceYields: 100_000) { wokenSleeperCount == 0 }
            if let awaitingSleeps {
                _ = await waitUntil(activity, timeout: awaitingSleeps, graceYields: maximumYields) {
                    sleepingCount >= sleepersBefore
                }
            } else {
                for _ in 0..<maximumYields { await Task.yield() }
            }
        }
        advance(to: deadline)
    }

    /// Waits until at least `count` tasks are asleep on this scheduler (see
    /// ``sleepingCount``), suspending until they are; returns whether they are.
    ///
    /// The wait suspends until a sleep begins or ends, and never sleeps itself. It gives up,
    /// returning `false`, once `timeout` has passed on the real clock and it has then yielded
    /// 10,000 times: a task that never sleeps fails the test that waits for it instead of
    /// hanging it.
    ///
    /// - Precondition: `count` is not negative.
    @discardableResult
    public func waitForSleepers(
        _ count: Int, timeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        precondition(count >= 0, "TestScheduler.waitForSleepers(_:) needs a count of zero or more, got \(count)")
        return await waitUntil(activity, timeout: timeout) { sleepingCount >= count }
    }
}

/// A scheduler that counts the sleeps on it: those under way, and those it ended whose tasks
/// have not resumed yet: ``TestScheduler``, so that tests can wait for tasks to fall asleep
/// and `advanceTasks` for them to resume.
protocol SleepTracking: Sendable {
    /// A task began a sleep (it suspends, or is about to).
    func sleepDidBegin()
    /// A sleep ended: its wake-up or its cancellation is about to resume its task.
    func sleepDidEnd()
    /// A sleep's wake-up is about to resume its task.
    func sleeperWillResume()
    /// A task resumed from a sleep its wake-up ended.
    func sleeperDidResume()
}

/// Sleeps on `scheduler` until `deadline`: the work of ``SchedulerClock`` and of
/// ``TestScheduler``'s `Clock` conformance.
func sleepOnScheduler(_ scheduler: some Scheduler, until deadline: SchedulerInstant) async throws {
    try Task.checkCancellation()
    guard deadline > scheduler.now else { return }
    let tracking = scheduler as? any SleepTracking
    var onEnd: (@Sendable () -> Void)?
    if let tracking { onEnd = { tracking.sleepDidEnd() } }
    let sleeper = Sleeper(onEnd: onEnd)
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            tracking?.sleepDidBegin()
            guard sleeper.start(continuation) else {
                tracking?.sleepDidEnd()
                return
            }
            let wake = scheduler.schedule(at: deadline) {
                sleeper.finish(with: .success(()), beforeResuming: tracking?.sleeperWillResume)
            }
            sleeper.keep(wake)
        }
    } onCancel: {
        sleeper.finish(with: .failure(CancellationError()))
    }
    // Only the wake-up resumes with success, and it counted this resumption.
    tracking?.sleeperDidResume()
}

/// One sleep's state: its continuation until it resumes, and the scheduled wake-up until it
/// runs or is cancelled. Whichever of the wake-up and cancellation comes first resumes the
/// continuation; the other finds nothing to do.
private final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var wake: Connection?
        var isCancelled = false
        var isFinished = false
    }

    private let state = LockedState(State())
    /// Called once, when the sleep ends after it started (see ``SleepTracking``).
    private let onEnd: (@Sendable () -> Void)?

    init(onEnd: (@Sendable () -> Void)?) {
        self.onEnd = onEnd
    }

    /// Stores the continuation; `false` (and the continuation thrown into) if the task was
    /// cancelled before it suspended.
    func start(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Keeps the scheduled wake-up so that cancellation can cancel it; disconnects it at
    /// once if the sleep already ended.
    func keep(_ wake: Connection) {
        let finished = state.withLock { state -> Bool in
            if state.isFinished { return true }
            state.wake = wake
            return false
        }
        if finished { wake.disconnect() }
    }

    /// Resumes the continuation with `result`, once, calling `beforeResuming` first if it
    /// does; cancels the wake-up.
    func finish(with result: Result<Void, any Error>, beforeResuming: (() -> Void)? = nil) {
        let (continuation, wake) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, Connection?) in
            if case .failure = result { state.isCancelled = true }
            guard !state.isFinished, let continuation = state.continuation else { return (nil, nil) }
            state.isFinished = true
            defer { (state.continuation, state.wake) = (nil, nil) }
            return (continuation, state.wake)
        }
        wake?.disconnect()
        guard let continuation else { return }
        onEnd?()
        beforeResuming?()
        continuation.resume(with: result)
    }
}
