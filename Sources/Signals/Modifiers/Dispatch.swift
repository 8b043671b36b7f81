import Dispatch

extension MessageSource {
    /// Runs the rest of the chain on `queue`.
    ///
    /// The modifiers after this one run their closures on `queue`, one message at a time and
    /// in the order messages arrived here, even if `queue` is concurrent (they share a private
    /// serial queue that targets it).
    public func dispatch(to queue: DispatchQueue) -> DispatchModifier<Message> {
        let executor =
            queue === DispatchQueue.main ? Executor.main : .serial(targeting: queue, label: "Signals.dispatch")
        return DispatchModifier(viewing: self, executor: executor)
    }

    /// Runs the rest of the chain on a global queue of quality of service `qos`, in order.
    ///
    /// For the main queue, use `dispatch(to: .main)`.
    public func dispatch(qos: DispatchQoS) -> DispatchModifier<Message> {
        dispatch(to: .global(qos: qos.qosClass))
    }

    /// Runs the rest of the chain inline, on whatever thread delivers the message: the
    /// firing thread, or the thread a `dispatch` before it uses.
    ///
    /// Fastest, and the closures after it must tolerate running on any thread, concurrently
    /// if several threads fire at once.
    public func noDispatch() -> DispatchModifier<Message> {
        DispatchModifier(viewing: self, executor: .inline)
    }
}

/// Says where the rest of the chain runs; made by ``MessageSource/dispatch(to:)``,
/// ``MessageSource/dispatch(qos:)`` and ``MessageSource/noDispatch()``.
///
/// Not a hop of its own: it is a view of the observable before it (the same messages, the
/// same last message, the same ``MessageSource/connectedCount``) that tells the modifiers
/// connected to it where to run. The first of them moves to that executor; the ones after it
/// run there inline.
public final class DispatchModifier<Message: Sendable>: MessageSource<Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: the only stored property is a `let` of a
    // `Sendable` type.

    /// Keeps the chain before this view alive.
    private let upstream: MessageSource<Message>

    init(viewing upstream: MessageSource<Message>, executor: Executor) {
        self.upstream = upstream
        super.init(relay: upstream.relay, downstreamExecutor: executor)
    }

    /// A subscriber runs where the view says: on its executor.
    override var subscriberExecutor: Executor { downstreamExecutor }

    /// A view connects nothing of its own; the chain behind it is removed if it feeds
    /// nothing else.
    override func detachFromUpstream() {
        guard upstream.connectedCount == 0 else { return }
        upstream.detachFromUpstream()
    }
}
