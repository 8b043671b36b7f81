import Dispatch
import Synchronization

/// A link in a chain: receives messages from what it is connected to, does its work, and
/// sends messages on to the modifiers connected to it.
///
/// Each operator (``MessageSource/then(do:)``, ``MessageSource/filter(_:)``,
/// ``MessageSource/map(_:)`` and the rest) makes a subclass. A modifier runs its work on its
/// executor: the main queue unless a `dispatch` modifier or `noDispatch()` before it in the
/// chain says otherwise. When that is where its input already arrives, it runs inline.
///
/// A modifier holds what it is connected to, so a chain lives as long as its last modifier.
/// When a modifier is freed (or its chain removed), it disconnects: it receives nothing more,
/// not even a message already queued for it.
public class Modifier<Input: Sendable, Output: Sendable>: MessageSource<Output>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: both stored properties are `let`s of `Sendable`
    // types.

    /// Keeps the chain before this modifier alive.
    private let upstream: MessageSource<Input>
    /// The receiver connected to `upstream`'s relay, and this modifier's own relay. The
    /// relay before it holds it strongly while it is connected; this handle disconnects it.
    let core: ModifierCore<Input, Output>

    /// Connects `core`, which was made on `upstream`'s relay, and wraps it.
    @usableFromInline
    init(upstream: MessageSource<Input>, core: ModifierCore<Input, Output>) {
        self.upstream = upstream
        self.core = core
        super.init(relay: core, downstreamExecutor: core.executor)
        core.attach()
    }

    /// Disconnects from upstream; the chain behind this modifier is freed when nothing else
    /// holds it.
    func detach() {
        core.detach()
    }

    /// Removes the chain that ends here: detaches this modifier, then every modifier before
    /// it that feeds nothing else, so that none of the chain's work runs after the removal,
    /// not even work already queued on an executor.
    override func detachFromUpstream() {
        for side in core.detachSideSources() where side.connectedCount == 0 { side.detachFromUpstream() }
        guard core.detach(), upstream.connectedCount == 0 else { return }
        upstream.detachFromUpstream()
    }

    deinit {
        core.detach()
    }
}

