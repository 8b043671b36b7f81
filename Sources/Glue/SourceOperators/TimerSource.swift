/// A source that sends a `Void` value at every interval, as long as it has subscribers.
///
/// ```swift
/// let ticks = TimerSource(scheduler: DispatchScheduler(queue: .main), interval: .seconds(1))
/// ticks.subscribe { print("Tick!") }.putInto(connectionsWhileVisible)
/// ```
///
/// Ticks are due at `start + k · interval` (see `Scheduler`): the timer runs
/// only while subscribed, starts when the first subscriber arrives, and stops when the last
/// one leaves. In tests, pass a `TestScheduler` and advance it.
///
/// The scheduler runs the ticks in Glue's isolation domain: a `TestScheduler` advanced from
/// that domain, or a `DispatchScheduler` on the main queue for code on the main thread.
public final class TimerSource: SourceType {
    private let signal = Signal<Void>()
    private var timer: Connection?

    /// Creates a timer that ticks every `interval`, first at `start` (by default one
    /// interval after the first subscriber arrives).
    ///
    /// - Precondition: `interval` is greater than zero.
    public init(scheduler: some Scheduler, start: SchedulerInstant? = nil, interval: Duration) {
        precondition(interval > .zero, "TimerSource needs a positive interval, got \(interval)")
        signal.owner = self
        signal.activation = { [unowned self] active in
            if active {
                timer = scheduler.schedule(
                    every: interval, startingAt: start,
                    isolated: { [unowned self] in signal.send() })
            } else {
                let stopped = timer
                timer = nil
                stopped?.disconnect()
            }
        }
    }

    /// Whether the timer is running (it has subscribers).
    public var isRunning: Bool { timer != nil }

    /// Ticks carry no value.
    public typealias Value = Void

    /// Starts sending ticks to `sink`.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        signal.subscribe(sink)
    }
}
