import Synchronization

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

extension MessageSource {
    /// Runs `action` when the stream finishes, and passes messages and the end on.
    ///
    /// ```swift
    /// download.fired
    ///     .then { progress in show(progress) }
    ///     .onCompleted { hideSpinner() }
    ///     .append(to: observables)
    /// ```
    ///
    /// `action` runs on the chain's executor, after every message before the end. See
    /// ``onEnd(_:)`` for every way a chain ends.
    public func onCompleted(_ action: @escaping @Sendable () -> Void) -> ThenModifier<Message> {
        onEnd({ if case .finished = $0 { action() } })
    }

    /// Runs `action` with the error when the stream fails, and passes messages and the end
    /// on.
    ///
    /// ```swift
    /// upload.fired.onFailed { error in report(error) }.append(to: observables)
    /// ```
    public func onFailed(_ action: @escaping @Sendable (any Error) -> Void) -> ThenModifier<Message> {
        onEnd({ if case .failed(let error) = $0 { action(error) } })
    }

    /// Runs `action` when the chain is interrupted: removed (or freed) before its stream
    /// ended, or ended by an upstream `interrupt()`.
    ///
    /// ```swift
    /// ticks.fired.onInterrupted { print("stopped early") }.append(to: observables)
    /// observables.removeAll()   // prints "stopped early"
    /// ```
    public func onInterrupted(_ action: @escaping @Sendable () -> Void) -> ThenModifier<Message> {
        onEnd({ if case .interrupted = $0 { action() } })
    }

    /// Runs `action` once with the way the chain ended, and passes messages and the end on.
    ///
    /// ```swift
    /// upload.fired
    ///     .onEnd { completion in
    ///         switch completion {
    ///         case .finished: print("uploaded")
    ///         case .failed(let error): print("failed: \(error)")
    ///         case .interrupted: print("cancelled")
    ///         }
    ///     }
    ///     .append(to: observables)
    /// ```
    ///
    /// A chain ends in one of three ways, and `action` runs for exactly one of them:
    ///
    /// - `.finished` or `.failed(_:)`: the stream before this modifier ended; `action` runs on
    ///   the chain's executor, after every message before the end.
    /// - `.interrupted`: the chain was removed from its ``ObservableCollection`` (or freed)
    ///   before its stream ended; `action` runs during the removal, on the thread that removes
    ///   it, as Combine runs a cancel handler; or an upstream `interrupt()` ended the stream.
    public func onEnd(_ action: @escaping @Sendable (Completion<any Error>) -> Void) -> ThenModifier<Message> {
        ThenModifier(
            upstream: self, core: EndCore(upstream: self, onValue: nil, onEnd: action, interruptsOnDetach: true))
    }
}

/// The work of a modifier that watches its stream's end: passes each message (after
/// `onValue`, if any) and runs `onEnd` exactly once, with the end or, if it is detached first
/// and `interruptsOnDetach`, with `.interrupted`.
final class EndCore<Message: Sendable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the closures are `let`s of `Sendable` types; the flag is
    // atomic.
    private let onValue: (@Sendable (Message) -> Void)?
    private let onEnd: @Sendable (Completion<any Error>) -> Void
    private let interruptsOnDetach: Bool
    /// Whether `onEnd` ran (or is running): set once, by whichever comes first.
    private let hasEnded = Atomic(false)

    init(
        upstream: MessageSource<Message>, executor: Executor? = nil, onValue: (@Sendable (Message) -> Void)?,
        onEnd: @escaping @Sendable (Completion<any Error>) -> Void, interruptsOnDetach: Bool
    ) {
        self.onValue = onValue
        self.onEnd = onEnd
        self.interruptsOnDetach = interruptsOnDetach
        super.init(upstream: upstream, executor: executor)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        onValue?(message)
        sendResult(message, sequence: sequence)
    }

    override func processCompletion(_ completion: Completion<any Error>) {
        if !hasEnded.exchange(true, ordering: .acquiringAndReleasing) { onEnd(completion) }
        finish(completion)
    }

    @discardableResult
    override func detach() -> Bool {
        let wasConnected = super.detach()
        if wasConnected, interruptsOnDetach, !hasEnded.exchange(true, ordering: .acquiringAndReleasing) {
            onEnd(.interrupted)
        }
        return wasConnected
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