/// The working part of a modifier: receives messages from the relay before it, does its work
/// on its executor, and sends on through its own relay. Each operator makes a subclass.
///
/// The relay before it holds it strongly, and it holds that relay until it detaches; its
/// ``Modifier`` handle detaches it when freed, which ends that cycle.
@usableFromInline
class ModifierCore<Input: Sendable, Output: Sendable>: Relay<Output>, HoldsWhileConnecting,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: every stored property is a `let` of a `Sendable` type
    // (the flags and the sequence atomics), or (`upstream`, `held`) only touched while
    // holding the relay's `state` lock.

    /// What the core is connected to, `nil` once detached. Typed as the non-generic base, so
    /// that reading it under the lock looks up no generic metadata (`Optional<Relay<Input>>`
    /// would, at every connect and detach).
    private var upstream: Receiver?
    /// The messages that arrived while the core connected; made on first use (rarely).
    private var held: HeldMessagesBase?
    /// The thread connecting the core, while it connects.
    private var connectingThread: ConnectingThread?
    @usableFromInline let executor: Executor
    /// Whether the modifier works on the thread its input arrives on.
    @usableFromInline let runsInline: Bool
    /// Whether the modifier runs on the thread that sends to it (no queue): see
    /// ``sendResult(_:sequence:)``.
    @usableFromInline let runsOnSendingThread: Bool
    @usableFromInline let isDetached = Atomic(false)
    /// Set from just before connecting until the replay and what arrived meanwhile were
    /// received: messages arriving then wait in `held`.
    @usableFromInline let isConnecting = Atomic(false)
    /// The number of the newest numbered message accepted (see ``accept(_:)``).
    @usableFromInline let lastSequence = Atomic<UInt64>(0)

    /// Makes the core of a modifier connected to `source` (the source's relay), which runs on
    /// `executor` or, if `nil`, where `source` says its modifiers run; `entry` is how it
    /// receives (see ``entry(_:)``); by default ``receive(raw:sequence:)``.
    @usableFromInline
    init(
        upstream source: MessageSource<Input>, executor: Executor? = nil, last: Output? = nil,
        entry: @escaping Entry = Receiver.receiveEntry
    ) {
        let executor = executor ?? source.downstreamExecutor
        self.upstream = source.relay
        self.executor = executor
        runsInline = executor.queue == nil || executor === source.relay.emittingExecutor
        runsOnSendingThread = executor.queue == nil
        super.init(last: last, emittingExecutor: executor, entry: entry)
    }

    /// The entry of a core whose work is `work`, compiled where it is called (inlined into a
    /// client's chain, for the client's message types): a message that reaches an inline
    /// modifier that is connected and attached, and is not older than one it processed,
    /// goes straight to `work`; any other takes ``receive(raw:sequence:)``, which holds,
    /// queues or drops it.
    @inlinable
    static func entry(_ work: @escaping @Sendable (ModifierCore, Input, UInt64?) -> Void) -> Entry {
        { receiver, message, sequence in
            // Only a core made with this entry is entered through it.
            let core = unsafeDowncast(receiver, to: ModifierCore.self)
            guard core.runsInline, !core.isConnecting.load(ordering: .acquiring) else {
                return core.receive(raw: message, sequence: sequence)
            }
            guard !core.isDetached.load(ordering: .acquiring), core.accept(sequence) else { return }
            work(core, message.assumingMemoryBound(to: Input.self).pointee, sequence)
        }
    }

    /// Connects the modifier to its upstream and receives the replayed last message before
    /// any message sent after it: one sent meanwhile (by another thread, or by this one from
    /// the replay's own work) waits, and is received after the replay, in the order sent.
    ///
    /// A modifier that runs inline on a queue (its input arrives on the queue it runs on)
    /// and connects from elsewhere receives the replay, and what waited, on that queue: its
    /// work never runs on the connecting thread. An inline modifier receives what waited on
    /// the connecting thread: all of it while only that thread sent, otherwise one round,
    /// and the rest on a global queue (``HoldsWhileConnecting/receiveHeld(on:)``).
    func attach() {
        guard
            let upstream = state.withLock({ _ -> Receiver? in
                connectingThread = ConnectingThread()
                return self.upstream
            })
        else { return }
        isConnecting.store(true, ordering: .releasing)
        // The upstream is a `Relay<Input>`: it was one when stored.
        unsafeDowncast(upstream, to: Relay<Input>.self).connect(self)
        receiveHeld(on: replaysOnQueue ? executor : nil)
    }

    /// Whether the replay waits for the executor's queue; read on the connecting thread, by
    /// ``attach()`` and by ``receiveReplay(raw:sequence:)`` inside it.
    private var replaysOnQueue: Bool {
        runsInline && executor.queue != nil && !executor.isCurrent
    }

    func takeHeld(mayTake: Bool) -> HeldTake<HeldMessagesBase> {
        state.withLock { _ in
            guard let held else {
                isConnecting.store(false, ordering: .releasing)
                connectingThread = nil
                return .finished
            }
            guard mayTake || !held.isFromOtherThreads else { return .handOff }
            self.held = nil
            return .taken(held)
        }
    }

    func receiveTaken(_ batch: HeldMessagesBase) {
        for (message, sequence) in unsafeDowncast(batch, to: HeldMessages<Input>.self).messages {
            receive(message, sequence: sequence)
        }
        if let completion = batch.completion { receiveCompletionInOrder(completion) }
    }

    override func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {
        let message = message.assumingMemoryBound(to: Input.self).pointee
        guard replaysOnQueue else { return receive(message, sequence: sequence) }
        // Waits for the queue, ahead of whatever arrived since the relay connected this core.
        state.withLock { _ in
            if held == nil { held = HeldMessages<Input>() }
            unsafeDowncast(held!, to: HeldMessages<Input>.self).messages.insert((message, sequence), at: 0)
        }
    }

    @usableFromInline
    override func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {
        // Connected to an `MessageSource<Input>`, so the message is an `Input`. Passed on by
        // address (`pointee` borrowed, not bound to a copy): a copy is made only where kept.
        let message = message.assumingMemoryBound(to: Input.self)
        if isConnecting.load(ordering: .acquiring), hold(message.pointee, sequence: sequence) { return }
        receive(message.pointee, sequence: sequence)
    }

    override func receiveCompletion(_ completion: Completion<any Error>) {
        if isConnecting.load(ordering: .acquiring), hold(completion) { return }
        receiveCompletionInOrder(completion)
    }

    override func receiveReplayCompletion(_ completion: Completion<any Error>) {
        guard replaysOnQueue else { return receiveCompletionInOrder(completion) }
        // Waits for the queue; nothing else can arrive: the upstream has ended.
        state.withLock { _ in
            if held == nil { held = HeldMessages<Input>() }
            held!.completion = completion
        }
    }

    /// Keeps the end that arrived while the modifier connects, behind the messages that
    /// arrived before it; false if connecting is over.
    private func hold(_ completion: Completion<any Error>) -> Bool {
        state.withLock { _ in
            guard isConnecting.load(ordering: .relaxed) else { return false }
            if held == nil { held = HeldMessages<Input>() }
            if connectingThread?.isCurrent == false { held!.isFromOtherThreads = true }
            held!.completion = completion
            return true
        }
    }

    /// Handles the end on the modifier's executor, after every message that came before it
    /// (a queue runs them in order), unless the modifier was detached.
    func receiveCompletionInOrder(_ completion: Completion<any Error>) {
        if runsInline {
            guard !isDetached.load(ordering: .acquiring) else { return }
            processCompletion(completion)
        } else {
            executor.run { [self] in
                DeliveryContext.pinnedSequentially {
                    guard !isDetached.load(ordering: .sequentiallyConsistent) else { return }
                    processCompletion(completion)
                }
            }
        }
    }

    /// Does the modifier's work on the end of its input, on its executor. By default the
    /// modifier ends too (``finish(_:)``); operators that hold messages pass them first, and
    /// operators with several inputs wait for the others.
    func processCompletion(_ completion: Completion<any Error>) {
        finish(completion)
    }

    /// Ends this modifier's stream with `completion` and detaches it from its inputs, then,
    /// walking up, every modifier before it that now feeds nothing, as removing the chain
    /// does (``Modifier/detachFromUpstream()``): the sources report one chain fewer at once,
    /// and no modifier before the end runs for a message again. A loop, not a recursion, so
    /// that a chain a million modifiers long ends without deepening the stack.
    @usableFromInline
    final func finish(_ completion: Completion<any Error>) {
        complete(completion)
        let upstream = state.withLock { _ in self.upstream }
        guard detach() else { return }
        var next = upstream
        while let receiver = next { next = receiver.detachIfIdle() }
    }

    /// Detaches this core if nothing is connected to it any more, and every input beyond its
    /// upstream that then feeds nothing; returns its upstream, to be asked in turn.
    override func detachIfIdle() -> Receiver? {
        guard connectedCount == 0 else { return nil }
        let upstream = state.withLock { _ in self.upstream }
        for side in detachSideSources() where side.connectedCount == 0 { side.detachFromUpstream() }
        guard detach() else { return nil }
        return upstream
    }

    /// Keeps a message that arrived while the modifier connects; false if it is done.
    private func hold(_ message: Input, sequence: UInt64?) -> Bool {
        state.withLock { _ in
            guard isConnecting.load(ordering: .relaxed) else { return false }
            if held == nil { held = HeldMessages<Input>() }
            if connectingThread?.isCurrent == false { held!.isFromOtherThreads = true }
            unsafeDowncast(held!, to: HeldMessages<Input>.self).messages.append((message, sequence))
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
                // Pinned before the check, so that a removal's wait for deliveries under way
                // covers a message that passed it (see `pinnedSequentially`).
                DeliveryContext.pinnedSequentially {
                    guard !isDetached.load(ordering: .sequentiallyConsistent), accept(sequence) else { return }
                    process(message, sequence: sequence)
                }
            }
        }
    }

    /// Whether a message numbered `sequence` is to be processed: unnumbered messages always
    /// are; a numbered one (a state from a ``Property``, or a running result) only if it is
    /// newer than every numbered message processed before, so that a modifier whose inputs
    /// race between threads never goes back to an older state.
    @inlinable @inline(__always)
    final func accept(_ sequence: UInt64?) -> Bool {
        guard let sequence else { return true }
        return lastSequence.advance(to: sequence)
    }

    /// Sends a result of a one-input modifier's work (map, filter, compactMap, scan, then,
    /// discard, distinct). On the sending thread (a `noDispatch()` chain) the modifier works
    /// only inside its input's delivery, so it sends without the thread's delivery record
    /// (``Relay/sendFromInput(_:sequence:)``). On a queue it sends guarded: a queue's work can
    /// run nested in a closure that spins a run loop, and a nested send must then wait for
    /// the delivery under way, as any other does.
    @inlinable @inline(__always)
    final func sendResult(_ output: Output, sequence: UInt64?) {
        if runsOnSendingThread {
            sendFromInput(output, sequence: sequence)
        } else {
            send(output, sequence: sequence)
        }
    }

    /// Does the modifier's work on `message`, numbered `sequence` (or not), on its executor.
    /// Overridden by every kind of modifier; one whose output stands for its input's state
    /// sends it with the same number.
    func process(_ message: Input, sequence: UInt64?) {}

    @usableFromInline
    func runSide(inline: Bool, _ work: @escaping @Sendable () -> Void) {
        if inline {
            guard !isDetached.load(ordering: .acquiring) else { return }
            work()
        } else {
            executor.run { [self] in
                DeliveryContext.pinnedSequentially {
                    guard !isDetached.load(ordering: .sequentiallyConsistent) else { return }
                    work()
                }
            }
        }
    }

    /// Disconnects from upstream and lets go of it; returns whether it was connected. A
    /// message queued for it before is dropped, not processed.
    @discardableResult
    func detach() -> Bool {
        // Sequentially consistent with the check of a message dispatched to a queue (see
        // `DeliveryContext.pinnedSequentially`).
        isDetached.store(true, ordering: .sequentiallyConsistent)
        let upstream = state.withLock { _ -> Receiver? in
            defer { self.upstream = nil }
            return self.upstream
        }
        guard let upstream else { return false }
        unsafeDowncast(upstream, to: Relay<Input>.self).disconnect(self)
        return true
    }

    /// For a modifier with more inputs than its upstream: detaches from them and returns
    /// those that were connected; none for the others.
    func detachSideSources() -> [any ChainEnd] {
        []
    }
}

