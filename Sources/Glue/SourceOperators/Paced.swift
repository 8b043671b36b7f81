extension SourceType {
    /// A source that sends a value at once if no pause is running, then lets at most one
    /// value through per `pause`: of the values that arrive during a pause, the latest (or,
    /// with `latest: false`, the earliest) is sent when the pause ends, which starts another.
    ///
    /// ```swift
    /// let requests = typed.throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
    /// ```
    ///
    /// Each subscription paces on its own, with ReactiveCore's `PacingStateMachine` (the
    /// rule `.throttle(latest:)`). The scheduler runs the pauses in Glue's isolation domain,
    /// as for ``TimerSource``. Disconnecting drops the value held for the end of a pause.
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(pause: Duration, latest: Bool, scheduler: some Scheduler) -> PacedSource<Self> {
        PacedSource(base: self, rule: .throttle(latest: latest), pause: pause, scheduler: scheduler)
    }

    /// A source that sends a value if no value was sent in the `pause` before it, and drops
    /// it otherwise (a leading-edge throttle: the rule `.leadingThrottle`).
    ///
    /// ```swift
    /// let submits = clicks.throttle(pause: .seconds(1), scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(pause: Duration, scheduler: some Scheduler) -> PacedSource<Self> {
        PacedSource(base: self, rule: .leadingThrottle, pause: pause, scheduler: scheduler)
    }

    /// A source throttled on the edges chosen, in RxJS's terms (`throttleTime` with
    /// `leading` and `trailing`): a value that arrives while no pause is running starts one,
    /// and passes at once if `leading`; if `trailing`, the latest value that arrived during
    /// a pause (or the one that started it, if not `leading`) passes when it ends, and starts
    /// another.
    ///
    /// ```swift
    /// let saves = edits.throttle(pause: .seconds(1), leading: false, trailing: true, scheduler: scheduler)
    /// ```
    ///
    /// `leading` alone is ``throttle(pause:scheduler:)`` (the rule `.leadingThrottle`), both
    /// are ``throttle(pause:latest:scheduler:)`` with `latest: true`, and `trailing` alone is
    /// the rule `.trailingThrottle`.
    ///
    /// - Precondition: `pause` is not negative, and `leading` or `trailing` is true.
    public func throttle(pause: Duration, leading: Bool, trailing: Bool, scheduler: some Scheduler) -> PacedSource<Self>
    {
        PacedSource(
            base: self, rule: .throttle(leading: leading, trailing: trailing), pause: pause, scheduler: scheduler)
    }

    /// A source that sends a value once `pause` has passed without another one: only the last
    /// value of a burst is sent, a pause after it (the rule `.debounce`).
    ///
    /// ```swift
    /// let searches = typed.debounce(pause: .milliseconds(300), scheduler: scheduler)
    /// ```
    ///
    /// Disconnecting drops the value waiting to be sent.
    ///
    /// - Precondition: `pause` is not negative.
    public func debounce(pause: Duration, scheduler: some Scheduler) -> PacedSource<Self> {
        PacedSource(base: self, rule: .debounce, pause: pause, scheduler: scheduler)
    }
}

/// A source whose values are throttled or debounced on a scheduler; made by
/// ``SourceType/throttle(pause:latest:scheduler:)``, ``SourceType/throttle(pause:scheduler:)``,
/// ``SourceType/throttle(pause:leading:trailing:scheduler:)`` and
/// ``SourceType/debounce(pause:scheduler:)``.
public struct PacedSource<Base: SourceType>: SourceType {
    private let base: Base
    /// The pacing rule.
    public let rule: PacingRule
    /// The length of a pause.
    public let pause: Duration
    private let scheduler: any Scheduler

    init(base: Base, rule: PacingRule, pause: Duration, scheduler: some Scheduler) {
        precondition(pause >= .zero, "Glue: throttle and debounce need a pause of zero or more, got \(pause)")
        self.base = base
        self.rule = rule
        self.pause = pause
        self.scheduler = scheduler
    }

    /// Starts sending the paced values to `sink`; each subscription has its own pauses.
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        Pacer.connect(rule, pause: pause, scheduler: scheduler, subscribe: base.subscribe, output: sink)
    }
}
