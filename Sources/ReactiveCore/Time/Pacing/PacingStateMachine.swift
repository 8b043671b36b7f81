/// How a pacer lets values through over time: the three rules of throttling and debouncing.
///
/// For example, with a pause of 3 seconds and values `a`, `b`, `c`, `d`, `e` arriving at 0, 1,
/// 2, 6 and 8 seconds:
///
/// | rule | passes |
/// | --- | --- |
/// | ``leadingThrottle`` | `a` at 0, `d` at 6 |
/// | ``throttle(latest:)`` with `true` | `a` at 0, `c` at 3, `d` at 6, `e` at 9 |
/// | ``throttle(latest:)`` with `false` | `a` at 0, `b` at 3, `d` at 6, `e` at 9 |
/// | ``trailingThrottle`` | `c` at 3, `e` at 9 |
/// | ``debounce`` | `c` at 5, `e` at 11 |
public enum PacingRule: Hashable, Sendable {
    /// A leading-edge throttle: a value that arrives while no pause is running passes at once
    /// and starts a pause; values that arrive during the pause are dropped.
    case leadingThrottle
    /// A throttle on both edges: a value that arrives while no pause is running passes at once
    /// and starts a pause; of the values that arrive during the pause, one is held (the
    /// latest if `latest` is true, else the earliest) and passes when the pause ends, which
    /// starts another pause. A pause in which nothing arrived ends the throttling.
    ///
    /// So two values passed are always at least a pause apart, and the last value of a burst
    /// always passes (with `latest: true`).
    case throttle(latest: Bool)
    /// A trailing-edge throttle: a value that arrives while no pause is running is held and
    /// starts a pause; a value that arrives during the pause replaces the held one; when the
    /// pause ends, the held value passes and starts another pause. A pause in which nothing
    /// arrived ends the throttling. (RxJS's `throttleTime` with `leading: false` and
    /// `trailing: true`.)
    ///
    /// So nothing passes at the moment it arrives (with a pause of zero, everything does),
    /// two values passed are at least a pause apart, and the last value of a burst passes.
    case trailingThrottle
    /// A trailing-edge debounce: a value passes once a whole pause has gone by without another
    /// value; each value restarts the wait, so only the last value of a burst passes.
    case debounce
}

extension PacingRule {
    /// The throttle that passes values on the edges chosen, in RxJS's terms (`throttle` and
    /// `throttleTime` with `leading` and `trailing`): ``leadingThrottle`` for the leading edge
    /// alone, ``throttle(latest:)`` with `latest: true` for both, ``trailingThrottle`` for
    /// the trailing edge alone.
    ///
    /// - Precondition: `leading` or `trailing` is true (a throttle on neither edge would pass
    ///   nothing).
    public static func throttle(leading: Bool, trailing: Bool) -> PacingRule {
        switch (leading, trailing) {
        case (true, false): .leadingThrottle
        case (true, true): .throttle(latest: true)
        case (false, true): .trailingThrottle
        case (false, false):
            preconditionFailure("a throttle needs its leading or its trailing edge, or both; got neither")
        }
    }
}

/// A timer a pacer asks its storage to start: when the scheduler reaches `deadline`, call
/// ``PacingStateMachine/timerFired(_:at:)`` with it.
public struct PacingTimer: Hashable, Sendable {
    /// When the timer is due.
    public let deadline: SchedulerInstant
    /// Tells this timer from earlier ones: a timer that fires after it was replaced or
    /// cancelled is recognised and ignored.
    let generation: UInt64
}

