import Dispatch

extension MessageSource {
    /// Passes a message only if at least `pause` has passed since the last message it
    /// passed; discards messages that come sooner (leading-edge throttle).
    ///
    /// ```swift
    /// clicks.fired.throttle(pause: .milliseconds(500)).then { submit() }
    /// ```
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(
        pause: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> ThrottleModifier<Message> {
        precondition(pause >= .zero, "throttle(pause:) needs a pause of zero or more, got \(pause)")
        return ThrottleModifier(upstream: self, pause: pause, scheduler: scheduler).attach()
    }
}

/// Discards messages that come too fast; made by ``MessageSource/throttle(pause:scheduler:)``.
public final class ThrottleModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: the time of the last passed message is behind a lock.
    private let pause: Duration
    private let scheduler: any Scheduler
    private let lastPassed = LockedState<SchedulerInstant?>(nil)

    init(upstream: MessageSource<Message>, pause: Duration, scheduler: some Scheduler) {
        self.pause = pause
        self.scheduler = scheduler
        super.init(upstream: upstream)
    }

    override func process(_ message: Message) {
        let now = scheduler.now
        let passes = lastPassed.withLock { lastPassed in
            if let last = lastPassed, now - last < pause { return false }
            lastPassed = now
            return true
        }
        if passes { send(message) }
    }
}
