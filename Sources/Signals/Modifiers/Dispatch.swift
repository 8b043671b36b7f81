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
        return DispatchModifier(upstream: self, core: DispatchCore(upstream: relay, executor: executor))
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
        DispatchModifier(upstream: self, core: DispatchCore(upstream: relay, executor: .inline))
    }
}

/// Moves the rest of the chain to another executor; made by ``MessageSource/dispatch(to:)``,
/// ``MessageSource/dispatch(qos:)`` and ``MessageSource/noDispatch()``.
public final class DispatchModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``DispatchModifier``: none, on its own executor.
final class DispatchCore<Message: Sendable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: no stored state of its own.
    override init(upstream: Relay<Message>, executor: Executor? = nil, last: Message? = nil) {
        super.init(upstream: upstream, executor: executor, last: last)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        send(message, sequence: sequence)
    }
}
