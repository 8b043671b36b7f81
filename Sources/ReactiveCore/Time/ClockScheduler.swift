/// A ``Scheduler`` that runs work on a Swift `Clock`: the way from Swift concurrency's clocks
/// to everything timed in the package.
///
/// ```swift
/// let scheduler = ClockScheduler(clock: ContinuousClock())
/// let pings = scheduler.schedule(every: .seconds(1)) { print("ping") }
/// ```
///
/// Any clock whose durations are `Duration` works: `ContinuousClock`, `SuspendingClock`, or
/// a test clock from another library, so that the package's throttle, debounce and timers
/// follow it.
///
/// ## Time
///
/// The scheduler's ``now`` is the time elapsed on the clock since the scheduler was made:
/// it starts at ``SchedulerInstant/zero``.
///
/// ## Order and threading
///
/// One task of the scheduler's own sleeps on the clock until the earliest piece of work is
/// due, then runs every piece that is due, in order of instant and, at the same instant, in
/// the order scheduled; then it sleeps again. Work scheduled for an earlier instant than
/// the one slept for wakes it early. Work runs on that task, one piece at a time, off any
/// actor: schedule only work that may run there (the `@Sendable` form of
/// ``Scheduler/schedule(at:_:)``), not work that must stay in a caller's isolation domain.
/// The task ends when no work is left; it keeps the scheduler alive until then.
public final class ClockScheduler<C: Clock>: Scheduler where C.Duration == Duration {
    private struct State: Sendable {
        var queue = ScheduleQueue<@Sendable () -> Void>()
        var isDriving = false
        /// The current sleep and the instant it sleeps until.
        var sleep: (task: Task<Void, any Error>, until: SchedulerInstant)?
    }

    /// The clock the scheduler sleeps on.
    public let clock: C
    private let origin: C.Instant
    private let state = LockedState(State())

    /// A scheduler on `clock`, whose time starts now.
    public init(clock: C) {
        self.clock = clock
        origin = clock.now
    }

    /// The time elapsed on the clock since the scheduler was made.
    public var now: SchedulerInstant {
        SchedulerInstant(offset: origin.duration(to: clock.now))
    }

    /// Runs `work` when the clock reaches `instant` (as soon as possible if it has).
    ///
    /// - Returns: A connection that cancels the work when it disconnects or is released.
    public func schedule(at instant: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        let (key, startDriving, wake) = state.withLock { state in
            let key = state.queue.insert(work, at: instant)
            if !state.isDriving {
                state.isDriving = true
                return (key, true, nil as Task<Void, any Error>?)
            }
            if let sleep = state.sleep, instant < sleep.until {
                state.sleep = nil
                return (key, false, sleep.task)
            }
            return (key, false, nil)
        }
        wake?.cancel()
        if startDriving {
            Task { await self.drive() }
        }
        return Connection { [self] in
            // The cancelled closure is released after the lock: it may own objects whose
            // deinit schedules or cancels work.
            let cancelled = state.withLock { $0.queue.remove(key) }
            _ = cancelled
        }
    }

    /// The scheduler's one task: sleeps until the earliest work, runs what is due, repeats
    /// until no work is left.
    private func drive() async {
        while true {
            let sleep = state.withLock { state -> Task<Void, any Error>? in
                guard let next = state.queue.nextInstant else {
                    state.isDriving = false
                    return nil
                }
                let deadline = origin.advanced(by: next.offset)
                let clock = clock
                let task = Task { try await clock.sleep(until: deadline, tolerance: nil) }
                state.sleep = (task, next)
                return task
            }
            guard let sleep else { return }
            // Ends on time, or early when earlier work arrives (the task is cancelled).
            _ = await sleep.result
            let now = now
            while let work = state.withLock({ $0.queue.popFirst(dueBy: now)?.1 }) {
                work()
            }
        }
    }
}
