/// A throttle or a debounce in one isolation domain: ``send(_:)`` values in, and `output`
/// receives them paced by a ``PacingRule`` on a ``Scheduler``.
///
/// ```swift
/// let search = Pacer<String>(.throttle(latest: true), pause: .milliseconds(300), scheduler: scheduler) {
///     backend.search($0)
/// }
/// search.send("s")     // searched at once
/// search.send("sw")    // held
/// search.send("swi")   // replaces "sw"; searched when the pause ends
/// ```
///
/// The pacer is the storage of a ``PacingStateMachine``: it reads the scheduler's clock,
/// starts and cancels the timers the machine asks for, and passes values on. Its timers run
/// in the isolation domain that sends (see ``Scheduler/schedule(at:isolated:)``): use a
/// ``TestScheduler`` advanced from that domain, or a ``DispatchScheduler`` on its serial queue.
///
/// `output` may send into the same pacer: the machine's state is settled before `output`
/// runs, so such a value is paced like any other (during a throttle's pause it is held or
/// dropped). ``cancel()``, or releasing the pacer, drops the held value and stops its timer.
public final class Pacer<Value> {
    private var machine: PacingStateMachine<Value>
    private let scheduler: any Scheduler
    private let output: (Value) -> Void
    private var timer: Connection?
    /// Called when a timer ends the pacing with nothing to pass (``isPacing`` became false
    /// without a value going out); for owners that keep pacers only while they pace.
    package var onIdle: (() -> Void)?

    /// A pacer that passes the values sent to it on to `output`, paced by `rule` with pauses
    /// of `pause` on `scheduler`.
    ///
    /// - Precondition: `pause` is not negative.
    public init(
        _ rule: PacingRule, pause: Duration, scheduler: some Scheduler, output: @escaping (Value) -> Void
    ) {
        machine = PacingStateMachine(rule, pause: pause)
        self.scheduler = scheduler
        self.output = output
    }

    deinit {
        timer?.disconnect()
    }

    /// Puts a new pacer between a subscription and `output`: calls `subscribe` with the
    /// pacer's input, and returns a connection that ends that subscription and cancels the
    /// pacer. How a paradigm builds its throttle and debounce operators:
    ///
    /// ```swift
    /// func debounce(pause: Duration, scheduler: some Scheduler) -> MyStream<Value> {
    ///     MyStream { sink in
    ///         Pacer.connect(.debounce, pause: pause, scheduler: scheduler, subscribe: self.subscribe, output: sink)
    ///     }
    /// }
    /// ```
    ///
    /// - Precondition: `pause` is not negative.
    public static func connect(
        _ rule: PacingRule,
        pause: Duration,
        scheduler: some Scheduler,
        subscribe: (@escaping (Value) -> Void) -> Connection,
        output: @escaping (Value) -> Void
    ) -> Connection {
        let pacer = Pacer(rule, pause: pause, scheduler: scheduler, output: output)
        let upstream = subscribe(pacer.send)
        return Connection(isolated: {
            upstream.disconnect()
            pacer.cancel()
        })
    }

    /// The rule the pacer follows.
    public var rule: PacingRule { machine.rule }

    /// Whether a pause or a wait is running.
    public var isPacing: Bool { machine.isPacing }

    /// The value held to pass later, if any.
    public var held: Value? { machine.held }

    /// Takes in `value`: passes it on now, holds it for later, or drops it, as the rule says.
    public func send(_ value: Value) {
        switch machine.receive(value, at: scheduler.now) {
        case .pass(let value, let timer):
            if let timer { start(timer) }
            output(value)
        case .startTimer(let timer):
            start(timer)
        case .hold, .drop:
            break
        }
    }

    /// Drops the held value and ends any pause: the next value is treated as the first.
    public func cancel() {
        machine.cancel()
        timer?.disconnect()
        timer = nil
    }

    private func start(_ timer: PacingTimer) {
        // Assigning releases the connection of the timer replaced, which cancels it.
        self.timer = scheduler.schedule(at: timer.deadline, isolated: { [weak self] in self?.fire(timer) })
    }

    private func fire(_ timer: PacingTimer) {
        switch machine.timerFired(timer, at: scheduler.now) {
        case .pass(let value, let next):
            if let next { start(next) } else { self.timer = nil }
            output(value)
        case .startTimer(let next):
            start(next)
        case .none:
            if !machine.isPacing {
                self.timer = nil
                onIdle?()
            }
        }
    }
}
