import Synchronization

/// What a ``SideInput`` hands its operator: a message, by address (valid for the call), or
/// the end of its source. Not generic, so that handing it over looks up no metadata.
@usableFromInline
enum SideEvent {
    case value(UnsafeRawPointer)
    case completion(Completion<any Error>)
}

/// How a ``SideInput`` hands its operator an event: the input itself (its operator is
/// ``SideInput/target``, its key ``SideInput/key``) and the event.
///
/// Made once per operator (or per input an operator adds when it is built), where the
/// operator is written, so that it is compiled for the operator's types: an input connected
/// on every switch of a `flatMapLatest` then allocates no closure.
@usableFromInline
typealias SideEntry = @Sendable (_ input: SideInput, _ event: SideEvent) -> Void

/// The receiver an operator connects to one of its inputs beyond its upstream (a second
/// source, a trigger, an inner source): it hands what arrives to the operator through its
/// ``handOn``, and holds what reaches it while it connects, so that the source's replay comes
/// first.
///
/// The non-generic part: what the operator keeps to detach it, and the state of connecting.
/// ``TypedSideInput`` adds the source, of its message type.
///
/// Connecting is one atomic `phase` in the common case: nothing reaches the input while it
/// connects but the replay, and no lock is taken or allocated. The lock, and the batch it
/// guards, are made the first time something must wait.
@usableFromInline
class SideInput: Receiver, @unchecked Sendable {
    // `@unchecked`: the `let`s are `Sendable` (the target is a thread-safe operator core);
    // `phase` and `lastSequence` are atomics; the held messages are behind `heldBox`'s lock;
    // `connectingThread` is written once, before `phase` announces connecting (releasing),
    // and read only after a load of `phase` (acquiring) saw it.

    /// The operator this input feeds; held until the input is freed (the operator lets go
    /// of its inputs when detached, which ends that cycle).
    @usableFromInline let target: Receiver
    /// The operator's key for this input.
    @usableFromInline let key: UInt64
    /// Whether the operator's work on this input's events runs on the sending thread (no
    /// queue, or the queue the source sends on).
    @usableFromInline let isInline: Bool
    /// How this input hands events to ``target``.
    let handOn: SideEntry
    /// The executor the entry runs on inline, if it is a queue (the source sends there): a
    /// connect from elsewhere receives the replay, and what waited, on it.
    let inlineQueue: Executor?

    /// ``Phase`` bits.
    let phase = Atomic<UInt8>(0)
    /// The number of the last numbered message handed on.
    let lastSequence = Atomic<UInt64>(0)
    /// The lock and the messages that waited while connecting, made when first needed.
    private let heldBox = AtomicLazyReference<SideHeldBox>()
    /// The thread connecting (see the `@unchecked` note above).
    private var connectingThread: ConnectingThread?
    /// Whether the connecting thread hands on what waited itself (the replay does not wait
    /// for ``inlineQueue``); written and read as ``connectingThread`` is.
    private var drainsHere = false

    /// The bits of ``phase``.
    enum Phase {
        /// Between the start of connecting and the end of handing on what waited.
        static let connecting: UInt8 = 1
        /// Something waits in the held batch (set under its lock).
        static let holding: UInt8 = 2
        /// Detached: never connects again.
        static let detached: UInt8 = 4
        /// ``connectToSource()`` is under way: it uses the source, and lets go of it if the
        /// input was detached meanwhile.
        static let attaching: UInt8 = 8
    }

    init(target: Receiver, key: UInt64, isInline: Bool, inlineQueue: Executor?, entry: @escaping SideEntry) {
        self.target = target
        self.key = key
        self.isInline = isInline
        self.inlineQueue = inlineQueue
        self.handOn = entry
        super.init()
    }

    /// Whether the replay waits for ``inlineQueue``; read on the connecting thread.
    final var replaysOnQueue: Bool {
        inlineQueue.map { !$0.isCurrent } ?? false
    }

    /// Connects to the source, unless detached; the replay is handed on before any message
    /// sent after it. Overridden by ``TypedSideInput``.
    func connectToSource() {}

    /// Disconnects from the source for good; returns it if this call detached the input.
    /// Overridden by ``TypedSideInput``.
    @discardableResult
    func detachFromSource() -> (any ChainEnd)? { nil }