/// The rule of a throttle or a debounce, apart from time and storage.
///
/// The machine holds only the pacing state (whether a pause runs, until when, and the value
/// held for its end). It never reads a clock and never runs anything: its owner (a storage)
/// passes in the current instant, and carries out the action each call returns: pass a value
/// on, start a timer (replacing any timer started before), or nothing. Keeping the rule apart
/// lets one machine serve storages of every kind: ``Pacer`` for one isolation domain, a
/// locked storage for thread-safe chains, a value in a reducer's state.
///
/// ```swift
/// var machine = PacingStateMachine<String>(.throttle(latest: true), pause: .milliseconds(300))
/// switch machine.receive("s", at: scheduler.now) {
/// case .pass(let value, let timer):
///     send(value)
///     if let timer { start(timer) }
/// case .startTimer(let timer):
///     start(timer)
/// case .hold, .drop:
///     break   // nothing to do now
/// }
/// ```
///
/// A pause ends when its timer fires, not when the clock passes its deadline: with a real
/// scheduler, a late timer lengthens the pause (the leading-edge throttle, which needs no
/// timer, compares instants instead). Pauses of zero are allowed: a throttle then passes
/// every value at once, and a debounce passes the values that arrive before its timer runs
/// as one, the last of them.
public struct PacingStateMachine<Value> {
    /// What to do with a value that arrived.
    public enum ReceiveAction {
        /// Pass `value` on now; if `timer` is not `nil`, start it first (it ends the pause the
        /// value starts).
        case pass(Value, startTimer: PacingTimer?)
        /// Start `timer`, replacing the one running if any; pass nothing now.
        case startTimer(PacingTimer)
        /// The value is held, to pass later (or to be replaced by a later one); nothing to do.
        case hold
        /// The value is dropped; nothing to do.
        case drop
    }

    /// What to do when a timer fired.
    public enum TimerAction {
        /// Pass `value` on now; if `timer` is not `nil`, start it first (a throttle's next
        /// pause).
        case pass(Value, startTimer: PacingTimer?)
        /// Start `timer`: the debounce's deadline moved while the timer ran.
        case startTimer(PacingTimer)
        /// Nothing: the pause ended with nothing held, or the timer was replaced or cancelled.
        case none
    }

    fileprivate enum State {
        /// No pause is running and nothing is held.
        case idle
        /// A throttle's pause runs until `end` (its timer's deadline, or for the leading-edge
        /// throttle, which has no timer, the instant it ends), with the value to pass then.
        case pausing(end: SchedulerInstant, held: Value?)
        /// A debounce waits to pass `held` at `deadline`; its timer is due at `timerDeadline`,
        /// which is earlier when values came after the timer was started.
        case waiting(held: Value, deadline: SchedulerInstant, timerDeadline: SchedulerInstant)
    }

    /// The rule this machine follows.
    public let rule: PacingRule
    /// How long a pause lasts.
    public let pause: Duration
    private var state = State.idle
    /// The generation of the timer last started; earlier ones are stale.
    private var generation: UInt64 = 0

    /// A machine that paces values by `rule`, with pauses of `pause`.
    ///
    /// - Precondition: `pause` is not negative.
    public init(_ rule: PacingRule, pause: Duration) {
        precondition(pause >= .zero, "PacingStateMachine needs a pause of zero or more, got \(pause)")
        self.rule = rule
        self.pause = pause
    }

    /// The value held to pass later, if any.
    public var held: Value? {
        switch state {
        case .idle: nil
        case .pausing(_, let held): held
        case .waiting(let held, _, _): held
        }
    }

