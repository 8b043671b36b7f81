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
        timedOut(interval, rule: .each, scheduler: scheduler, expiry: .end(customError))
    }

    /// The messages; if the first does not come within `interval` of connecting, the chain
    /// ends, finished, or failed with `customError()` if given. Once a message came (a
    /// replayed one counts), it never times out (RxJS's `timeout({ first })`).
    ///
    /// ```swift
    /// answer.fired.timeout(first: .seconds(5), scheduler: scheduler).then { show($0) }.append(to: observables)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        first interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global()),
        customError: (@Sendable () -> any Error)? = nil
    ) -> StreamModifier<Message, Message> {
        timedOut(interval, rule: .first, scheduler: scheduler, expiry: .end(customError))
    }

    /// The messages, until `interval` passes without one; then this source is let go of and
    /// `fallback`'s messages follow, its end included (RxSwift's `timeout(_:other:scheduler:)`,
    /// RxJS's `timeout({ each, with })`).
    ///
    /// ```swift
    /// live.fired.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached.fired)
    ///     .then { show($0) }.append(to: observables)
    /// ```
    ///
    /// `fallback` is connected when the time runs out, in the operator's turn, its last
    /// message (if any) replayed then; a message of this source that was already on its way
    /// is dropped.
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        _ interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global()),
        switchingTo fallback: MessageSource<Message>
    ) -> StreamModifier<Message, Message> {
        timedOut(interval, rule: .each, scheduler: scheduler, expiry: .switchTo(fallback))
    }

    /// The messages; if the first does not come within `interval` of connecting, this
    /// source is let go of and `fallback`'s messages follow instead (RxJS's
    /// `timeout({ first, with })`).
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        first interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global()),
        switchingTo fallback: MessageSource<Message>
    ) -> StreamModifier<Message, Message> {
        timedOut(interval, rule: .first, scheduler: scheduler, expiry: .switchTo(fallback))
    }

    private func timedOut(
        _ interval: Duration, rule: TimeoutStateMachine.Rule, scheduler: some Scheduler,
        expiry: TimeoutCore<Message>.Expiry
    ) -> StreamModifier<Message, Message> {
        StreamModifier(
            upstream: self,
            core: TimeoutCore(
                upstream: self, machine: TimeoutStateMachine(interval: interval, rule: rule), scheduler: scheduler,
                expiry: expiry))
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

/// The work of ``MessageSource/timeout(_:scheduler:customError:)`` and its relatives.
///
/// With a fallback, timing out lets go of the upstream (``ModifierCore/disconnectUpstream()``)
/// and connects the fallback as input 1: from then on the rule is `switched`, messages and
/// the end of the upstream still on their way are dropped, and the fallback's pass.
final class TimeoutCore<Message: Sendable>: StreamCore<Message, Message, TimeoutCore<Message>.Rule>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the rule is behind the core's lock; the other stored
    // properties are `let`s of `Sendable` types.

    /// What timing out does.
    enum Expiry: Sendable {
        /// End the chain: finished, or failed with the error made.
        case end((@Sendable () -> any Error)?)
        /// Let go of the upstream and pass the fallback's messages and end.
        case switchTo(MessageSource<Message>)
    }

    /// The machine, and whether the fallback took over.
    struct Rule {
        var machine: TimeoutStateMachine
        var switched = false
    }

    private let scheduler: any Scheduler
    private let expiry: Expiry

    init(
        upstream: MessageSource<Message>, machine: TimeoutStateMachine, scheduler: some Scheduler, expiry: Expiry
    ) {
        self.scheduler = scheduler
        self.expiry = expiry
        super.init(upstream: upstream, rule: Rule(machine: machine))
    }

    override func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        scheduler.schedule(at: deadline, work)
    }

    override func attach() {
        let now = scheduler.now
        step { rule, outbox in watch(rule.machine.start(at: now), &outbox) }
        super.attach()
    }

    override func handle(_ rule: inout Rule, _ event: StreamEvent<Message, any Error>, _ outbox: inout Outbox<Message>)
    {
        // Once timed out, what the upstream still sends is dropped: its end too, if the
        // fallback took over.
        guard !rule.switched else { return }
        switch event {
        case .value(let message):
            if let timer = rule.machine.receive(at: scheduler.now) {
                watch(timer, &outbox)
            } else if !rule.machine.isWatching {
                outbox.cancelTimer()
            }
            if !rule.machine.isFinished { outbox.send(message) }
        case .completion(let completion):
            rule.machine.finish()
            outbox.cancelTimer()
            outbox.end(completion)
        }
    }

    private func watch(_ timer: StreamTimer, _ outbox: inout Outbox<Message>) {
        outbox.schedule(at: timer.deadline) { [self] in
            step { rule, outbox in
                guard rule.machine.timerFired(timer) else { return }
                switch expiry {
                case .end(let customError):
                    // The error is made outside the lock, in its turn.
                    if let customError {
                        outbox.run { [self] in finish(.failed(customError())) }
                    } else {
                        outbox.end()
                    }
                case .switchTo(let fallback):
                    rule.switched = true
                    outbox.run { [self] in
                        disconnectUpstream()
                        connectSide(fallback, key: 1, entry: Self.fallbackEntry)
                    }
                }
            }
        }
    }

    /// The entry of the fallback's input: its messages and its end pass.
    private static var fallbackEntry: SideEntry {
        sideEntry(of: Message.self) { _, _, _, event, outbox in
            switch event {
            case .value(let message): outbox.send(message)
            case .completion(let completion): outbox.end(completion)
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
