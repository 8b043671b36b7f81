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

/// What a ``TimersDriver`` reports.
public enum TimersEvent: Equatable, Sendable {
    /// The timer `id` ticked, for the `count`th time since it started, at `instant`.
    case tick(id: String, count: Int, at: SchedulerInstant)

    /// The timer's id.
    public var id: String {
        switch self {
        case .tick(let id, _, _): id
        }
    }
}

extension TimersEvent: ScopedDriverEvent {
    /// This tick for the component isolated under `scope`, or `nil` if another scope's timer
    /// ticked.
    public func unscoped(from scope: DriverScope) -> TimersEvent? {
        switch self {
        case .tick(let id, let count, let instant): scope.unqualify(id).map { .tick(id: $0, count: count, at: instant) }
        }
    }

    /// The scope whose timer ticked.
    public var scope: DriverScope? { DriverScope.split(id)?.scope }
}

/// Runs any number of timers, by id, on a scheduler: the timer driver for programs (and
/// isolated components) that need several.
///
/// The model says which timers run and how often. A timer that appears starts counting from
/// one; one whose model changes restarts; one that disappears or turns ``TimerModel/stopped``
/// stops, and ticks no more, even one already due at the same instant. Timers keep their ids
/// in the model, so they can be scoped (``DriverScope``) for isolated components.
public struct TimersDriver: Driver {
    private let scheduler: any Scheduler

    /// A driver of timers on `scheduler`, which runs its work in the loop's domain.
    public init(scheduler: some Scheduler) {
        self.scheduler = scheduler
    }

    /// Runs the timers the models name.
    public func rendered(_ models: EventStream<[String: TimerModel]>) -> EventStream<TimersEvent> {
        let scheduler = scheduler
        return EventStream { sink in
            var timers: [String: TimerState] = [:]
            let connection = models.subscribe { models in
                for (id, timer) in timers where models[id] != timer.model {
                    timer.ticks?.disconnect()
                    timer.ticks = nil
                    timers[id] = nil
                }
                for (id, model) in models where timers[id] == nil {
                    let timer = TimerState()
                    timer.model = model
                    timers[id] = timer
                    guard case .ticking(let interval) = model else { continue }
                    timer.ticks = scheduler.schedule(
                        every: interval,
                        isolated: { [weak timer] in
                            // A timer stopped at an instant when it was also due ticks no more.
                            guard let timer, timer.ticks != nil else { return }
                            timer.count += 1
                            sink(.tick(id: id, count: timer.count, at: scheduler.now))
                        })
                }
            }
            return Connection(isolated: {
                connection.disconnect()
                for timer in timers.values { timer.ticks?.disconnect() }
                timers = [:]
            })
        }
    }
}
