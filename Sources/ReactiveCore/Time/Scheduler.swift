/// Something that runs work at a point in time: the package's one abstraction of time.
///
/// Everything timed in the package (Glue's timer source, Incremental's clock, Signals'
/// timers, throttle and debounce, Cycle's timer driver) takes a `Scheduler`, so that
/// programs run on real time with ``DispatchScheduler`` and tests run on virtual time
/// with ``TestScheduler``, never sleeping.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let reminder = scheduler.schedule(after: .seconds(5)) { print("five seconds later") }
/// scheduler.advance(by: .seconds(5))   // prints, without waiting
/// ```
///
/// Scheduled work is cancelled the way every subscription in the package ends: through
/// the ``Connection`` that `schedule` returns. Disconnect it, or let go of it, and the work
/// does not run. Keep the connection for as long as the work should stay scheduled.
///
/// Conforming types must run work no earlier than its instant, in order of instant, and
/// work scheduled for the same instant in the order it was scheduled.
public protocol Scheduler: Sendable {
    /// The scheduler's current time.
    var now: SchedulerInstant { get }

    /// Runs `work` at `instant`, or as soon as possible if `instant` is not in the future.
    ///
    /// - Returns: A connection that cancels the work when it disconnects or is released.
    func schedule(at instant: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection
}

extension Scheduler {
    /// Runs `work` once, `delay` from now.
    ///
    /// - Returns: A connection that cancels the work when it disconnects or is released.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Connection {
        schedule(at: now + delay, work)
    }

    /// Runs `work` at `instant`, in the isolation domain that scheduled it.
    ///
    /// For single-threaded paradigms whose work captures non-`Sendable` objects. The
    /// scheduler must run the work in the domain that scheduled it: a ``TestScheduler``
    /// advanced from that domain, or a ``DispatchScheduler`` on the serial queue that is
    /// that domain (the main queue for code on the main actor). Disconnect the returned
    /// connection in that domain too.
    @_disfavoredOverload
    public func schedule(at instant: SchedulerInstant, isolated work: @escaping () -> Void) -> Connection {
        let work = IsolatedClosure(work)
        return schedule(at: instant) { work() }
    }

    /// Runs `work` once, `delay` from now, in the isolation domain that scheduled it.
    ///
    /// The rules of ``schedule(at:isolated:)`` apply.
    @_disfavoredOverload
    public func schedule(after delay: Duration, isolated work: @escaping () -> Void) -> Connection {
        schedule(at: now + delay, isolated: work)
    }

    /// Runs `work` every `interval`, first at `start` (by default one interval from now),
    /// until the returned connection disconnects.
    ///
    /// Ticks are due at `start`, `start + interval`, `start + 2 · interval`, and so on, so
    /// they do not drift. If the scheduler falls behind by more than an interval (a busy
    /// queue, a sleeping machine), the missed ticks are dropped rather than run in a burst,
    /// and the schedule continues from the next due instant.
    ///
    /// - Precondition: `interval` is greater than zero.
    public func schedule(
        every interval: Duration,
        startingAt start: SchedulerInstant? = nil,
        _ work: @escaping @Sendable () -> Void
    ) -> Connection {
        precondition(
            interval > .zero,
            "Scheduler.schedule(every:) needs a positive interval, got \(interval)")
        let repeater = RepeatingWork(scheduler: self, interval: interval, work: work)
        repeater.start(at: start ?? now + interval)
        return Connection { repeater.stop() }
    }

    /// Runs `work` every `interval` in the isolation domain that scheduled it.
    ///
    /// The rules of ``schedule(at:isolated:)`` and ``schedule(every:startingAt:_:)`` apply.
    @_disfavoredOverload
    public func schedule(
        every interval: Duration,
        startingAt start: SchedulerInstant? = nil,
        isolated work: @escaping () -> Void
    ) -> Connection {
        let work = IsolatedClosure(work)
        return schedule(every: interval, startingAt: start) { work() }
    }
}
