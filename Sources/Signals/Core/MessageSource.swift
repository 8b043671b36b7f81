import ReactiveCore

/// Something modifiers connect to: a source's endpoint (`signal.fired`,
/// `property.didSet`, `timer.fired`) or a modifier in a chain.
///
/// An observable sends each message to the modifiers connected to it and remembers the
/// last one: a modifier that connects later receives that last message at once (see
/// <doc:Semantics>). An observable does not keep the modifiers connected to it alive; each
/// modifier holds what it is connected to, so a chain lives as long as its last modifier,
/// which an ``ObservableCollection`` keeps.
///
/// All observables are `Sendable` and may be used from any thread.
///
/// The seed calls these "observables". The type is named `MessageSource` so that it does not
/// collide with Observation's `Observable` in a file that imports both (SwiftUI imports
/// Observation).
public class MessageSource<Message: Sendable>: @unchecked Sendable {
    // `@unchecked`: a non-final class cannot be checked. Every stored property here and in
    // every subclass is a `let` of a `Sendable` type.

    /// The state and delivery: the endpoint's own relay, a modifier's core, or (for a
    /// ``DispatchModifier``) the relay of what it views.
    @usableFromInline let relay: Relay<Message>
    /// Where modifiers connected to this observable run by default.
    let downstreamExecutor: Executor

    init(relay: Relay<Message>, downstreamExecutor: Executor) {
        self.relay = relay
        self.downstreamExecutor = downstreamExecutor
    }

    /// Where a ``subscribe(_:)`` sink runs: inline, except on a dispatch view.
    var subscriberExecutor: Executor { .inline }

    /// The last message sent, if any: what a newly connected modifier receives. `nil` once
    /// the stream ended: a newly connected modifier then receives the ``completion``.
    public var lastMessage: Message? {
        relay.lastMessage
    }

    /// How the stream ended, or `nil` while it has not: what a newly connected modifier
    /// receives instead of a last message (see <doc:Semantics>).
    public var completion: Completion<any Error>? {
        relay.endedWith
    }

    /// How many modifiers are connected.
    public var connectedCount: Int {
        relay.connectedCount
    }

    /// Disconnects this observable from what it observes; endpoints observe nothing.
    func detachFromUpstream() {}
}

extension MessageSource: CompletableSubscribable {
    /// Delivers the last message at once, if there is one, then every later message and the
    /// end, if the stream ends, until the connection disconnects: the common module's uniform
    /// view of a stream that ends.
    ///
    /// The sink runs inline on the delivering thread, as after ``noDispatch()`` (on a dispatch
    /// view, on the view's executor, as for ``subscribe(_:)``). After the end, the connection reports itself disconnected. Disconnecting sends nothing to the
    /// sink (the subscriber asked for it), unlike removing a chain with
    /// ``onEnd(_:)``, which is told `.interrupted`.
    ///
    /// Disfavored, so that `subscribe { value in … }` with a trailing closure is the values-only
    /// ``subscribe(_:)``.
    @_disfavoredOverload
    public func subscribe(events sink: @escaping @Sendable (StreamEvent<Message, any Error>) -> Void) -> Connection {
        let own = LockedState(SelfConnection())
        let modifier = ThenModifier(
            upstream: self,
            core: EndCore(
                upstream: self, executor: subscriberExecutor, onValue: { sink(.value($0)) },
                onEnd: { completion in
                    sink(.completion(completion))
                    own.withLock { $0.take() }?.disconnect()
                }, interruptsOnDetach: false))
        let connection = Connection {
            own.withLock { $0.release() }
            modifier.detach()
        }
        // Kept first, then checked: an end that came before (or while) it was kept takes it
        // out here, one that comes after takes it out in `onEnd`; `take()` hands it out once.
        own.withLock { $0.set(connection) }
        if modifier.completion != nil { own.withLock { $0.take() }?.disconnect() }
        return connection
    }
}

extension MessageSource: Subscribable {
    /// Delivers the last message at once, if there is one, then every later message, until
    /// the connection disconnects: the common module's uniform view.
    ///
    /// The sink runs inline on the delivering thread, as after ``noDispatch()``; subscribed to
    /// a ``dispatch(to:)`` or ``dispatch(qos:)`` view, it runs on the view's executor, as a
    /// modifier connected to the view would (so `property.didSet.dispatch(to: queue)` is a
    /// `Subscribable` that delivers on `queue`).
    public func subscribe(_ sink: @escaping @Sendable (Message) -> Void) -> Connection {
        let modifier = ThenModifier(
            upstream: self, core: OperatorCore.make(upstream: self, executor: subscriberExecutor, work: thenWork(sink)))
        return Connection { modifier.detach() }
    }
}
