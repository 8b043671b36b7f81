extension MessageSource {
    /// Runs `action` with each message, then passes the message on.
    ///
    /// ```swift
    /// signal.fired.then { print($0) }.append(to: observables)
    /// ```
    ///
    /// `action` runs on the chain's executor: the main queue unless the chain says otherwise.
    @inlinable
    public func then(do action: @escaping @Sendable (Message) -> Void) -> ThenModifier<Message> {
        ThenModifier(upstream: self, core: OperatorCore.make(upstream: self, work: thenWork(action)))
    }

    /// Calls `method` on `target` with each message, then passes the message on. `target` is
    /// held weakly: once it is gone, the call is skipped and messages still pass.
    ///
    /// ```swift
    /// property.didSet.then(call: Model.update, on: model).append(to: observables)
    /// ```
    ///
    /// The call runs on the chain's executor, like ``then(do:)``. A method isolated to the
    /// main actor takes ``then(call:on:)-5wptj`` instead, which runs it on the main actor.
    public func then<Target: AnyObject & Sendable>(
        call method: @escaping @Sendable (Target) -> @Sendable (Message) -> Void, on target: Target
    ) -> ThenModifier<Message> {
        let weakTarget = WeakTarget(target)
        return ThenModifier(
            upstream: self,
            core: OperatorCore.make(
                upstream: self,
                work: thenWork { message in
                    if let target = weakTarget.target { method(target)(message) }
                }))
    }

    /// Calls a main-actor `method` on `target` with each message, on the main actor, then
    /// passes the message on. `target` is held weakly: once it is gone, the call is skipped
    /// and messages still pass.
    ///
    /// ```swift
    /// @MainActor final class ViewController {
    ///     var title = ""
    ///     func update(_ text: String) { title = text }
    /// }
    /// let controller = ViewController()
    /// property.didSet.then(call: ViewController.update, on: controller).append(to: observables)
    /// ```
    ///
    /// Swift picks this overload for every method isolated to the main actor. The modifier
    /// runs on the main queue whatever the chain before it says: it hops there if its input
    /// arrives elsewhere (after ``noDispatch()`` or ``dispatch(to:)``), and the modifiers after
    /// it run there too, as after `dispatch(to: .main)`.
    ///
    /// (The method's partial application must be `@Sendable`, so `Target` is in practice a
    /// `Sendable` class, such as one isolated to the main actor.)
    public func then<Target: AnyObject>(
        call method: @escaping @Sendable (Target) -> @MainActor @Sendable (Message) -> Void, on target: Target
    ) -> ThenModifier<Message> {
        let weakTarget = MainActorWeakTarget(target)
        return ThenModifier(
            upstream: self,
            core: OperatorCore.make(
                upstream: self, executor: .main,
                work: thenWork { message in
                    // The modifier's executor is the main queue, which the main actor runs on.
                    MainActor.assumeIsolated {
                        if let target = weakTarget.target { method(target)(message) }
                    }
                }))
    }
}

/// Runs an action with each message; made by ``MessageSource/then(do:)`` and
/// both ``MessageSource/then(call:on:)-9aijq`` overloads.
public final class ThenModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``ThenModifier``: runs `action`, then sends the message on.
@inlinable
func thenWork<Message: Sendable>(
    _ action: @escaping @Sendable (Message) -> Void
) -> @Sendable (ModifierCore<Message, Message>, Message, UInt64?) -> Void {
    { core, message, sequence in
        action(message)
        core.sendResult(message, sequence: sequence)
    }
}

/// A weak reference that can cross threads.
final class WeakTarget<Target: AnyObject & Sendable>: Sendable {
    weak let target: Target?

    init(_ target: Target) {
        self.target = target
    }
}

/// A weak reference read only on the main actor.
final class MainActorWeakTarget<Target: AnyObject>: @unchecked Sendable {
    // `@unchecked`: `Target` need not be `Sendable`. The reference is set once, here, and read
    // only on the main actor (inside `MainActor.assumeIsolated`), so the target is only ever
    // touched there after this.
    weak let target: Target?

    init(_ target: Target) {
        self.target = target
    }
}
