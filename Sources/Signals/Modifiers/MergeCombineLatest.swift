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

/// The receiver a two-source modifier connects to its second source; it forwards by way of
/// the modifier's executor (``Modifier/runSide(inline:_:)``).
///
/// What waits while it connects is kept as a modifier's core keeps it: in a non-generic
/// state under a lock, and in a generic batch made only when something waits (rarely), so
/// that connecting looks up no generic metadata (an inner source connects on every switch).
@usableFromInline
final class SideInput<Message: Sendable>: Receiver, HoldsWhileConnecting, @unchecked Sendable {
    // `@unchecked`: `forward` is a `@Sendable` closure set once before connecting; the flag
    // and the sequence are atomics, and `held` is touched only under its lock.
    let forward: @Sendable (Message) -> Void
    /// The executor `forward` runs on inline, if it is a queue (the source sends there): a
    /// connect from elsewhere receives the replay, and what waited, on it.
    private let inlineQueue: Executor?
    private let isConnecting = Atomic(false)
    private let lastSequence = Atomic<UInt64>(0)
    /// What arrived while connecting and the connecting thread.
    private let held = LockedState(SideHeld())

    /// Forwards the end of the source, after every message before it.
    let forwardCompletion: @Sendable (Completion<any Error>) -> Void

    @usableFromInline
    init(
        inlineQueue: Executor?, forward: @escaping @Sendable (Message) -> Void,
        forwardCompletion: @escaping @Sendable (Completion<any Error>) -> Void
    ) {
        self.inlineQueue = inlineQueue
        self.forward = forward
        self.forwardCompletion = forwardCompletion
    }

    /// Whether the replay waits for ``inlineQueue``; read on the connecting thread.
    private var replaysOnQueue: Bool {
        inlineQueue.map { !$0.isCurrent } ?? false
    }

    override func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {
        // Connected to a `MessageSource<Message>`, so the message is a `Message`.
        let message = message.assumingMemoryBound(to: Message.self).pointee
        if isConnecting.load(ordering: .acquiring), hold(message, sequence: sequence) { return }
        receive(message, sequence: sequence)
    }

    override func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {
        let message = message.assumingMemoryBound(to: Message.self).pointee
        guard replaysOnQueue else { return receive(message, sequence: sequence) }
        // Waits for the queue, ahead of whatever arrived since the relay connected this input.
        held.withLock { held in
            held.batch(of: Message.self).messages.insert((message, sequence), at: 0)
        }
    }

    override func receiveCompletion(_ completion: Completion<any Error>) {
        let wasHeld =
            isConnecting.load(ordering: .acquiring)
            && self.held.withLock { held in
                guard isConnecting.load(ordering: .relaxed) else { return false }
                let batch = held.batch(of: Message.self)
                if held.connecting?.isCurrent == false { batch.isFromOtherThreads = true }
                batch.completion = completion
                return true
            }
        if !wasHeld { forwardCompletion(completion) }
    }

    override func receiveReplayCompletion(_ completion: Completion<any Error>) {
        guard replaysOnQueue else { return forwardCompletion(completion) }
        held.withLock { $0.batch(of: Message.self).completion = completion }
    }

    /// Forwards `message` unless it is numbered and older than one forwarded before (as a
    /// modifier's own input does, see ``Modifier``).
    func receive(_ message: Message, sequence: UInt64?) {
        if let sequence, !lastSequence.advance(to: sequence) { return }
        forward(message)
    }

    /// Keeps a message that arrived while the input connects; false if it is done.
    private func hold(_ message: Message, sequence: UInt64?) -> Bool {
        held.withLock { held in
            guard isConnecting.load(ordering: .relaxed) else { return false }
            let batch = held.batch(of: Message.self)
            if held.connecting?.isCurrent == false { batch.isFromOtherThreads = true }
            batch.messages.append((message, sequence))
            return true
        }
    }

    /// Keeps `source`, to connect to.
    func hold(_ source: MessageSource<Message>) {
        held.withLock { $0.source = source }
    }

    /// Connects to the source kept, if it is still kept.
    func connectToSource() {
        guard let source = held.withLock({ $0.source }) else { return }
        // Kept as a `MessageSource<Message>`.
        connect(to: unsafeDowncast(source, to: MessageSource<Message>.self).relay)
    }

    /// Disconnects from the source kept and lets go of it; returns it if it was kept.
    func detachFromSource() -> MessageSource<Message>? {
        let kept = held.withLock { held in
            defer { held.source = nil }
            return held.source
        }
        guard let kept else { return nil }
        let source = unsafeDowncast(kept, to: MessageSource<Message>.self)
        source.relay.disconnect(self)
        return source
    }

