import Synchronization

/// A link in a chain: receives messages from what it is connected to, does its work, and
/// sends messages on to the modifiers connected to it.
///
/// Each operator (``MessageSource/then(do:)``, ``MessageSource/filter(_:)``,
/// ``MessageSource/map(_:)`` and the rest) makes a subclass. A modifier runs its work on its
/// executor: the main queue unless a `dispatch` modifier or `noDispatch()` before it in the
/// chain says otherwise. When that is where its input already arrives, it runs inline.
public class Modifier<Input: Sendable, Output: Sendable>: MessageSource<Output>, RawReceiver, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: every stored property is a `let` of a `Sendable`
    // type (`link`'s contents behind its lock, the flags and the sequence atomic).
    private let link: LockedState<Link>
    let executor: Executor
    private let runsInline: Bool
    private let isDetached = Atomic(false)
    /// Set from just before connecting until the replay and what arrived meanwhile were
    /// received: messages arriving then wait in `link.held`.
    private let isConnecting = Atomic(false)
    /// The number of the newest numbered message accepted (see ``accept(_:)``).
    private let lastSequence = Atomic<UInt64>(0)

    /// What the modifier is connected to, and the messages that arrived while it connected.
    private struct Link {
        var upstream: MessageSource<Input>?
        var held: [(message: Input, sequence: UInt64?)] = []
    }

    init(upstream: MessageSource<Input>, executor: Executor? = nil, last: Output? = nil) {
        let executor = executor ?? upstream.downstreamExecutor
        link = LockedState(Link(upstream: upstream))
        self.executor = executor
        runsInline = executor.queue == nil || executor === upstream.emittingExecutor
        super.init(last: last, emittingExecutor: executor, downstreamExecutor: executor)
    }

    /// Connects the modifier to its upstream and receives the replayed last message before
    /// any message sent after it: one sent meanwhile (by another thread, or by this one from
    /// the replay's own work) waits, and is received after the replay, in the order sent.
    func attach() -> Self {
        guard let upstream = link.withLock({ $0.upstream }) else { return self }
        isConnecting.store(true, ordering: .releasing)
        if let (owed, sequence) = upstream.connect(self) { receive(owed, sequence: sequence) }
        while true {
            let held = link.withLock { link -> [(message: Input, sequence: UInt64?)] in
                if link.held.isEmpty { isConnecting.store(false, ordering: .releasing) }
                defer { link.held = [] }
                return link.held
            }
            if held.isEmpty { return self }
            for (message, sequence) in held { receive(message, sequence: sequence) }
        }
    }

    func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {
        // Connected to an `MessageSource<Input>`, so the message is an `Input`.
        let message = message.assumingMemoryBound(to: Input.self).pointee
        if isConnecting.load(ordering: .acquiring), hold(message, sequence: sequence) { return }
        receive(message, sequence: sequence)
    }

    /// Keeps a message that arrived while the modifier connects; false if it is done.
    private func hold(_ message: Input, sequence: UInt64?) -> Bool {
        link.withLock { link in
            guard isConnecting.load(ordering: .relaxed) else { return false }
            link.held.append((message, sequence))
            return true
        }
    }

    func receive(_ message: Input, sequence: UInt64?) {
        if runsInline {
            guard !isDetached.load(ordering: .acquiring), accept(sequence) else { return }
            process(message, sequence: sequence)
        } else {
            executor.run { [self] in
                // A message queued before the chain was removed is dropped, not processed.
                guard !isDetached.load(ordering: .acquiring), accept(sequence) else { return }
                process(message, sequence: sequence)
            }
        }
    }

    /// Whether a message numbered `sequence` is to be processed: unnumbered messages always
    /// are; a numbered one (a state from a ``Property``, or a running result) only if it is
    /// newer than every numbered message processed before, so that a modifier whose inputs
    /// race between threads never goes back to an older state.
    @inline(__always)
    private func accept(_ sequence: UInt64?) -> Bool {
        guard let sequence else { return true }
        return lastSequence.advance(to: sequence)
    }

    /// Does the modifier's work on `message`, numbered `sequence` (or not), on its executor.
    /// Overridden by every kind of modifier; one whose output stands for its input's state
    /// sends it with the same number.
    func process(_ message: Input, sequence: UInt64?) {}

    func runSide(inline: Bool, _ work: @escaping @Sendable () -> Void) {
        if inline {
            guard !isDetached.load(ordering: .acquiring) else { return }
            work()
        } else {
            executor.run { [self] in
                guard !isDetached.load(ordering: .acquiring) else { return }
                work()
            }
        }
    }

    /// Disconnects from upstream and lets go of it; the chain behind this modifier is freed
    /// when nothing else holds it.
    func detach() {
        _ = detachReturningUpstream()
    }

    private func detachReturningUpstream() -> MessageSource<Input>? {
        isDetached.store(true, ordering: .releasing)
        let upstream = link.withLock { link in
            defer { link.upstream = nil }
            return link.upstream
        }
        upstream?.disconnect(self)
        return upstream
    }

    /// Removes the chain that ends here: detaches this modifier, then every modifier before
    /// it that feeds nothing else, so that none of the chain's work runs after the removal,
    /// not even work already queued on an executor.
    override func detachFromUpstream() {
        guard let upstream = detachReturningUpstream(), upstream.connectedCount == 0 else { return }
        upstream.detachFromUpstream()
    }

    deinit {
        detach()
    }
}

extension Atomic where Value == UInt64 {
    /// Raises the value to `sequence` if it is higher; returns whether it was.
    func advance(to sequence: UInt64) -> Bool {
        var current = load(ordering: .relaxed)
        while sequence > current {
            let (exchanged, original) = compareExchange(
                expected: current, desired: sequence, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
