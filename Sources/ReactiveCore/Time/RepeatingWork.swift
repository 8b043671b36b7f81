/// The state of one `schedule(every:)`: the pending tick, and whether it was stopped.
final class RepeatingWork<S: Scheduler>: Sendable {
    private struct State: Sendable {
        var isActive = true
        /// Counts ticks scheduled; only the newest tick's connection is kept, so a tick that
        /// fires before its scheduler returns cannot leave a stale connection behind.
        var generation = 0
        var pending: Connection?
    }

    private let scheduler: S
    private let interval: Duration
    private let work: @Sendable () -> Void
    private let state = LockedState(State())

    init(scheduler: S, interval: Duration, work: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        self.interval = interval
        self.work = work
    }

    func start(at instant: SchedulerInstant) {
        scheduleTick(at: instant)
    }

    func stop() {
        let pending = state.withLock { state in
            state.isActive = false
            defer { state.pending = nil }
            return state.pending
        }
        pending?.disconnect()
    }

    private func scheduleTick(at instant: SchedulerInstant) {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let connection = scheduler.schedule(at: instant) { [self] in
            tick(dueAt: instant)
        }
        // A connection not kept here is released at the end of this scope, which cancels it.
        state.withLock { state in
            if state.isActive, state.generation == generation {
                state.pending = connection
            }
        }
    }

    private func tick(dueAt due: SchedulerInstant) {
        guard state.withLock({ $0.isActive }) else { return }
        work()
        scheduleTick(at: nextDue(after: due))
    }

    /// The first tick instant after `due` that is not already in the past.
    private func nextDue(after due: SchedulerInstant) -> SchedulerInstant {
        let next = due + interval
        let now = scheduler.now
        guard next < now else { return next }
        let missed = ((now - next) / interval).rounded(.up)
        return next + interval * Int(missed)
    }
}
