/// Work a single-threaded operator scheduled for one subscription (a `delay`'s values),
/// cancelled together when the subscription disconnects. Package access: Glue's and Cycle's
/// timed operators share it.
///
/// Used in the subscribing isolation domain only, as the scheduler's isolated work is.
package final class ScheduledWork {
    private var scheduled: [UInt64: Connection] = [:]
    private var next: UInt64 = 0

    package init() {}

    /// Runs `work` at `instant` on `scheduler`, in the subscribing domain.
    package func schedule(on scheduler: any Scheduler, at instant: SchedulerInstant, _ work: @escaping () -> Void) {
        next += 1
        let key = next
        scheduled[key] = scheduler.schedule(
            at: instant,
            isolated: { [weak self] in
                self?.scheduled[key] = nil
                work()
            })
    }

    /// Cancels everything still scheduled.
    package func cancelAll() {
        let cancelled = scheduled
        scheduled = [:]
        for connection in cancelled.values { connection.disconnect() }
    }
}

/// The one running timer of a subscription: replacing or clearing ``connection`` releases the
/// timer's connection, which cancels it. Package access, as ``ScheduledWork``.
package final class TimerSlot {
    package var connection: Connection?

    package init() {}
}
