/// Something modifiers connect to: a source's endpoint (`signal.fired`,
/// `property.didSet`, `timer.fired`) or a modifier in a chain.
///
/// An observable sends each message to the modifiers connected to it and remembers the
/// last one: a modifier that connects later receives that last message at once (see
/// <doc:Semantics>). Observables hold the modifiers connected to them weakly; each modifier
/// holds what it is connected to, so a chain lives as long as its last modifier, which an
/// ``ObservableCollection`` keeps.
///
/// All observables are `Sendable` and may be used from any thread.
public class Observable<Message: Sendable>: @unchecked Sendable {
    // `@unchecked` only because a non-final class cannot be checked: every stored property
    // here and in every subclass is a `let` of a `Sendable` type (state is behind locks).

    private struct State: Sendable {
        var receivers: [WeakReceiver<Message>] = []
        var last: Message?
        /// The sequence number of `last`, for sources whose writers race (``Property``).
        var lastSequence: UInt64 = 0
    }

    private let state: LockedState<State>
    /// Where modifiers connected to this observable run by default.
    let downstreamExecutor: Executor
    /// Where this observable sends its messages from (`nil`: any thread, for sources).
    let emittingExecutor: Executor?

    init(last: Message? = nil, emittingExecutor: Executor?, downstreamExecutor: Executor) {
        state = LockedState(State(last: last))
        self.emittingExecutor = emittingExecutor
        self.downstreamExecutor = downstreamExecutor
    }

    /// The last message sent, if any: what a newly connected modifier receives.
    public var lastMessage: Message? {
        state.withLock { $0.last }
    }

    /// How many modifiers are connected.
    public var connectedCount: Int {
        // Weak references are loaded outside the lock (see `connect(_:)`).
        let receivers = state.withLock { $0.receivers }
        return receivers.count { $0.receiver != nil }
    }

    /// Sends `message` to every connected modifier, and remembers it.
    func send(_ message: Message) {
        let receivers = state.withLock { state in
            state.last = message
            return state.receivers
        }
        for box in receivers { box.receiver?.receive(message) }
    }

    /// Sends `message`, numbered `sequence` by a source whose writes can race; it is
    /// remembered only if no later-numbered message was sent first.
    func send(_ message: Message, sequence: UInt64) {
        let receivers = state.withLock { state in
            if sequence > state.lastSequence {
                state.last = message
                state.lastSequence = sequence
            }
            return state.receivers
        }
        for box in receivers { box.receiver?.receive(message) }
    }

    /// Connects `receiver`; returns the last message, which it is owed.
    ///
    /// The lock never loads a weak reference: a loaded reference is a strong one, and if its
    /// release were the last, the receiver's `deinit` would run inside the lock and call
    /// `disconnect(_:)`, which needs the same lock. Receivers disconnect themselves in their
    /// `deinit`, so entries are removed by identity and none is left behind.
    func connect(_ receiver: some MessageReceiver<Message>) -> Message? {
        let entry = WeakReceiver<Message>(receiver: receiver)
        return state.withLock { state in
            state.receivers.append(entry)
            return state.last
        }
    }

    /// Disconnects this observable from what it observes; endpoints observe nothing.
    func detachFromUpstream() {}

    /// Disconnects `receiver`.
    func disconnect(_ receiver: AnyObject) {
        let identity = ObjectIdentifier(receiver)
        let removed = state.withLock { state -> [WeakReceiver<Message>] in
            guard let index = state.receivers.firstIndex(where: { $0.identity == identity }) else { return [] }
            return [state.receivers.remove(at: index)]
        }
        _ = removed
    }
}

/// Takes messages from an observable.
protocol MessageReceiver<Input>: AnyObject, Sendable {
    associatedtype Input: Sendable
    func receive(_ message: Input)
}

/// A receiver held weakly: observables do not keep their modifiers alive.
struct WeakReceiver<Message: Sendable>: Sendable {
    weak var receiver: (any MessageReceiver<Message>)?
    /// The receiver's identity, for removing it without loading the weak reference.
    let identity: ObjectIdentifier

    init(receiver: some MessageReceiver<Message>) {
        self.receiver = receiver
        identity = ObjectIdentifier(receiver)
    }
}

extension Observable: Subscribable {
    /// Delivers the last message at once, if there is one, then every later message, until
    /// the connection disconnects: the common module's uniform view.
    ///
    /// The sink runs inline on the delivering thread, as after ``noDispatch()``.
    public func subscribe(_ sink: @escaping @Sendable (Message) -> Void) -> Connection {
        let modifier = ThenModifier(upstream: self, executor: .inline, action: sink).attach()
        return Connection { modifier.detach() }
    }
}
