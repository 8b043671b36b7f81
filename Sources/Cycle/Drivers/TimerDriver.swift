/// What a ``TimerDriver`` should do.
public enum TimerModel: Equatable, Sendable {
    /// No ticks.
    case stopped
    /// Tick every `interval`; a new interval restarts the ticks.
    case ticking(every: Duration)
}

/// What a ``TimerDriver`` reports.
public enum TimerEvent: Equatable, Sendable {
    /// The timer ticked, for the `count`th time since it started, at `instant`.
    case tick(count: Int, at: SchedulerInstant)
}

/// Ticks on a scheduler while its model asks it to: time as a driver, on the common module's
/// virtual time in tests.
///
/// A model equal to the current one changes nothing; a different interval restarts the count.
public struct TimerDriver: Driver {
    private let scheduler: any Scheduler

    /// A timer driver on `scheduler`, which runs its work in the loop's domain.
    public init(scheduler: some Scheduler) {
        self.scheduler = scheduler
    }

    /// Ticks as the models say.
    public func rendered(_ models: EventStream<TimerModel>) -> EventStream<TimerEvent> {
        let scheduler = scheduler
        return EventStream { sink in
            let state = TimerState()
            let connection = models.subscribe { model in
                guard model != state.model else { return }
                state.model = model
                state.ticks?.disconnect()
                state.count = 0
                if case .ticking(let interval) = model {
                    state.ticks = scheduler.schedule(
                        every: interval,
                        isolated: {
                            state.count += 1
                            sink(.tick(count: state.count, at: scheduler.now))
                        })
                }
            }
            return Connection(isolated: {
                connection.disconnect()
                state.ticks?.disconnect()
            })
        }
    }
}

final class TimerState {
    var model: TimerModel?
    var ticks: Connection?
    var count = 0
}