    /// Whether a pause or a wait is running (or, for the leading-edge throttle, ran until an
    /// instant not yet known to have passed).
    public var isPacing: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Takes in `value`, arrived at `now`, and says what to do.
    public mutating func receive(_ value: Value, at now: SchedulerInstant) -> ReceiveAction {
        defer { checkInvariantsAfterOperation() }
        switch rule {
        case .leadingThrottle:
            if case .pausing(let end, _) = state, now < end { return .drop }
            state = .pausing(end: now + pause, held: nil)
            return .pass(value, startTimer: nil)
        case .throttle(let latest):
            switch state {
            case .pausing(let end, let held):
                if held != nil && !latest { return .drop }
                state = .pausing(end: end, held: value)
                return .hold
            case .idle, .waiting:
                if pause == .zero { return .pass(value, startTimer: nil) }
                let timer = nextTimer(at: now + pause)
                state = .pausing(end: timer.deadline, held: nil)
                return .pass(value, startTimer: timer)
            }
        case .trailingThrottle:
            if pause == .zero { return .pass(value, startTimer: nil) }
            if case .pausing(let end, _) = state {
                state = .pausing(end: end, held: value)
                return .hold
            }
            let timer = nextTimer(at: now + pause)
            state = .pausing(end: timer.deadline, held: value)
            return .startTimer(timer)
        case .debounce:
            let deadline = now + pause
            if case .waiting(_, _, let timerDeadline) = state {
                // The running timer fires first and starts another for the new deadline:
                // no timer is cancelled and made again for each value of a burst.
                state = .waiting(held: value, deadline: deadline, timerDeadline: timerDeadline)
                return .hold
            }
            let timer = nextTimer(at: deadline)
            state = .waiting(held: value, deadline: deadline, timerDeadline: deadline)
            return .startTimer(timer)
        }
    }

    /// Takes in that `timer` fired at `now`, and says what to do.
    public mutating func timerFired(_ timer: PacingTimer, at now: SchedulerInstant) -> TimerAction {
        defer { checkInvariantsAfterOperation() }
        guard timer.generation == generation else { return .none }
        switch state {
        case .idle:
            return .none
        case .pausing(_, let held):
            guard let held else {
                state = .idle
                return .none
            }
            // The held value passes and starts the next pause.
            let next = nextTimer(at: now + pause)
            state = .pausing(end: next.deadline, held: nil)
            return .pass(held, startTimer: next)
        case .waiting(let held, let deadline, _):
            if now < deadline {
                let next = nextTimer(at: deadline)
                state = .waiting(held: held, deadline: deadline, timerDeadline: deadline)
                return .startTimer(next)
            }
            state = .idle
            return .pass(held, startTimer: nil)
        }
    }

    /// Drops the held value and ends any pause; a timer running now is stale from here on.
    ///
    /// - Returns: Whether a timer was running, which the storage should now cancel.
    @discardableResult
    public mutating func cancel() -> Bool {
        defer { checkInvariantsAfterOperation() }
        let hadTimer: Bool
        switch state {
        case .idle: hadTimer = false
        case .pausing: hadTimer = rule != .leadingThrottle
        case .waiting: hadTimer = true
        }
        state = .idle
        generation &+= 1
        return hadTimer
    }

    private mutating func nextTimer(at deadline: SchedulerInstant) -> PacingTimer {
        generation &+= 1
        return PacingTimer(deadline: deadline, generation: generation)
    }
}

// MARK: - Invariants (Documentation/Internals/ReactiveCore.md)

extension PacingStateMachine {
    @inline(__always)
    private func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks P5, stopping with a message that names it when broken. Does nothing unless the
    /// module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            switch (rule, state) {
            case (_, .idle):
                break
            case (.leadingThrottle, .pausing(_, let held)):
                reactiveCoreCheck(held == nil, "P5", "a leading-edge throttle holds a value")
            case (.throttle, .pausing), (.trailingThrottle, .pausing):
                break
            case (.debounce, .waiting(_, let deadline, let timerDeadline)):
                reactiveCoreCheck(
                    timerDeadline <= deadline, "P5", "a debounce's timer is due after the value it waits to pass")
            default:
                reactiveCoreCheck(false, "P5", "the state \(state) does not belong to the rule \(rule)")
            }
        #endif
    }
}

extension PacingStateMachine: Sendable where Value: Sendable {}
extension PacingStateMachine.State: Sendable where Value: Sendable {}
extension PacingStateMachine.ReceiveAction: Sendable where Value: Sendable {}
extension PacingStateMachine.TimerAction: Sendable where Value: Sendable {}
