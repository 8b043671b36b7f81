/// A scheduler on virtual time that moves only when you move it.
///
/// Tests use it to run timed code (timers, delays, throttle, debounce) instantly and
/// deterministically:
///
/// ```swift
/// let scheduler = TestScheduler()
/// var fired: [SchedulerInstant] = []
/// let ticks = scheduler.schedule(every: .seconds(1), isolated: { fired.append(scheduler.now) })
/// scheduler.advance(by: .seconds(3))
/// // fired == [1 s, 2 s, 3 s], and no time passed
/// ```
///
/// ## Order
///
/// ``advance(by:)``, ``advance(to:)`` and ``run(limit:)`` run due work in order of its instant;
/// work due at the same instant runs in the order it was scheduled (FIFO). While a piece of
/// work runs, ``now`` is its instant. Work scheduled by running work joins the same queue:
/// if it is due before the advance ends, it runs in this advance, in its place. Work
/// scheduled for an instant already past is due at once, at the current instant.
///
/// ## Threading
///
/// The scheduler is `Sendable`: work may be scheduled and cancelled from any thread. Work
/// runs on the thread that advances the scheduler, one piece at a time. Advancing must not
/// overlap: calling an advance from inside running work, or from two threads at once, is a
/// precondition failure.
public final class TestScheduler: Scheduler {
    private struct State: Sendable {
        var now: SchedulerInstant
        var queue = ScheduleQueue<@Sendable () -> Void>()
        var isAdvancing = false
        /// Sleeps on this scheduler that its work ended and whose tasks have not resumed.
        var wokenSleepers = 0
        /// Sleeps on this scheduler that began and have not ended.
        var sleeping = 0
    }

    private let state: LockedState<State>

    /// Notes every sleep that begins, ends or resumes, for waits on ``sleepingCount`` and for
    /// test stores, which wait on it and on their effects' messages at once.
    package let activity = ActivitySignal()

    /// Creates a scheduler whose clock reads `now`.
    public init(now: SchedulerInstant = .zero) {
        state = LockedState(State(now: now))
    }

    /// The scheduler's virtual time.
    public var now: SchedulerInstant {
        state.withLock { $0.now }
    }

    /// The number of pieces of work scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    /// The number of tasks asleep on this scheduler: sleeps (through its `Clock`
    /// conformance, or a ``SchedulerClock`` on it) that began and that no advance and no
    /// cancellation has ended.
    ///
    /// A test that starts a task which sleeps waits for this to count it before moving time:
    ///
    /// ```swift
    /// let task = Task { try await scheduler.sleep(for: .seconds(1)); print("woke") }
    /// await scheduler.waitForSleepers(1)
    /// await scheduler.advanceTasks(by: .seconds(1))   // "woke"
    /// ```
    public var sleepingCount: Int {
        state.withLock { $0.sleeping }
    }

    /// The instant of the next piece of work, or `nil` if nothing is scheduled.
    public var nextInstant: SchedulerInstant? {
        state.withLock { $0.queue.nextInstant }
    }

    /// Schedules `work` at `instant` (or at ``now``, if `instant` has passed).
    ///
    /// - Returns: A connection that cancels the work when it disconnects or is released.
    public func schedule(at instant: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        let key = state.withLock { state in
            state.queue.insert(work, at: max(instant, state.now))
        }
        return Connection { [self] in
            // The cancelled closure is released after the lock: it may own objects whose
            // deinit schedules or cancels work.
            let cancelled = state.withLock { $0.queue.remove(key) }
            _ = cancelled
        }
    }

    /// Moves time forward by `duration`, running the work that falls due, in order.
    ///
    /// - Precondition: `duration` is not negative; no other advance is under way.
    public func advance(by duration: Duration = .zero) {
        precondition(
            duration >= .zero,
            "TestScheduler.advance(by:) cannot move time backwards (by \(duration))")
        advance(to: now + duration)
    }

    /// Moves time forward to `instant`, running the work that falls due, in order.
    ///
    /// - Precondition: `instant` is not before ``now``; no other advance is under way.
    public func advance(to instant: SchedulerInstant) {
        beginAdvancing()
        defer { endAdvancing(at: instant) }
        let start = now
        precondition(
            instant >= start,
            "TestScheduler.advance(to:) cannot move time backwards, from \(start) to \(instant)")
        while let work = takeNext(dueBy: instant) {
            work()
        }
    }

    /// Runs every piece of work, including work scheduled while running, until none is
    /// left, moving time to each piece's instant.
    ///
    /// - Parameter limit: How many pieces of work may run before the scheduler decides that
    ///   the queue never empties (a repeating timer, or work that always schedules more).
    /// - Precondition: The queue empties within `limit` pieces of work; no other advance is
    ///   under way.
    public func run(limit: Int = 100_000) {
        beginAdvancing()
        defer { endAdvancing(at: nil) }
        var ran = 0
        while let work = takeNext(dueBy: nil) {
            ran += 1
            precondition(
                ran <= limit,
                "TestScheduler.run() ran \(limit) pieces of work and the queue is still not empty; a repeating timer never ends: use advance(by:) instead"
            )
            work()
        }
    }

    private func beginAdvancing() {
        let wasAdvancing = state.withLock { state in
            defer { state.isAdvancing = true }
            return state.isAdvancing
        }
        precondition(
            !wasAdvancing,
            "TestScheduler was advanced while it was already advancing (from its own work, or from two threads at once)"
        )
    }

    private func endAdvancing(at instant: SchedulerInstant?) {
        state.withLock { state in
            if let instant, instant > state.now { state.now = instant }
            state.isAdvancing = false
        }
    }

    private func takeNext(dueBy limit: SchedulerInstant?) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let (instant, work) = state.queue.popFirst(dueBy: limit) else { return nil }
            if instant > state.now { state.now = instant }
            return work
        }
    }
}

extension TestScheduler: SleepTracking {
    func sleepDidBegin() {
        state.withLock { $0.sleeping += 1 }
        activity.notify()
    }

    func sleepDidEnd() {
        state.withLock { $0.sleeping -= 1 }
        activity.notify()
    }

    func sleeperWillResume() { state.withLock { $0.wokenSleepers += 1 } }

    func sleeperDidResume() {
        state.withLock { $0.wokenSleepers -= 1 }
        activity.notify()
    }

    /// How many sleeps on this scheduler an advance ended whose tasks have not resumed yet.
    var wokenSleeperCount: Int { state.withLock { $0.wokenSleepers } }
}
