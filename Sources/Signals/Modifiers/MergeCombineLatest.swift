import Dispatch
import Synchronization

extension MessageSource {
    /// Passes on the messages of this source and of `other`, each as it comes.
    ///
    /// ```swift
    /// taps.fired.merge(with: keys.fired).then { handle($0) }.append(to: observables)
    /// ```
    ///
    /// On connecting, the merge takes the message each source is owed, this one's first, so
    /// its own last message (what a chain connected after it is replayed) is the other
    /// source's when both have one. The merged chain runs on this source's downstream executor; `other`'s messages hop to
    /// it. Removing the chain (or releasing it) disconnects from both sources.
    public func merge(with other: MessageSource<Message>) -> MergeModifier<Message> {
        MergeModifier(upstream: self, core: MergeCore(upstream: self, other: other))
    }

    /// Passes on pairs of the latest messages of this source and of `other`, once both have
    /// sent one, then whenever either sends.
    ///
    /// ```swift
    /// name.didSet.combineLatest(age.didSet).then { name, age in print("\(name), \(age)") }.append(to: observables)
    /// ```
    ///
    /// **A diamond can glitch.** Signals pushes each message down each chain on its own; there
    /// is no graph that orders them. If both sources derive from one source, one message of
    /// that source makes two pairs: the first pairs its new value on one side with the old
    /// value on the other. Use one chain (`map`) when the values come from one source, or
    /// Incremental's `map2` for glitch-free derived values.
    ///
    /// On connecting, the chain takes the message each source is owed (so two properties
    /// give a first pair at once). Pairs are made under a lock, so each message counts once
    /// whatever thread sends it.
    public func combineLatest<Other: Sendable>(_ other: MessageSource<Other>) -> CombineLatestModifier<
        Message, Other
    > {
        CombineLatestModifier(upstream: self, core: CombineLatestCore(upstream: self, other: other))
    }
}

/// The work of a modifier with a second source: connects its ``SideInput`` after the first
/// source, hands what arrives there to ``receiveSecond(_:)`` on the modifier's executor, and
/// lets go of the second source when detached. Subclassed by the merge and the pairing.
class TwoSourceCore<First: Sendable, Second: Sendable, Output: Sendable>: ModifierCore<First, Output>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the side connection is behind its lock.

    /// The second input until detached: it holds this core, so letting go of it ends that
    /// cycle.
    private let side = LockedState<SideInput?>(nil)

    init(upstream: MessageSource<First>, other: MessageSource<Second>) {
        super.init(upstream: upstream)
        let inline = executor.queue == nil || executor === other.relay.emittingExecutor
        // Held strongly: `other`'s relay holds the input, and `detach()` disconnects it.
        let input = TypedSideInput(
            source: other, target: self, key: 0, isInline: inline,
            inlineQueue: inline && executor.queue != nil ? executor : nil,
            entry: { input, event in
                // The input is made with this core as its target, of `other`'s message type.
                let core = unsafeDowncast(input.target, to: TwoSourceCore.self)
                switch event {
                case .value(let address):
                    let message = address.assumingMemoryBound(to: Second.self).pointee
                    core.runSide(inline: input.isInline) { core.receiveSecond(message) }
                case .completion(let completion):
                    core.runSide(inline: input.isInline) { core.receiveSecondCompletion(completion) }
                }
            })
        side.withLock { $0 = input }
    }

    override func attach() {
        super.attach()
        side.withLock { $0 }?.connectToSource()
    }

    /// Does the modifier's work on a message of the second source, on its executor.
    func receiveSecond(_ message: Second) {}

    /// Does the modifier's work on the end of the second source, on its executor.
    func receiveSecondCompletion(_ completion: Completion<any Error>) {}

    @discardableResult
    override func detach() -> Bool {
        takeSide()?.detachFromSource()
        return super.detach()
    }

    /// Takes the second input out, if it is still kept.
    private func takeSide() -> SideInput? {
        side.withLock { side in
            defer { side = nil }
            return side
        }
    }

    override func detachSideSources() -> [any ChainEnd] {
        takeSide()?.detachFromSource().map { [$0] } ?? []
    }
}

/// Passes on the messages of two sources; made by ``MessageSource/merge(with:)``.
public final class MergeModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``MergeModifier``.
final class MergeCore<Message: Sendable>: TwoSourceCore<Message, Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the count is behind its lock.

    /// How many of the two sources finished.
    private let finished = LockedState(0)

    override func processCompletion(_ completion: Completion<any Error>) {
        end(completion)
    }

    override func receiveSecondCompletion(_ completion: Completion<any Error>) {
        end(completion)
    }

    /// The merge finishes once both sources finished; any other end ends it at once.
    private func end(_ completion: Completion<any Error>) {
        guard case .finished = completion else { return finish(completion) }
        if finished.withLock({ count in
            count += 1
            return count == 2
        }) {
            finish(.finished)
        }
    }

    override func process(_ message: Message, sequence: UInt64?) {
        // The two sources number their messages apart: merged, the numbers mean nothing.
        send(message)
    }

    override func receiveSecond(_ message: Message) {
        send(message)
    }
}

/// Pairs the latest messages of two sources; made by ``MessageSource/combineLatest(_:)-swift.method``.
public final class CombineLatestModifier<First: Sendable, Second: Sendable>: Modifier<First, (First, Second)>,
    @unchecked Sendable
{}

/// The work of a ``CombineLatestModifier``.
final class CombineLatestCore<First: Sendable, Second: Sendable>: TwoSourceCore<First, Second, (First, Second)>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the latest messages are behind `latest`'s lock.
    private struct Latest {
        var first: First?
        var second: Second?
        /// How many pairs were made: each is sent numbered, so that a newer pair is never
        /// overtaken by an older one.
        var pairs: UInt64 = 0
        /// How many of the two sources finished.
        var finished = 0
    }

    private let latest = LockedState(Latest())

    override func process(_ message: First, sequence: UInt64?) {
        pair { $0.first = message }
    }

    override func receiveSecond(_ message: Second) {
        pair { $0.second = message }
    }

    override func processCompletion(_ completion: Completion<any Error>) {
        end(completion, sent: { $0.first != nil })
    }

    override func receiveSecondCompletion(_ completion: Completion<any Error>) {
        end(completion, sent: { $0.second != nil })
    }

    /// The pairs end once both sources finished, or when one finishes without having sent
    /// (no pair can ever be made); any other end ends them at once.
    private func end(_ completion: Completion<any Error>, sent: (Latest) -> Bool) {
        guard case .finished = completion else { return finish(completion) }
        let ends = latest.withLock { latest -> Bool in
            latest.finished += 1
            return latest.finished == 2 || !sent(latest)
        }
        if ends { finish(.finished) }
    }

    /// Records a new message with `update` and, once both sources have sent one, sends the
    /// pair, numbered under the lock.
    private func pair(_ update: (inout Latest) -> Void) {
        let made = latest.withLock { latest -> ((First, Second), UInt64)? in
            update(&latest)
            guard let first = latest.first, let second = latest.second else { return nil }
            latest.pairs += 1
            return ((first, second), latest.pairs)
        }
        if let (pair, number) = made { send(pair, sequence: number) }
    }
}
