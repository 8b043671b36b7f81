import Dispatch

extension MessageSource {
    /// Each message, and the end, `interval` later on `scheduler` (Combine's `delay`).
    ///
    /// ```swift
    /// toasts.fired.delay(for: .seconds(2), scheduler: scheduler).then { hide($0) }.append(to: observables)
    /// ```
    ///
    /// Messages keep their order and their spacing. A failure or an interruption passes at
    /// once, dropping the messages still delayed; removing the chain cancels them too.
    ///
    /// - Precondition: `interval` is not negative.
    public func delay(
        for interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> StreamModifier<Message, Message> {
        precondition(interval >= .zero, "Signals: delay needs an interval of zero or more, got \(interval)")
        return StreamModifier(upstream: self, core: DelayCore(upstream: self, interval: interval, scheduler: scheduler))
    }

    /// The messages, until `interval` passes without one (counted from connecting, then from
    /// each message): the chain then ends, finished, or failed with `customError()` if given
    /// (Combine's `timeout`).
    ///
    /// ```swift
    /// responses.fired.timeout(.seconds(10), scheduler: scheduler, customError: { TimedOut() })
    ///     .onFailed { print("no answer: \($0)") }
    ///     .append(to: observables)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        _ interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global()),
        customError: (@Sendable () -> any Error)? = nil
    ) -> StreamModifier<Message, Message> {
        StreamModifier(
            upstream: self,
            core: TimeoutCore(upstream: self, interval: interval, scheduler: scheduler, customError: customError))
    }

    /// The messages in arrays, one per window of `window` that starts with its first message,
    /// or sooner once `maxCount` messages were gathered; at the end, the messages gathered
    /// so far (Combine's `collect(.byTimeOrCount)`).
    ///
    /// - Precondition: `window` is positive, and `maxCount`, if given, is too.
    public func collect(
        for window: Duration, maxCount: Int? = nil, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> StreamModifier<Message, [Message]> {
        StreamModifier(
            upstream: self,
            core: WindowCore(
                upstream: self, machine: WindowStateMachine(window: window, maxCount: maxCount), scheduler: scheduler))
    }
}

/// The work of ``MessageSource/delay(for:scheduler:)``: one timer per delayed message, each in
/// its own slot; the rule counts slots.
final class DelayCore<Message: Sendable>: StreamCore<Message, Message, UInt64>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the count is behind the core's lock.
    private let interval: Duration
    private let scheduler: any Scheduler

    init(upstream: MessageSource<Message>, interval: Duration, scheduler: some Scheduler) {
        self.interval = interval
        self.scheduler = scheduler
        super.init(upstream: upstream, rule: 0)
    }

    override func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        scheduler.schedule(at: deadline, work)
    }

    override func handle(
        _ slots: inout UInt64, _ event: StreamEvent<Message, any Error>, _ outbox: inout Outbox<Message>
    ) {
        switch event {
        case .completion(let completion) where !isFinished(completion):
            outbox.end(completion)
        case .value, .completion:
            slots += 1
            let slot = slots
            outbox.schedule(at: scheduler.now + interval, slot: slot) { [self] in
                step { _, outbox in
                    outbox.cancelTimer(slot: slot)
                    switch event {
                    case .value(let message): outbox.send(message)
                    case .completion(let completion): outbox.end(completion)
                    }
                }
            }
        }
    }

    private func isFinished(_ completion: Completion<any Error>) -> Bool {
        if case .finished = completion { true } else { false }
    }
}

/// The work of ``MessageSource/timeout(_:scheduler:customError:)``.
final class TimeoutCore<Message: Sendable>: StreamCore<Message, Message, TimeoutStateMachine>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the machine is behind the core's lock.
    private let scheduler: any Scheduler
    private let customError: (@Sendable () -> any Error)?

    init(
        upstream: MessageSource<Message>, interval: Duration, scheduler: some Scheduler,
        customError: (@Sendable () -> any Error)?
    ) {
        self.scheduler = scheduler
        self.customError = customError
        super.init(upstream: upstream, rule: TimeoutStateMachine(interval: interval))
    }

    override func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        scheduler.schedule(at: deadline, work)
    }

    override func attach() {
        let now = scheduler.now
        step { machine, outbox in watch(machine.start(at: now), &outbox) }
        super.attach()
    }

    override func handle(
        _ machine: inout TimeoutStateMachine, _ event: StreamEvent<Message, any Error>, _ outbox: inout Outbox<Message>
    ) {
        switch event {
        case .value(let message):
            if let timer = machine.receive(at: scheduler.now) { watch(timer, &outbox) }
            if !machine.isFinished { outbox.send(message) }
        case .completion(let completion):
            machine.finish()
            outbox.end(completion)
        }
    }

    private func watch(_ timer: StreamTimer, _ outbox: inout Outbox<Message>) {
        outbox.schedule(at: timer.deadline) { [self] in
            step { machine, outbox in
                guard machine.timerFired(timer) else { return }
                // The error is made outside the lock, in its turn.
                if let customError {
                    outbox.run { [self] in finish(.failed(customError())) }
                } else {
                    outbox.end()
                }
            }
        }
    }
}

/// The work of ``MessageSource/collect(for:maxCount:scheduler:)``.
final class WindowCore<Message: Sendable>: StreamCore<Message, [Message], WindowStateMachine<Message>>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the machine is behind the core's lock.
    private let scheduler: any Scheduler

    init(upstream: MessageSource<Message>, machine: WindowStateMachine<Message>, scheduler: some Scheduler) {
        self.scheduler = scheduler
        super.init(upstream: upstream, rule: machine)
    }

    override func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        scheduler.schedule(at: deadline, work)
    }

    override func handle(
        _ machine: inout WindowStateMachine<Message>, _ event: StreamEvent<Message, any Error>,
        _ outbox: inout Outbox<[Message]>
    ) {
        switch event {
        case .value(let message):
            switch machine.receive(message, at: scheduler.now) {
            case .none: break
            case .startTimer(let window):
                outbox.schedule(at: window.deadline) { [self] in
                    step { machine, outbox in
                        if let batch = machine.timerFired(window) { outbox.send(batch) }
                    }
                }
            case .emit(let batch):
                outbox.cancelTimer()
                outbox.send(batch)
            }
        case .completion(let completion):
            outbox.cancelTimer()
            if case .finished = completion, let rest = machine.finish() { outbox.send(rest) }
            outbox.end(completion)
        }
    }
}
