/// A timer a stream operator's machine asks its owner to start: when the scheduler reaches
/// ``deadline``, tell the machine that this timer fired. A timer that fires after the machine
/// replaced or cancelled it is recognised and ignored.
public struct StreamTimer: Hashable, Sendable {
    /// When the timer is due.
    public let deadline: SchedulerInstant
    /// Tells this timer from earlier ones.
    let generation: UInt64
}

/// The rule of `timeout`: the stream times out if `interval` passes without a value, counted
/// from the subscription and then from each value (``Rule/each``), or from the subscription
/// to the first value only (``Rule/first``: once a value came, no timer runs).
///
/// What timing out does is the owner's: end the stream (or fail it), or switch to a fallback
/// stream. From then on the machine is finished, and a value of the stream that still
/// arrives (from another thread, or already on its way) is not passed.
///
/// ```swift
/// var machine = TimeoutStateMachine(interval: .seconds(5))
/// let first = machine.start(at: .zero)                    // due at 5 s
/// let second = machine.receive(at: .zero + .seconds(2))   // a value: due at 7 s instead
/// let stale = machine.timerFired(first)                   // false: replaced
/// let timedOut = machine.timerFired(second!)              // true: the stream times out
/// ```
public struct TimeoutStateMachine {
    /// Which silence times the stream out.
    public enum Rule: Hashable, Sendable {
        /// `interval` without a value, at any time: counted from the subscription, then
        /// again from each value (Combine's `timeout`, RxJS's `timeout({ each })`).
        case each
        /// `interval` before the first value: counted from the subscription; once a value
        /// came, the stream never times out (RxJS's `timeout({ first })`).
        case first
    }

    /// How long the stream may go without a value.
    public let interval: Duration
    /// Which silence times the stream out.
    public let rule: Rule
    private var generation: UInt64 = 0
    /// Whether the stream timed out or ended.
    public private(set) var isFinished = false
    /// Whether a timer is to run: false once the first value came under ``Rule/first``, and
    /// once the stream ended.
    public private(set) var isWatching = true

    /// A machine that times out after `interval` without a value, by `rule`.
    ///
    /// - Precondition: `interval` is positive.
    public init(interval: Duration, rule: Rule = .each) {
        precondition(interval > .zero, "timeout needs a positive interval, got \(interval)")
        self.interval = interval
        self.rule = rule
    }

    /// The subscription starts at `now`: the timer to start.
    public mutating func start(at now: SchedulerInstant) -> StreamTimer {
        restart(at: now)
    }

    /// A value arrived at `now`: the timer that replaces the running one, or `nil` when no
    /// timer is to run any more (the first value under ``Rule/first``, or the stream has
    /// ended): the running timer, if any, is then stale and may be cancelled.
    public mutating func receive(at now: SchedulerInstant) -> StreamTimer? {
        guard isWatching else { return nil }
        switch rule {
        case .each:
            return restart(at: now)
        case .first:
            stopWatching()
            return nil
        }
    }

    /// `timer` fired: whether the stream times out now (false for a replaced timer, or once
    /// no timer is to run).
    public mutating func timerFired(_ timer: StreamTimer) -> Bool {
        guard isWatching, timer.generation == generation else { return false }
        isFinished = true
        isWatching = false
        return true
    }

    /// The stream ended otherwise: every timer is stale from now on.
    public mutating func finish() {
        isFinished = true
        stopWatching()
    }

    private mutating func stopWatching() {
        isWatching = false
        generation += 1
    }

    private mutating func restart(at now: SchedulerInstant) -> StreamTimer {
        generation += 1
        return StreamTimer(deadline: now + interval, generation: generation)
    }
}

/// The rule of `collect` by time, or by time or count: a window opens with the first value
/// after the last array and closes `window` later, or as soon as it holds `maxCount` values;
/// its values go out as one array when it closes. No array is empty, and no timer runs while
/// no value waits.
///
/// ```swift
/// var machine = WindowStateMachine<Int>(window: .seconds(1), maxCount: 3)
/// var batch: [Int]?
/// if case .startTimer(let timer) = machine.receive(1, at: .zero) {   // the window opens
///     _ = machine.receive(2, at: .zero + .milliseconds(500))
///     batch = machine.timerFired(timer)                              // [1, 2], at 1 s
/// }
/// ```
public struct WindowStateMachine<Value> {
    /// What to do after a value.
    public enum Action {
        /// Nothing: the value joined the open window.
        case none
        /// The value opened a window: start `timer`, which closes it.
        case startTimer(StreamTimer)
        /// The value filled the window: pass `values` on; the window's timer is stale.
        case emit([Value])
    }

    /// How long a window stays open.
    public let window: Duration
    /// The most values a window holds, if limited.
    public let maxCount: Int?
    private var gathered: [Value] = []
    private var generation: UInt64 = 0

    /// A machine with windows of `window`, closed early at `maxCount` values if given.
    ///
    /// - Precondition: `window` is positive; `maxCount`, if given, is at least 1.
    public init(window: Duration, maxCount: Int? = nil) {
        precondition(window > .zero, "collect by time needs a positive window, got \(window)")
        if let maxCount {
            precondition(maxCount >= 1, "collect by time or count needs a count of at least 1, got \(maxCount)")
        }
        self.window = window
        self.maxCount = maxCount
    }

    /// Takes in `value`, arrived at `now`.
    public mutating func receive(_ value: Value, at now: SchedulerInstant) -> Action {
        gathered.append(value)
        if let maxCount, gathered.count >= maxCount {
            generation += 1
            return .emit(take())
        }
        guard gathered.count == 1 else { return .none }
        generation += 1
        return .startTimer(StreamTimer(deadline: now + window, generation: generation))
    }

    /// `timer` fired: the window's values to pass on, or `nil` for a stale timer.
    public mutating func timerFired(_ timer: StreamTimer) -> [Value]? {
        guard timer.generation == generation, !gathered.isEmpty else { return nil }
        generation += 1
        return take()
    }

    /// The stream ends: the open window's values, if any, to pass on before the end.
    public mutating func finish() -> [Value]? {
        generation += 1
        return gathered.isEmpty ? nil : take()
    }

    private mutating func take() -> [Value] {
        defer { gathered = [] }
        return gathered
    }
}