    /// Connects to `source` and forwards the replayed last message before any message sent
    /// after it, as a modifier's core does when it attaches.
    func connect(to source: Relay<Message>) {
        held.withLock { $0.connecting = ConnectingThread() }
        isConnecting.store(true, ordering: .releasing)
        source.connect(self)
        receiveHeld(on: replaysOnQueue ? inlineQueue : nil)
    }

    func takeHeld(mayTake: Bool) -> HeldTake<HeldMessagesBase> {
        held.withLock { held in
            guard let batch = held.batch else {
                isConnecting.store(false, ordering: .releasing)
                held.connecting = nil
                return .finished
            }
            guard mayTake || !batch.isFromOtherThreads else { return .handOff }
            held.batch = nil
            return .taken(batch)
        }
    }

    func receiveTaken(_ batch: HeldMessagesBase) {
        for (message, sequence) in unsafeDowncast(batch, to: HeldMessages<Message>.self).messages {
            receive(message, sequence: sequence)
        }
        if let completion = batch.completion { forwardCompletion(completion) }
    }
}

/// What reached a ``SideInput`` while it connected, and the connecting thread: not generic,
/// so that the lock's closures look up no metadata.
struct SideHeld: @unchecked Sendable {
    // `@unchecked`: only touched under its input's lock; the batch is made and taken there.

    /// What waits, if anything: a `HeldMessages` of the input's message type.
    var batch: HeldMessagesBase?
    /// The connecting thread, while connecting.
    var connecting: ConnectingThread?
    /// The source this input is connected to (a `MessageSource` of its message type), held
    /// until detached: the input forwards to the operator's core, which holds the input, so
    /// letting go of the source ends the chain's hold on it.
    var source: AnyObject?

    /// The batch of waiting messages of type `Message`, made if none waits.
    mutating func batch<Message>(of _: Message.Type) -> HeldMessages<Message> {
        if let batch { return unsafeDowncast(batch, to: HeldMessages<Message>.self) }
        let made = HeldMessages<Message>()
        batch = made
        return made
    }
}

/// What a two-source modifier keeps of its second source: the input connected to it, which
/// holds the source (as a modifier holds its upstream) until detached, and which the source's
/// relay holds while connected. A value of one reference: kept in an existential, it needs no
/// allocation of its own.
@usableFromInline
struct SideConnection<Message: Sendable>: Sendable {
    @usableFromInline let input: SideInput<Message>

    @usableFromInline
    init(source: MessageSource<Message>, input: SideInput<Message>) {
        input.hold(source)
        self.input = input
    }

    /// Connects the receiver, which receives the message the source owes it first.
    @usableFromInline
    func connect() {
        input.connectToSource()
    }

    /// Disconnects and lets go of the source; returns it if it was connected.
    @discardableResult
    func detach() -> MessageSource<Message>? {
        input.detachFromSource()
    }
}

/// The work of a modifier with a second source: connects its ``SideInput`` after the first
/// source, hands what arrives there to ``receiveSecond(_:)`` on the modifier's executor, and
/// lets go of the second source when detached. Subclassed by the merge and the pairing.
class TwoSourceCore<First: Sendable, Second: Sendable, Output: Sendable>: ModifierCore<First, Output>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the side connection is behind its lock.

    /// The second input until detached: the input's closures hold this core, so letting go
    /// of it ends that cycle.
    private let side = LockedState<SideConnection<Second>?>(nil)

    init(upstream: MessageSource<First>, other: MessageSource<Second>) {
        super.init(upstream: upstream)
        let inline = executor.queue == nil || executor === other.relay.emittingExecutor
        // Held strongly: `other`'s relay holds the input, and `detach()` disconnects it.
        let input = SideInput<Second>(
            inlineQueue: inline && executor.queue != nil ? executor : nil,
            forward: { [self] message in runSide(inline: inline) { self.receiveSecond(message) } },
            forwardCompletion: { [self] completion in
                runSide(inline: inline) { self.receiveSecondCompletion(completion) }
            })
        side.withLock { $0 = SideConnection(source: other, input: input) }
    }

    override func attach() {
        super.attach()
        side.withLock { $0 }?.connect()
    }

    /// Does the modifier's work on a message of the second source, on its executor.
    func receiveSecond(_ message: Second) {}

    /// Does the modifier's work on the end of the second source, on its executor.
    func receiveSecondCompletion(_ completion: Completion<any Error>) {}

    @discardableResult
    override func detach() -> Bool {
        takeSide()?.detach()
        return super.detach()
    }

    /// Takes the second input out, if it is still kept.
    private func takeSide() -> SideConnection<Second>? {
        side.withLock { side in
            defer { side = nil }
            return side
        }
    }

    override func detachSideSources() -> [any ChainEnd] {
        takeSide()?.detach().map { [$0] } ?? []
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
