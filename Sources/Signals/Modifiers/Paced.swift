import Dispatch

extension MessageSource {
    /// Passes a message only if at least `pause` has passed since the last message it
    /// passed; discards messages that come sooner (leading-edge throttle).
    ///
    /// ```swift
    /// clicks.fired.throttle(pause: .milliseconds(500)).then { submit() }.append(to: observables)
    /// ```
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(
        pause: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> PacedModifier<Message> {
        precondition(pause >= .zero, "throttle(pause:) needs a pause of zero or more, got \(pause)")
        return PacedModifier(
            upstream: self, core: PacedCore(upstream: self, rule: .leadingThrottle, pause: pause, scheduler: scheduler)
        )
    }

    /// Passes a message at once if no pause is running, then at most one message per
    /// `pause`: of the messages that come during a pause, the latest (or, with
    /// `latest: false`, the earliest) is passed when the pause ends, which starts another
    /// (a throttle on both edges; the last message of a burst is never lost with
    /// `latest: true`).
    ///
    /// ```swift
    /// query.didSet.throttle(pause: .milliseconds(300), latest: true).then { search($0) }.append(to: observables)
    /// ```
    ///
    /// A message passed at the end of a pause is sent from the modifier's executor (for a
    /// `noDispatch()` chain, from the scheduler's thread).
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(
        pause: Duration, latest: Bool, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> PacedModifier<Message> {
        precondition(pause >= .zero, "throttle(pause:latest:) needs a pause of zero or more, got \(pause)")
        return PacedModifier(
            upstream: self,
            core: PacedCore(upstream: self, rule: .throttle(latest: latest), pause: pause, scheduler: scheduler))
    }

    /// Throttles on the edges chosen, in RxJS's terms (`throttleTime` with `leading` and
    /// `trailing`): a message that comes while no pause is running starts one, and passes at
    /// once if `leading`; if `trailing`, the latest message of a pause (or the one that
    /// started it, if not `leading`) passes when the pause ends, and starts another.
    ///
    /// ```swift
    /// edits.didSet.throttle(pause: .seconds(1), leading: false, trailing: true).then { save($0) }
    ///     .append(to: observables)
    /// ```
    ///
    /// `leading` alone is ``throttle(pause:scheduler:)``, both are
    /// ``throttle(pause:latest:scheduler:)`` with `latest: true`, and `trailing` alone is
    /// ReactiveCore's `PacingRule.trailingThrottle`. A message passed at the end of a pause is
    /// sent from the modifier's executor (for a `noDispatch()` chain, from the scheduler's
    /// thread).
    ///
    /// - Precondition: `pause` is not negative, and `leading` or `trailing` is true.
    public func throttle(
        pause: Duration, leading: Bool, trailing: Bool, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> PacedModifier<Message> {
        precondition(pause >= .zero, "throttle(pause:leading:trailing:) needs a pause of zero or more, got \(pause)")
        let rule = PacingRule.throttle(leading: leading, trailing: trailing)
        return PacedModifier(
            upstream: self, core: PacedCore(upstream: self, rule: rule, pause: pause, scheduler: scheduler))
    }

    /// Passes on a message once `pause` has passed without another message; each message
    /// restarts the wait, and only the last one of a burst passes (trailing-edge debounce).
    ///
    /// ```swift
    /// query.didSet.debounce(pause: .milliseconds(300)).then { search($0) }.append(to: observables)
    /// ```
    ///
    /// The passed message is sent from the modifier's executor (for a `noDispatch()` chain,
    /// from the scheduler's thread).
    ///
    /// - Precondition: `pause` is not negative.
    public func debounce(
        pause: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> PacedModifier<Message> {
        precondition(pause >= .zero, "debounce(pause:) needs a pause of zero or more, got \(pause)")
        return PacedModifier(
            upstream: self, core: PacedCore(upstream: self, rule: .debounce, pause: pause, scheduler: scheduler))
    }
}

/// Throttles or debounces messages on a scheduler; made by
/// ``MessageSource/throttle(pause:scheduler:)``, ``MessageSource/throttle(pause:latest:scheduler:)``,
/// ``MessageSource/throttle(pause:leading:trailing:scheduler:)`` and
/// ``MessageSource/debounce(pause:scheduler:)``.
///
/// The rule is ReactiveCore's `PacingStateMachine`, kept under a lock with the running timer:
/// messages may come from any thread, and timers fire on the scheduler's.
public final class PacedModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: `rule` is a `let` of a `Sendable` type.

    /// The pacing rule.
    public let rule: PacingRule

    init(upstream: MessageSource<Message>, core: PacedCore<Message>) {
        rule = core.rule
        super.init(upstream: upstream, core: core)
    }
}

/// The work of a ``PacedModifier``.
final class PacedCore<Message: Sendable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the machine and its timer are behind `pacing`'s lock; the
    // other stored properties are `let`s of `Sendable` types.
    private struct State {
        var machine: PacingStateMachine<Message>
        var timer: Connection?
    }

    let rule: PacingRule
    private let scheduler: any Scheduler
    private let pacing: LockedState<State>

    init(upstream: MessageSource<Message>, rule: PacingRule, pause: Duration, scheduler: some Scheduler) {
        self.rule = rule
        self.scheduler = scheduler
        pacing = LockedState(State(machine: PacingStateMachine(rule, pause: pause)))
        super.init(upstream: upstream)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        let passed = step { machine, now in
            switch machine.receive(message, at: now) {
            case .pass(let message, let timer): (message, timer)
            case .startTimer(let timer): (nil, timer)
            case .hold, .drop: (nil, nil)
            }
        }
        if let passed { send(passed) }
    }

    private func timerFired(_ timer: PacingTimer) {
        let passed = step { machine, now in
            switch machine.timerFired(timer, at: now) {
            case .pass(let message, let next): (message, next)
            case .startTimer(let next): (nil, next)
            case .none: (nil, nil)
            }
        }
        if let passed { runSide(inline: false) { self.send(passed) } }
    }

    /// Runs one step of the machine under the lock and starts the timer it asks for there, so
    /// that the timer kept is always the machine's latest one (scheduling never runs the work
    /// at once, so it may be called under the lock). Returns the message to pass, if any.
    private func step(
        _ body: (inout PacingStateMachine<Message>, SchedulerInstant) -> (Message?, PacingTimer?)
    ) -> Message? {
        let now = scheduler.now
        var replaced: Connection?
        let passed = pacing.withLock { state in
            let (passed, timer) = body(&state.machine, now)
            if let timer {
                replaced = state.timer
                // Held strongly: `detach()` cancels the timer, which ends that cycle.
                state.timer = scheduler.schedule(at: timer.deadline) { [self] in timerFired(timer) }
            }
            return passed
        }
        // Outside the lock: cancelling takes the scheduler's.
        replaced?.disconnect()
        return passed
    }

    /// At the end, a message held for the end of a pause or a wait passes at once (the last
    /// message of a burst is not lost), then the end.
    override func processCompletion(_ completion: Completion<any Error>) {
        let held = pacing.withLock { state -> Message? in
            guard case .finished = completion else { return nil }
            return state.machine.held
        }
        if let held { send(held) }
        finish(completion)
    }

    @discardableResult
    override func detach() -> Bool {
        let timer = pacing.withLock { state in
            state.machine.cancel()
            defer { state.timer = nil }
            return state.timer
        }
        timer?.disconnect()
        return super.detach()
    }
}