/// The core of a one-input modifier whose work is a closure: map, filter, compactMap and
/// then. Made through ``make(upstream:executor:work:)``, inlined where the operator is called,
/// so that its entry and its work are compiled for the chain's message types.
@usableFromInline
final class OperatorCore<Input: Sendable, Output: Sendable>: ModifierCore<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the only stored property is a `@Sendable` closure.

    /// The modifier's work on one message: what it sends on, through
    /// ``ModifierCore/sendResult(_:sequence:)``.
    @usableFromInline let work: @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void

    @usableFromInline
    init(
        upstream: MessageSource<Input>, executor: Executor?, entry: @escaping Entry,
        work: @escaping @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void
    ) {
        self.work = work
        super.init(upstream: upstream, executor: executor, entry: entry)
    }

    /// The core of a modifier connected to `upstream` that runs on `executor` (or where
    /// `upstream` says) and does `work`.
    @inlinable
    static func make(
        upstream: MessageSource<Input>, executor: Executor? = nil,
        work: @escaping @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void
    ) -> OperatorCore {
        OperatorCore(upstream: upstream, executor: executor, entry: entry(work), work: work)
    }

    override func process(_ message: Input, sequence: UInt64?) {
        work(self, message, sequence)
    }
}

/// Messages held while a receiver connects. The non-generic base is what the lock's
/// closures return, so that they look up no generic metadata.
class HeldMessagesBase {
    /// Whether a thread other than the connecting one sent some of them.
    var isFromOtherThreads = false
    /// The end of the stream, if it came too: after every held message.
    var completion: Completion<any Error>?
}

/// Messages of type `Input` held while a receiver connects, with their numbers, in order.
final class HeldMessages<Input>: HeldMessagesBase {
    var messages: [(message: Input, sequence: UInt64?)] = []
}

/// What ``Modifier/detachFromUpstream()`` walks: an observable's handle.
protocol ChainEnd: AnyObject, Sendable {
    var connectedCount: Int { get }
    func detachFromUpstream()
}

extension MessageSource: ChainEnd {}

extension Atomic where Value == UInt64 {
    /// Raises the value to `sequence` if it is higher; returns whether it was.
    @usableFromInline
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
