import Synchronization

/// A link in a chain: receives messages from what it is connected to, does its work, and
/// sends messages on to the modifiers connected to it.
///
/// Each operator (``MessageSource/then(do:)``, ``MessageSource/filter(_:)``,
/// ``MessageSource/map(_:)`` and the rest) makes a subclass. A modifier runs its work on its
/// executor: the main queue unless a `dispatch` modifier or `noDispatch()` before it in the
/// chain says otherwise. When that is where its input already arrives, it runs inline.
public class Modifier<Input: Sendable, Output: Sendable>: MessageSource<Output>, RawReceiver, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: every stored property is a `let` of a `Sendable` type.
    private let upstream: LockedState<MessageSource<Input>?>
    let executor: Executor
    private let runsInline: Bool
    /// Set once the modifier is detached: from then on it processes nothing, not even a
    /// message already delivered to it or queued on its executor.
    private let isDetached = Atomic(false)

    init(upstream: MessageSource<Input>, executor: Executor? = nil, last: Output? = nil) {
        let executor = executor ?? upstream.downstreamExecutor
        self.upstream = LockedState(upstream)
        self.executor = executor
        runsInline = executor.queue == nil || executor === upstream.emittingExecutor
        super.init(last: last, emittingExecutor: executor, downstreamExecutor: executor)
    }

    /// Connects to the upstream observable and takes the message it is owed.
    func attach() -> Self {
        let upstream = upstream.withLock { $0 }
        if let owed = upstream?.connect(self) { receive(owed) }
        return self
    }

    func receive(raw message: UnsafeRawPointer) {
        // Connected to an `MessageSource<Input>`, so the message is an `Input`.
        receive(message.assumingMemoryBound(to: Input.self).pointee)
    }

    func receive(_ message: Input) {
        if runsInline {
            guard !isDetached.load(ordering: .acquiring) else { return }
            process(message)
        } else {
            executor.run { [self] in
                // A message queued before the chain was removed is dropped, not processed.
                guard !isDetached.load(ordering: .acquiring) else { return }
                process(message)
            }
        }
    }

    /// The modifier's work on one message, run on its executor. Overridden by each operator.
    func process(_ message: Input) {}

    /// Runs `work` as a message from a second upstream (see ``SideInput``): inline when
    /// `inline`, else on the modifier's executor; never once the modifier is detached.
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
        let upstream = upstream.withLock { state in
            defer { state = nil }
            return state
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
