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
        guard core.detachForRemoval(), upstream.connectedCount == 0 else { return }
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
    /// What the core reconnects to when a chain connects after it let go of its upstream
    /// (see ``revives``); `nil` once it is detached for good. Under the lock.
    private var home: Receiver?
    /// Where the core stands with its upstream. Under the lock.
    private var attachment = Attachment.attaching
    /// Whether a message reached the core while it was idle, and was dropped: revived, it
    /// is then owed its upstream's last message even if it had been connected when that was
    /// sent. Under the lock.
    private var missedWhileIdle = false
    /// Whether the core's last chain went while it was still connecting (what waited is
    /// still being received): it lets go when that ends. Under the lock.
    private var idleWhenConnected = false
    /// The messages that arrived while the core connected; made on first use (rarely).
    private var held: HeldMessagesBase?
    /// The thread connecting the core, while it connects.
    private var connectingThread: ConnectingThread?
    /// Holds back other threads' senders while the core connects. Under the lock.
    private var gate = SenderGate()
    /// Whether the connecting thread drains what waits itself (the replay does not wait for
    /// the executor's queue). Under the lock.
    private var drainsHere = false
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
        rule: ReplayRule<Output>? = nil, entry: @escaping Entry = Receiver.receiveEntry
    ) {
        let executor = executor ?? source.downstreamExecutor
        self.upstream = source.relay
        self.home = source.relay
        self.executor = executor
        runsInline = executor.queue == nil || executor === source.relay.emittingExecutor
        runsOnSendingThread = executor.queue == nil
        super.init(last: last, emittingExecutor: executor, rule: rule, entry: entry)
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
            guard !core.isDetached.load(ordering: .acquiring) || core.takesLateMessage(), core.accept(sequence) else {
                return
            }
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
    /// the connecting thread, until nothing is left; other threads' senders wait once they
    /// have held a bounded number of messages (``SenderGate``).
    func attach() {
        let drainsHere = !replaysOnQueue
        guard
            let upstream = state.withLock({ state -> Receiver? in
                connectingThread = ConnectingThread()
                self.drainsHere = drainsHere
                openBurst(in: &state)
                return self.upstream
            })
        else { return }
        isConnecting.store(true, ordering: .releasing)
        // Marked as draining from the connect on: the replay's work never waits at a gate.
        DeliveryContext.draining {
            // The upstream is a `Relay<Input>`: it was one when stored.
            unsafeDowncast(upstream, to: Relay<Input>.self).connect(self)
            state.withLock { _ in
                // Not if it ended (for good) meanwhile.
                if attachment == .attaching { attachment = .attached }
            }
            if drainsHere { receiveHeld() }
        }
        if !drainsHere { receiveHeld(on: executor) }
    }

    /// Whether a message that reached the core while it was detached is processed after all:
    /// yes if a chain is reviving it (the message was sent before it let go, and its
    /// revival is not owed it: processed now, it is processed once); otherwise it is dropped,
    /// and an idle core notes that it missed one (see ``reconnect()``).
    @usableFromInline @inline(never)
    final func takesLateMessage() -> Bool {
        state.withLock { _ in
            switch attachment {
            case .attaching, .attached:
                return true
            case .idle, .detaching:
                missedWhileIdle = true
                return false
            case .final:
                return false
            }
        }
    }

    /// Whether the core lets go of its upstream while nothing is connected to it, and
    /// reconnects when something connects again (a kept `map` whose chains were all removed
    /// works again for the next one). The one-input modifiers whose work is a closure and a
    /// value do; the operators with timers, inputs or tasks of their own end those for good
    /// when they detach, and do not.
    var revives: Bool { false }

    /// Detaches the core as its chain is removed: for good unless it ``revives``, in which
    /// case only while nothing is connected to it. Returns whether it detached.
    final func detachForRemoval() -> Bool {
        revives ? detachIdle() != nil : detach()
    }

    /// Lets go of the upstream while nothing is connected to the core, to reconnect when
    /// something connects again; returns the upstream it let go of, or `nil` if it did not
    /// (something is connected, it ended, or another thread is attaching or detaching it).
    ///
    /// The state moves attached → detaching → idle under the lock; a connect that comes
    /// while it is detaching is not claimed (``claimRevival()``), so this detacher, seeing
    /// a receiver when it is done, revives the core itself.
    private func detachIdle() -> Receiver? {
        let taken = state.withLock { state -> Receiver? in
            guard attachment == .attached, state.list == nil, !state.isCompleted, let upstream else { return nil }
            // Not while what waited as it connected is received: those messages would reach
            // the next connection's chain behind its replay. It lets go when they are done.
            guard !isConnecting.load(ordering: .acquiring) else {
                idleWhenConnected = true
                return nil
            }
            attachment = .detaching
            // Sequentially consistent, as in `detach()`.
            isDetached.store(true, ordering: .sequentiallyConsistent)
            self.upstream = nil
            return upstream
        }
        guard let taken else { return nil }
        unsafeDowncast(taken, to: Relay<Input>.self).disconnect(self)
        let revive = state.withLock { state -> Bool in
            guard attachment == .detaching else { return false }
            if state.list != nil {
                attachment = .attaching
                return true
            }
            attachment = .idle
            SignalsChecks.checkAttachment(
                attachment, hasUpstream: upstream != nil, isDetached: isDetached.load(ordering: .relaxed))
            return false
        }
        if revive { reviveChain() }
        return taken
    }

    override func claimRevival() -> Bool {
        guard attachment == .idle else { return false }
        attachment = .attaching
        return true
    }

    override func reviveAfterConnect() {
        reviveChain()
    }

    /// Reconnects this claimed core, and every idle core before it that it claims on the
    /// way up, from the top down: each connects to one already attached, so no connect
    /// recurses, however long the chain. Then, from this one up, each is marked attached
    /// (and detached again if all its chains went meanwhile).
    private func reviveChain() {
        var chain: [any RevivingCore] = [self]
        var next = state.withLock { _ in home }
        while let core = next as? any RevivingCore, let further = core.claimIfIdle() {
            chain.append(core)
            next = further
        }
        for core in chain.reversed() { core.reconnect() }
        for core in chain { core.settle() }
    }

    /// Claims the core to revive it if it is idle; returns what it reconnects to.
    final func claimIfIdle() -> Receiver?? {
        state.withLock { _ -> Receiver?? in
            guard attachment == .idle else { return .none }
            attachment = .attaching
            return .some(home)
        }
    }

    /// Reconnects a claimed core to its home: the home's replay, if the core is owed it
    /// (a message came after the core let go), and what arrives meanwhile are received as on
    /// the first connect.
    final func reconnect() {
        let drainsHere = !replaysOnQueue
        guard
            let home = state.withLock({ state -> Receiver? in
                guard attachment == .attaching, let home else { return nil }
                upstream = home
                connectingThread = ConnectingThread()
                self.drainsHere = drainsHere
                openBurst(in: &state)
                // A message it missed may be its home's last: owed it, whatever it had.
                if missedWhileIdle { missedLast = true }
                missedWhileIdle = false
                return home
            })
        else { return }
        isDetached.store(false, ordering: .sequentiallyConsistent)
        isConnecting.store(true, ordering: .releasing)
        DeliveryContext.draining {
            unsafeDowncast(home, to: Relay<Input>.self).connect(self)
            if drainsHere { receiveHeld() }
        }
        if !drainsHere { receiveHeld(on: executor) }
    }

    /// Ends a revival: attached, and detached again (up the chain) if nothing is connected
    /// any more; nothing if the core was detached for good meanwhile.
    final func settle() {
        let idle = state.withLock { state -> Bool in
            guard attachment == .attaching else { return false }
            attachment = .attached
            SignalsChecks.checkAttachment(
                attachment, hasUpstream: upstream != nil, isDetached: isDetached.load(ordering: .relaxed))
            return state.list == nil
        }
        guard idle else { return }
        var next: Receiver? = self
        while let receiver = next { next = receiver.detachIfIdle() }
    }

    /// Whether the replay waits for the executor's queue; read on the connecting thread, by
    /// ``attach()`` and by ``receiveReplay(raw:sequence:)`` inside it.
    private var replaysOnQueue: Bool {
        runsInline && executor.queue != nil && !executor.isCurrent
    }

    /// While connecting, an end keeps the message it ended on: the replay (or what waited
    /// behind it) ended the modifier before the modifiers after it could connect.
    override var keepsLastAtEnd: Bool { isConnecting.load(ordering: .acquiring) }

    override var isConnectingNow: Bool { isConnecting.load(ordering: .acquiring) }

    func connectingFinished() {
        let idle = state.withLock { state -> Bool in
            defer { idleWhenConnected = false }
            return idleWhenConnected && state.list == nil
        }
        guard idle else { return }
        var next: Receiver? = self
        while let receiver = next { next = receiver.detachIfIdle() }
    }

    func takeHeld() -> HeldTake<HeldMessagesBase> {
        state.withLock { _ in
            guard let held else {
                isConnecting.store(false, ordering: .releasing)
                connectingThread = nil
                gate.connectingEnds()
                SignalsChecks.connectingEnds(self)
                return .finished
            }
            gate.drains()
            self.held = nil
            return .taken(held)
        }
    }

    func receiveTaken(_ batch: HeldMessagesBase) {
        let messages = unsafeDowncast(batch, to: HeldMessages<Input>.self).messages
        SignalsChecks.receivesHeld(self, count: messages.count)
        for (message, sequence) in messages {
            receive(message, sequence: sequence)
        }
        if let completion = batch.completion { receiveCompletionInOrder(completion) }
    }

    override func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {
        let message = message.assumingMemoryBound(to: Input.self).pointee
        guard replaysOnQueue else { return receive(message, sequence: sequence) }
        // Waits for the queue, ahead of whatever arrived since the relay connected this core
        // and behind the replay's earlier messages.
        state.withLock { _ in
            if held == nil { held = HeldMessages<Input>() }
            unsafeDowncast(held!, to: HeldMessages<Input>.self).messages.insert((message, sequence), at: held!.replayed)
            held!.replayed += 1
            SignalsChecks.holds(self)
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
        if revives { return detachIdle() }
        let upstream = state.withLock { _ in self.upstream }
        for side in detachSideSources() where side.connectedCount == 0 { side.detachFromUpstream() }
        guard detach() else { return nil }
        return upstream
    }

    /// Keeps a message that arrived while the modifier connects; false if it is done. A
    /// sender the gate holds back waits here, outside the lock (``SenderGate``).
    private func hold(_ message: Input, sequence: UInt64?) -> Bool {
        holdAtGate {
            state.withLock { _ -> GateAttempt in
                guard isConnecting.load(ordering: .relaxed) else { return .notConnecting }
                let connecting = drainsHere ? connectingThread : nil
                if let wait = gate.admit(fromOtherThread: connectingThread?.isCurrent == false, connecting: connecting)
                {
                    return .wait(wait)
                }
                if held == nil { held = HeldMessages<Input>() }
                unsafeDowncast(held!, to: HeldMessages<Input>.self).messages.append((message, sequence))
                SignalsChecks.holds(self)
                return .held
            }
        }
    }

    func receive(_ message: Input, sequence: UInt64?) {
        if runsInline {
            guard !isDetached.load(ordering: .acquiring) || takesLateMessage(), accept(sequence) else { return }
            process(message, sequence: sequence)
        } else {
            executor.run { [self] in
                // A message queued before the chain was removed is dropped, not processed.
                // Pinned before the check, so that a removal's wait for deliveries under way
                // covers a message that passed it (see `pinnedSequentially`).
                DeliveryContext.pinnedSequentially {
                    guard !isDetached.load(ordering: .sequentiallyConsistent) || takesLateMessage(), accept(sequence)
                    else { return }
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
        let (upstream, removed) = state.withLock { _ -> (Receiver?, Bool) in
            attachment = .final
            home = nil
            defer {
                self.upstream = nil
                idleWhenConnected = false
            }
            return (self.upstream, idleWhenConnected)
        }
        guard let upstream else { return false }
        unsafeDowncast(upstream, to: Relay<Input>.self).disconnect(self)
        // Its chain was removed while it connected, and it is freed before it let go: the
        // walk up the chain that removal makes happens here.
        if removed {
            var next: Receiver? = upstream
            while let receiver = next { next = receiver.detachIfIdle() }
        }
        return true
    }

    /// Stops receiving from the upstream while the core goes on with its other inputs (a
    /// timeout that switched to its fallback), and lets go of the modifiers before it that
    /// then feed nothing, as an end does. The core keeps its reference to the upstream until
    /// it detaches, which disconnects it again (a second disconnect does nothing); a message
    /// already on its way still reaches the core, whose rule drops it.
    final func disconnectUpstream() {
        guard let upstream = state.withLock({ _ in self.upstream }) else { return }
        unsafeDowncast(upstream, to: Relay<Input>.self).disconnect(self)
        var next: Receiver? = upstream
        while let receiver = next { next = receiver.detachIfIdle() }
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

    /// Revives: its work is a closure and a value (see ``ModifierCore/revives``).
    override var revives: Bool { true }

    /// The modifier's work on one message: what it sends on, through
    /// ``ModifierCore/sendResult(_:sequence:)``.
    @usableFromInline let work: @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void

    @usableFromInline
    init(
        upstream: MessageSource<Input>, executor: Executor?, rule: ReplayRule<Output>? = nil, entry: @escaping Entry,
        work: @escaping @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void
    ) {
        self.work = work
        super.init(upstream: upstream, executor: executor, rule: rule, entry: entry)
    }

    /// The core of a modifier connected to `upstream` that runs on `executor` (or where
    /// `upstream` says), does `work`, and owes what connects to it what `rule` says (by
    /// default, its last message).
    @inlinable
    static func make(
        upstream: MessageSource<Input>, executor: Executor? = nil, rule: ReplayRule<Output>? = nil,
        work: @escaping @Sendable (ModifierCore<Input, Output>, Input, UInt64?) -> Void
    ) -> OperatorCore {
        OperatorCore(upstream: upstream, executor: executor, rule: rule, entry: entry(work), work: work)
    }

    override func process(_ message: Input, sequence: UInt64?) {
        work(self, message, sequence)
    }
}

/// Messages held while a receiver connects. The non-generic base is what the lock's
/// closures return, so that they look up no generic metadata.
class HeldMessagesBase {
    /// How many of the first messages are the replay (which waits ahead of the rest, in
    /// its own order).
    var replayed = 0
    /// The end of the stream, if it came too: after every held message.
    var completion: Completion<any Error>?
}

/// Messages of type `Input` held while a receiver connects, with their numbers, in order.
final class HeldMessages<Input>: HeldMessagesBase {
    var messages: [(message: Input, sequence: UInt64?)] = []
}

/// Where a modifier's core stands with its upstream (see ``ModifierCore/revives``).
enum Attachment {
    /// Connecting, the first time or again.
    case attaching
    /// Connected.
    case attached
    /// Letting go of the upstream because nothing is connected to it.
    case detaching
    /// Not connected, to reconnect when something connects to it.
    case idle
    /// Detached for good: freed, ended, or an operator that does not revive.
    case final
}

/// A modifier's core that can be revived, seen without its message types while the chain
/// above a revived core is walked.
protocol RevivingCore: AnyObject {
    func claimIfIdle() -> Receiver??
    func reconnect()
    func settle()
}

extension ModifierCore: RevivingCore {}

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