    /// Begins connecting (and attaching); false if the input was detached.
    final func beginConnecting() -> Bool {
        connectingThread = ConnectingThread()
        drainsHere = !replaysOnQueue
        var current = phase.load(ordering: .acquiring)
        while current & Phase.detached == 0 {
            let (exchanged, original) = phase.compareExchange(
                expected: current, desired: current | Phase.connecting | Phase.attaching,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Ends connecting if nothing waits, without a lock; false if something does.
    ///
    /// S11: a holder sets `holding` under the held lock, with an exchange that needs
    /// `connecting`, before it adds to the batch; and `holding` is cleared only under that
    /// lock, with the batch empty. So while `holding` is clear the batch is empty, and an
    /// exchange that clears `connecting` then leaves nothing behind: a later holder finds
    /// `connecting` clear and hands its message on itself.
    final func finishConnectingIfNothingWaits() -> Bool {
        var current = phase.load(ordering: .acquiring)
        while current & Phase.holding == 0 {
            let (exchanged, original) = phase.compareExchange(
                expected: current, desired: current & ~Phase.connecting, ordering: .acquiringAndReleasing)
            if exchanged {
                SignalsChecks.checkNothingHeld { heldBox.load()?.state.withLock { $0.batch } }
                SignalsChecks.connectingEnds(self)
                return true
            }
            current = original
        }
        return false
    }

    /// Whether the input is connecting: a message arriving now may have to wait.
    @inline(__always)
    final var isConnecting: Bool {
        phase.load(ordering: .acquiring) & Phase.connecting != 0
    }

    /// Under the held lock: marks that something waits, if the input still connects;
    /// false if connecting is over (hand the message on at once).
    private func beginHolding() -> Bool {
        var current = phase.load(ordering: .acquiring)
        while true {
            guard current & Phase.connecting != 0 else { return false }
            if current & Phase.holding != 0 { return true }
            let (exchanged, original) = phase.compareExchange(
                expected: current, desired: current | Phase.holding, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    /// The held lock, made on first use.
    private var held: LockedState<SideHeld> {
        if let box = heldBox.load() { return box.state }
        return heldBox.storeIfNil(SideHeldBox()).state
    }

    /// Keeps what `add` puts in the held batch, if the input still connects; false if it
    /// does not (hand it on at once). `fromReplay`: the replay, which never counts as
    /// another thread's.
    /// A sender the gate holds back waits here, outside the lock (``SenderGate``).
    final func hold(fromReplay: Bool = false, _ add: (HeldMessagesBase) -> Void, make: () -> HeldMessagesBase) -> Bool {
        holdAtGate {
            held.withLock { held -> GateAttempt in
                // `holding` is already set when the gate shuts: it held messages this connect.
                guard beginHolding() else { return .notConnecting }
                let fromOtherThread = !fromReplay && connectingThread?.isCurrent == false
                let connecting = drainsHere ? connectingThread : nil
                if let wait = held.gate.admit(fromOtherThread: fromOtherThread, connecting: connecting) {
                    return .wait(wait)
                }
                let batch = held.batch ?? make()
                held.batch = batch
                add(batch)
                SignalsChecks.holds(self)
                return .held
            }
        }
    }

    /// Hands on the end of the source, after what waited before it.
    override func receiveCompletion(_ completion: Completion<any Error>) {
        if isConnecting, hold({ $0.completion = completion }, make: makeBatch) { return }
        handOn(self, .completion(completion))
    }

    override func receiveReplayCompletion(_ completion: Completion<any Error>) {
        if replaysOnQueue, hold(fromReplay: true, { $0.completion = completion }, make: makeBatch) { return }
        handOn(self, .completion(completion))
    }

    /// An empty batch of the input's message type.
    func makeBatch() -> HeldMessagesBase {
        HeldMessagesBase()
    }

    /// Hands on a batch of held messages, in order; overridden by ``TypedSideInput``.
    func receiveMessages(of batch: HeldMessagesBase) {}

    /// Connects to `relay` and hands on what waited meanwhile (the replay first, if it
    /// waited): at once if nothing did, else as a modifier's core does
    /// (``HoldsWhileConnecting``). Marked as draining from the connect on, as a core's
    /// connect is: the replay's work never waits at a gate.
    final func connect(to relay: Relay<some Sendable>) {
        guard drainsHere else {
            relay.connect(self)
            return receiveHeld(on: inlineQueue)
        }
        DeliveryContext.draining {
            relay.connect(self)
            if !finishConnectingIfNothingWaits() { receiveHeld() }
        }
    }
}

extension SideInput: HoldsWhileConnecting {
    func takeHeld() -> HeldTake<HeldMessagesBase> {
        // Nothing was held, so the gate never counted or shut.
        if finishConnectingIfNothingWaits() { return .finished }
        return held.withLock { held in
            guard let batch = held.batch else {
                // Under the lock that holders take: none can be adding now.
                phase.bitwiseAnd(~(Phase.connecting | Phase.holding), ordering: .acquiringAndReleasing)
                held.gate.connectingEnds()
                SignalsChecks.connectingEnds(self)
                return .finished
            }
            held.gate.drains()
            held.batch = nil
            return .taken(batch)
        }
    }

    func connectingFinished() {}

    func receiveTaken(_ batch: HeldMessagesBase) {
        receiveMessages(of: batch)
        if let completion = batch.completion { handOn(self, .completion(completion)) }
    }
}

/// A ``SideInput`` connected to a source of `Message`s, which it holds (as a modifier holds
/// its upstream) and which holds it while connected: detaching disconnects and lets go of
/// the source at once, which ends that cycle.
@usableFromInline
final class TypedSideInput<Message: Sendable>: SideInput, @unchecked Sendable {
    // `@unchecked` as for `SideInput`. `source` is read by the one connect and the one
    // detach (the operator hands each input to one detacher, under its table's lock) and
    // set to `nil` once, by whichever of them comes last, as `phase` decides: the detach,
    // if no connect is under way when it sets `detached`; otherwise the connect, when it
    // clears `attaching` and sees `detached`. Each reads it before that exchange.
    private var source: MessageSource<Message>?

    @usableFromInline
    init(
        source: MessageSource<Message>, target: Receiver, key: UInt64, isInline: Bool, inlineQueue: Executor?,
        entry: @escaping SideEntry
    ) {
        self.source = source
        super.init(target: target, key: key, isInline: isInline, inlineQueue: inlineQueue, entry: entry)
    }

    override func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {
        if isConnecting, hold(message, sequence: sequence, fromReplay: false) { return }
        receive(message, sequence: sequence)
    }

    override func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {
        // The replay waits for the queue, ahead of whatever arrived since the relay connected.
        if replaysOnQueue, hold(message, sequence: sequence, fromReplay: true) { return }
        receive(message, sequence: sequence)
    }

    /// Hands `message` on unless it is numbered and older than one handed on before (as a
    /// modifier's own input does, see ``Modifier``).
    private func receive(_ message: UnsafeRawPointer, sequence: UInt64?) {
        if let sequence, !lastSequence.advance(to: sequence) { return }
        handOn(self, .value(message))
    }

    /// Keeps a copy of the message at `message` in the held batch (the replay first).
    private func hold(_ message: UnsafeRawPointer, sequence: UInt64?, fromReplay: Bool) -> Bool {
        // Connected to a `MessageSource<Message>`, so the message is a `Message`.
        let copy = message.assumingMemoryBound(to: Message.self).pointee
        return hold(
            fromReplay: fromReplay,
            { batch in
                // Made by `makeBatch()`, of this type.
                let batch = unsafeDowncast(batch, to: HeldMessages<Message>.self)
                if fromReplay {
                    batch.messages.insert((copy, sequence), at: batch.replayed)
                    batch.replayed += 1
                } else {
                    batch.messages.append((copy, sequence))
                }
            }, make: makeBatch)
    }

    override func makeBatch() -> HeldMessagesBase {
        HeldMessages<Message>()
    }

    override func receiveMessages(of batch: HeldMessagesBase) {
        let messages = unsafeDowncast(batch, to: HeldMessages<Message>.self).messages
        SignalsChecks.receivesHeld(self, count: messages.count)
        for (message, sequence) in messages {
            withUnsafePointer(to: message) { receive(UnsafeRawPointer($0), sequence: sequence) }
        }
    }

    override func connectToSource() {
        guard beginConnecting(), let relay = source?.relay else { return }
        connect(to: relay)
        let before = phase.bitwiseAnd(~Phase.attaching, ordering: .acquiringAndReleasing).oldValue
        guard before & Phase.detached != 0 else { return }
        // Detached meanwhile, maybe before the connect took the relay's lock: disconnect
        // here too (a second disconnect does nothing) and let go of the source.
        relay.disconnect(self)
        source = nil
    }

    override func detachFromSource() -> (any ChainEnd)? {
        let kept = source
        let before = phase.bitwiseOr(Phase.detached, ordering: .acquiringAndReleasing).oldValue
        guard before & Phase.detached == 0, let kept else { return nil }
        kept.relay.disconnect(self)
        // A connect under way lets go of it when it ends.
        if before & Phase.attaching == 0 { source = nil }
        return kept
    }
}

/// What reached a ``SideInput`` while it connected: not generic, so that the lock's closures
/// look up no metadata.
struct SideHeld: @unchecked Sendable {
    // `@unchecked`: only touched under its input's lock; the batch is made and taken there.

    /// What waits, if anything: a `HeldMessages` of the input's message type.
    var batch: HeldMessagesBase?
    /// Holds back other threads' senders while the input connects.
    var gate = SenderGate()
}

/// The lock of a ``SideInput``'s held messages, made the first time one must wait.
final class SideHeldBox: Sendable {
    let state = LockedState(SideHeld())
}
