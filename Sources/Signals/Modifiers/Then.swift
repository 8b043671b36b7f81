extension MessageSource {
    /// Runs `action` with each message, then passes the message on.
    ///
    /// ```swift
    /// signal.fired.then { print($0) }.append(to: observables)
    /// ```
    ///
    /// `action` runs on the chain's executor: the main queue unless the chain says otherwise.
    public func then(do action: @escaping @Sendable (Message) -> Void) -> ThenModifier<Message> {
        ThenModifier(upstream: self, action: action).attach()
    }

    /// Calls `method` on `target` with each message, then passes the message on. `target` is
    /// held weakly: once it is gone, the call is skipped and messages still pass.
    ///
    /// ```swift
    /// property.didSet.then(call: ViewModel.update, on: viewModel).append(to: observables)
    /// ```
    public func then<Target: AnyObject & Sendable>(
        call method: @escaping @Sendable (Target) -> @Sendable (Message) -> Void, on target: Target
    ) -> ThenModifier<Message> {
        let weakTarget = WeakTarget(target)
        return ThenModifier(upstream: self) { message in
            if let target = weakTarget.target { method(target)(message) }
        }.attach()
    }
}

/// Runs an action with each message; made by ``MessageSource/then(do:)`` and
/// ``MessageSource/then(call:on:)``.
public final class ThenModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: the only stored property is a `@Sendable` closure.
    private let action: @Sendable (Message) -> Void

    init(upstream: MessageSource<Message>, executor: Executor? = nil, action: @escaping @Sendable (Message) -> Void) {
        self.action = action
        super.init(upstream: upstream, executor: executor)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        action(message)
        send(message, sequence: sequence)
    }
}

/// A weak reference that can cross threads.
final class WeakTarget<Target: AnyObject & Sendable>: Sendable {
    weak let target: Target?

    init(_ target: Target) {
        self.target = target
    }
}
