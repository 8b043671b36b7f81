import Dispatch

extension MessageSource {
    /// Passes on a message once `pause` has passed without another message; each message
    /// restarts the wait, and only the last one of a burst passes (trailing-edge debounce).
    ///
    /// ```swift
    /// query.didSet.debounce(pause: .milliseconds(300)).then { search($0) }
    /// ```
    ///
    /// - Precondition: `pause` is not negative.
    public func debounce(
        pause: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())
    ) -> DebounceModifier<Message> {
        precondition(pause >= .zero, "debounce(pause:) needs a pause of zero or more, got \(pause)")
        return DebounceModifier(upstream: self, pause: pause, scheduler: scheduler).attach()
    }
}

/// Passes on the last message of each burst; made by ``MessageSource/debounce(pause:scheduler:)``.
///
/// The passed message is sent from the modifier's executor (for a `noDispatch()` chain, from
/// the scheduler's thread).
public final class DebounceModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: the pending timer is behind a lock.
    private let pause: Duration
    private let scheduler: any Scheduler
    private let pending = LockedState<Connection?>(nil)

    init(upstream: MessageSource<Message>, pause: Duration, scheduler: some Scheduler) {
        self.pause = pause
        self.scheduler = scheduler
        super.init(upstream: upstream)
    }

    override func process(_ message: Message) {
        let timer = scheduler.schedule(after: pause) { [weak self] in
            guard let self else { return }
            executor.run { self.send(message) }
        }
        let previous = pending.withLock { pending in
            defer { pending = timer }
            return pending
        }
        previous?.disconnect()
    }

    override func detach() {
        pending.withLock { $0 }?.disconnect()
        super.detach()
    }
}
