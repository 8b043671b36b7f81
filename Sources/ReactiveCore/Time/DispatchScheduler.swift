import Dispatch

/// A scheduler on real time that runs work on a Dispatch queue.
///
/// ```swift
/// let scheduler = DispatchScheduler(queue: .main)
/// let timer = scheduler.schedule(every: .seconds(1)) { print("tick") }
/// withExtendedLifetime(timer) {
///     dispatchMain()   // a command-line program drains the main queue here
/// }
/// ```
///
/// Time is Dispatch's uptime clock (`DispatchTime`), which does not advance while the
/// machine sleeps. Work runs on ``queue``; on a serial queue, work already due when it is
/// scheduled runs in the order it was scheduled. Work due at the same future instant may run
/// in any order (each waits in a timer of its own). Cancelling (disconnecting the returned connection)
/// releases the work at once, even if its deadline is far away.
///
/// A command-line program must let the main queue run for work scheduled on `.main`: call
/// `dispatchMain()`, or run the main run loop.
public struct DispatchScheduler: Scheduler {
    /// The queue the scheduler runs work on.
    public let queue: DispatchQueue

    /// Creates a scheduler that runs work on `queue`.
    public init(queue: DispatchQueue = .main) {
        self.queue = queue
    }

    /// The current uptime.
    public var now: SchedulerInstant {
        SchedulerInstant(offset: .nanoseconds(DispatchTime.now().uptimeNanoseconds))
    }

    /// Runs `work` on ``queue`` at `instant`.
    ///
    /// - Returns: A connection that cancels the work when it disconnects or is released.
    ///
    /// Work due later waits in a Dispatch timer source, not in a block queued with
    /// `asyncAfter`: cancelling releases the work and the source at once, so a long timer
    /// restarted many times (an inactivity timeout reset on every event) holds no memory for
    /// the runs it cancelled.
    public func schedule(at instant: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        let pending = PendingWork(work)
        // Due already: queued at once, first in first out, and gone from the queue soon.
        guard instant > now else {
            queue.async { pending.take()?() }
            return Connection { _ = pending.take() }
        }
        let timer = TimerSource(DispatchSource.makeTimerSource(queue: queue))
        timer.source.schedule(deadline: Self.deadline(for: instant))
        timer.source.setEventHandler { pending.take()?() }
        timer.source.activate()
        return Connection {
            _ = pending.take()
            timer.source.cancel()
        }
    }

    /// The Dispatch deadline for `instant`, clamped to the range Dispatch can express.
    static func deadline(for instant: SchedulerInstant) -> DispatchTime {
        guard instant.offset > .zero else { return DispatchTime(uptimeNanoseconds: 0) }
        let (seconds, attoseconds) = instant.offset.components
        let (wholeNanoseconds, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .distantFuture }
        let (total, overflowAgain) = wholeNanoseconds.addingReportingOverflow(
            UInt64(attoseconds / 1_000_000_000))
        return overflowAgain ? .distantFuture : DispatchTime(uptimeNanoseconds: total)
    }
}

/// A Dispatch timer source, shared by the connection that cancels it and its own handler.
///
/// Unchecked `Sendable`: Dispatch sources are safe to use from any thread (their `cancel`,
/// `schedule` and handlers synchronize inside Dispatch); the wrapper only holds the `let`.
private final class TimerSource: @unchecked Sendable {
    let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) {
        self.source = source
    }
}

/// Work waiting for its deadline; taken exactly once, by the deadline or by cancellation.
private final class PendingWork: Sendable {
    private let work: LockedState<(@Sendable () -> Void)?>

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = LockedState(work)
    }

    func take() -> (@Sendable () -> Void)? {
        work.withLock { work in
            defer { work = nil }
            return work
        }
    }
}
