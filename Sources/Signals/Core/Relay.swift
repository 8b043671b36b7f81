/// The state and delivery behind an observable (a ``MessageSource``): the connected receivers,
/// held strongly, and the last message. A send nested in a delivery waits in the thread's
/// ``DeliveryContext``.
///
/// A relay holds its receivers strongly, so a delivery loads no weak reference (a weak
/// reference gives its object a side table, and every retain and release of it then takes
/// the slow path: 70% of a delivery's time under perf). What a user holds is the
/// ``MessageSource`` handle; a modifier's handle disconnects its receiver when it is freed.
///
/// The path a message takes (``send(_:sequence:)``, ``sendFromInput(_:sequence:)`` and what
/// they call) is `@inlinable`, and so is each one-input operator that builds a modifier: a
/// client's chain is then compiled for its own message types. Code in this module is generic
/// and copies, compares and remembers messages through run-time type information, which cost
/// three times the delivery itself (a probe of map → filter → then: 31 ns per message
/// compiled for `Int`, 170 ns generic).
@usableFromInline
class Relay<Message: Sendable>: Receiver, @unchecked Sendable {
    // `@unchecked`: a non-final class cannot be checked. Every stored property here and in
    // every subclass is a `let` of a `Sendable` type, or (`lastSlot`) only touched while
    // holding `state`'s lock.

    // The hot path (`send`) touches only non-generic types: generic code that uses a generic
    // struct or `Optional<Message>` looks their metadata up at run time, which cost more than
    // the delivery itself (callgrind).
    @usableFromInline let state = RelayStorage.make(
        messageSize: MemoryLayout<Message>.size, alignment: MemoryLayout<Message>.alignment)
    /// The last message, in `state`'s allocation; initialized while `state.hasLast`, read and
    /// written under the lock.
    @usableFromInline let lastSlot: UnsafeMutablePointer<Message>
    /// Where this observable sends its messages from (`nil`: any thread, for sources).
    @usableFromInline let emittingExecutor: Executor?
    /// How the stream ended, once it did (while `state.isCompleted`): what a receiver that
    /// connects later is handed instead of a last message. Under `state`'s lock.
    private var completion: Completion<any Error>?

    /// A relay whose last message is `last` (or none), sending from `emittingExecutor`;
    /// `entry` is how it receives, as a modifier's core (see ``Receiver/entry``).
    init(last: Message? = nil, emittingExecutor: Executor?, entry: @escaping Entry = Receiver.receiveEntry) {
        lastSlot = state.messageAddress(alignment: MemoryLayout<Message>.alignment)
            .bindMemory(to: Message.self, capacity: 1)
        self.emittingExecutor = emittingExecutor
        super.init(entry: entry)
        if let last {
            lastSlot.initialize(to: last)
            state.withLock { $0.hasLast = true }
        }
    }

    deinit {
        // The slot itself goes with `state`, which this relay's deinit releases after this.
        let list = state.withLock { state -> Unmanaged<ReceiverList>? in
            if state.hasLast { lastSlot.deinitialize(count: 1) }
            return state.list
        }
        // No delivery walks this list: a walk runs inside a send of this relay, which the
        // caller keeps alive (a source's handle, or the list of the relay before it).
        list?.release()
    }

    /// The last message sent, if any: what a newly connected modifier receives.
    var lastMessage: Message? {
        state.withLock { $0.hasLast ? lastSlot.pointee : nil }
    }

    /// How many receivers are connected.
    var connectedCount: Int {
        state.withLock { state in state.list.map { $0._withUnsafeGuaranteedRef(\.count) } ?? 0 }
    }

    @inlinable
    final func remember(_ message: Message, in state: inout ObservableState) {
        if state.hasLast {
            lastSlot.pointee = message
        } else {
            lastSlot.initialize(to: message)
            state.hasLast = true
        }
    }

    /// Sends `message` to every connected modifier, and remembers it.
    ///
    /// A message sent by the thread that is delivering this observable's message (from a
    /// closure of an inline chain) is queued and delivered after the current one, first in
    /// first out, so that every modifier receives this thread's messages in the order sent
    /// and the last message remembered is the newest. Other threads deliver at once, as
    /// before: they never wait for each other.
    @inlinable
    final func send(_ message: Message) {
        send(message, sequence: nil)
    }

    /// Sends `message`, numbered `sequence` by a source whose writes can race (or `nil`);
    /// it is remembered only if no later-numbered message was sent first.
    @inlinable
    final func send(_ message: Message, sequence: UInt64?) {
        let context = DeliveryContext.current
        let identity = ObjectIdentifier(self)
        if context._withUnsafeGuaranteedRef({ $0.isDelivering(identity) }) {
            return enqueueNested(message, sequence: sequence, in: context)
        }
        // Begun (and the thread pinned) before the list is read: see `Reclaimer`.
        context._withUnsafeGuaranteedRef { $0.begin(identity) }
        if let receivers = rememberAndTakeReceivers(message, sequence: sequence) {
            deliver(message, sequence: sequence, to: receivers)
        }
        context._withUnsafeGuaranteedRef { $0.end(identity) }
    }

    /// Sends `message` (numbered `sequence`, or not) from the work of a one-input modifier
    /// that runs on the sending thread, skipping the thread's delivery context: it remembers
    /// and delivers at once.
    ///
    /// Such a send can never be nested in this relay's own delivery on the same thread. The
    /// modifier works only inside its input's delivery (or in its own replay, before anything
    /// is connected to it, or in a drain of what waited while it connected, at the top of a
    /// thread); a closure after it that fires the chain's source while that source delivers
    /// is queued by the source (``send(_:sequence:)``). By induction up the chain, the relay
    /// is never entered twice on one thread. Sources, two-source and paced modifiers (fed by
    /// a second source or a timer) and modifiers on a queue (whose work a spun run loop can
    /// nest) use the guarded ``send(_:sequence:)``.
    @inlinable
    final func sendFromInput(_ message: Message, sequence: UInt64?) {
        guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
        deliver(message, sequence: sequence, to: receivers)
    }

    /// Under the lock: remembers `message` and takes the receivers, or `nil` if there are
    /// none (a relay without receivers just remembers: there is no delivery to nest in).
    /// After the end, the message is dropped: `nil`, nothing remembered.
    @inlinable @inline(__always)
    final func rememberAndTakeReceivers(_ message: Message, sequence: UInt64?) -> ReceiverWalk? {
        state.withLock { state -> ReceiverWalk? in
            guard !state.isCompleted else { return nil }
            remember(message, sequence: sequence, in: &state)
            guard let list = state.list else { return nil }
            return ReceiverWalk(list: list, count: list._withUnsafeGuaranteedRef { $0.count })
        }
    }

    /// Queues a send made while this relay delivers on the same thread; it is remembered
    /// and delivered when the delivery under way has reached every receiver. Not inlined:
    /// the closure captures a generic message, whose metadata would otherwise be looked up
    /// on every send.
    @usableFromInline @inline(never)
    final func enqueueNested(_ message: Message, sequence: UInt64?, in context: Unmanaged<DeliveryContext>) {
        context._withUnsafeGuaranteedRef { context in
            context.enqueue(ObjectIdentifier(self)) { [self] in
                guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
                deliver(message, sequence: sequence, to: receivers)
            }
        }
    }

    @inlinable
    final func remember(_ message: Message, sequence: UInt64?, in state: inout ObservableState) {
        guard let sequence else { return remember(message, in: &state) }
        if sequence > state.lastSequence {
            remember(message, in: &state)
            state.lastSequence = sequence
        }
    }

    /// Hands `message` to each receiver in `receivers`, a list read under the lock; the
    /// thread is pinned (see ``Reclaimer``), so the list stays alive without a reference.
    @inlinable
    final func deliver(_ message: Message, sequence: UInt64?, to receivers: ReceiverWalk) {
        assert(DeliveryContext.isPinned, "Signals: a delivery walked a receivers list without pinning its thread")
        SignalsChecks.walkBegins(receivers.list)
        withUnsafePointer(to: message) { pointer in
            receivers.list._withUnsafeGuaranteedRef {
                $0.deliver(UnsafeRawPointer(pointer), sequence: sequence, count: receivers.count)
            }
        }
        SignalsChecks.walkEnds(receivers.list)
    }

    /// How the stream ended, if it did.
    var endedWith: Completion<any Error>? {
        state.withLock { $0.isCompleted ? completion : nil }
    }

    /// Ends the stream: sends `completion` to every connected receiver, after every message
    /// sent before it, then lets go of them all; later messages and completions are dropped,
    /// and a receiver that connects later is handed the completion at once.
    ///
    /// Guarded as ``send(_:sequence:)`` is: sent while this relay delivers on the same
    /// thread, it waits behind the messages queued there.
    final func complete(_ completion: Completion<any Error>) {
        let context = DeliveryContext.current
        let identity = ObjectIdentifier(self)
        if context._withUnsafeGuaranteedRef({ $0.isDelivering(identity) }) {
            context._withUnsafeGuaranteedRef { context in
                context.enqueue(identity) { [self] in deliverCompletion(completion) }
            }
            return
        }
        context._withUnsafeGuaranteedRef { $0.begin(identity) }
        deliverCompletion(completion)
        context._withUnsafeGuaranteedRef { $0.end(identity) }
    }

    /// Records the end under the lock (forgetting the last message, which no receiver is
    /// handed any more), takes the receivers out of the state and hands each the completion.
    private func deliverCompletion(_ completion: Completion<any Error>) {
        let taken = state.withLock { state -> Unmanaged<ReceiverList>? in
            guard !state.isCompleted else { return nil }
            state.isCompleted = true
            self.completion = completion
            if state.hasLast {
                lastSlot.deinitialize(count: 1)
                state.hasLast = false
            }
            defer {
                state.list = nil
                SignalsChecks.checkEnded(state)
            }
            return state.list
        }
        guard let taken else { return }
        // Out of the state, the list changes no more (only the state's list is appended to):
        // reading it without the lock is safe. Retired afterwards, not released: another
        // thread may still be walking it with a message sent before the end.
        let list = taken.takeRetainedValue()
        for receiver in list.receivers { receiver.receiveCompletion(completion) }
        Reclaimer.shared.retire(list)
    }

    /// Connects `receiver`, which takes messages of type `Message`, and holds it until it is
    /// disconnected; hands it the last message, which it is owed, through
    /// ``Receiver/receiveReplay(raw:sequence:)``, outside the lock.
    ///
    /// The copy of the last message waits in a temporary allocation and the lock's closure
    /// returns a non-generic value: a generic tuple or optional would have its metadata looked
    /// up at run time on every connect (perf: most of a subscription's time went to lookups).
    func connect(_ receiver: Receiver) {
        withUnsafeTemporaryAllocation(of: Message.self, capacity: 1) { buffer in
            let owed = buffer.baseAddress!
            let replay = state.withLock { state -> Replay in
                guard !state.isCompleted else {
                    SignalsChecks.checkEnded(state)
                    return Replay(isOwed: false, sequence: nil, replaced: nil, completion: completion)
                }
                var old = state.list
                if let list = old, list._withUnsafeGuaranteedRef({ $0.appendIfRoom(receiver) }) {
                    old = nil
                } else {
                    // Full (or none): a new list with room to double, the old one retired.
                    let list: ReceiverList
                    if let old {
                        let receivers = old.takeUnretainedValue().receivers + [receiver]
                        list = ReceiverList.make(receivers, capacity: 2 * receivers.count - 1)
                    } else {
                        list = ReceiverList.make(single: receiver, capacity: 2)
                    }
                    state.list = Unmanaged.passRetained(list)
                }
                SignalsChecks.checkList(state.list)
                guard state.hasLast else { return Replay(isOwed: false, sequence: nil, replaced: old) }
                owed.initialize(to: lastSlot.pointee)
                return Replay(
                    isOwed: true, sequence: state.lastSequence > 0 ? state.lastSequence : nil, replaced: old)
            }
            if let replaced = replay.replaced { Reclaimer.shared.retire(replaced.takeRetainedValue()) }
            if let completion = replay.completion {
                // Not connected: the stream is over. Pinned, as a replay is.
                return DeliveryContext.pinned { receiver.receiveReplayCompletion(completion) }
            }
            guard replay.isOwed else { return }
            // Pinned: the replay may run work that sends on (a modifier whose chain was just
            // extended, through messages that waited).
            DeliveryContext.pinned {
                receiver.receiveReplay(raw: UnsafeRawPointer(owed), sequence: replay.sequence)
            }
            owed.deinitialize(count: 1)
        }
    }

    /// Disconnects `receiver`. It is released outside the lock: if that release is its last,
    /// its `deinit` may disconnect what it holds, which takes other relays' locks.
    func disconnect(_ receiver: AnyObject) {
        let replaced = state.withLock { state -> Unmanaged<ReceiverList>? in
            guard let old = state.list else { return nil }
            if old._withUnsafeGuaranteedRef({ $0.holdsOnly(receiver) }) {
                state.list = nil
                return old
            }
            var receivers = old.takeUnretainedValue().receivers
            guard let index = receivers.firstIndex(where: { $0 === receiver }) else { return nil }
            receivers.remove(at: index)
            state.list =
                receivers.isEmpty
                ? nil : Unmanaged.passRetained(ReceiverList.make(receivers, capacity: receivers.count + 1))
            SignalsChecks.checkList(state.list)
            return old
        }
        // Retired, not released: another thread may be walking it; it holds `receiver` until
        // then. Outside the lock: freeing it may free the receiver, whose teardown may
        // disconnect what it holds.
        if let replaced { Reclaimer.shared.retire(replaced.takeRetainedValue()) }
    }
}

/// An observable's state behind its lock. At file scope, not nested in the generic class:
/// a nested type is generic too, and its metadata would be looked up on every send.
@usableFromInline
struct ObservableState: @unchecked Sendable {
    // `@unchecked`: only touched under its relay's lock; `list` is a reference the relay
    // owns (one retain, given back when it is replaced or the relay is freed).

    /// The connected receivers, `nil` if none.
    @usableFromInline var list: Unmanaged<ReceiverList>?
    @usableFromInline var hasLast = false
    /// The sequence number of the last message, for sources whose writers race
    /// (``Property``).
    @usableFromInline var lastSequence: UInt64 = 0
    /// Whether the stream ended: no message is remembered or delivered after it.
    @usableFromInline var isCompleted = false

    init() {}
}

/// Whether a connecting receiver is owed a replay, and its number.
struct Replay {
    var isOwed: Bool
    var sequence: UInt64?
    /// The receivers list the connection replaced, to retire.
    var replaced: Unmanaged<ReceiverList>?
    /// How the stream ended, if it did: the receiver was not connected and is handed this.
    var completion: Completion<any Error>? = nil
}

/// Takes messages from a relay, by address: the relay knows the message type and so does
/// the receiver it connected (a modifier's core whose input is that type, or a two-source
/// modifier's second input).
///
/// A class rather than a protocol, so that a delivery calls it through an unretained
/// reference. Every relay is one (a modifier's core receives from the relay before it);
/// an endpoint's relay is never connected, and ignores messages.
@usableFromInline
class Receiver: @unchecked Sendable {
    // `@unchecked`: the one stored property is a `let` of a `Sendable` closure; subclasses
    // say why they are `Sendable`.

    /// How a delivery hands this receiver a message: the receiver itself, the message's
    /// address and its number.
    @usableFromInline typealias Entry = @Sendable (Receiver, UnsafeRawPointer, UInt64?) -> Void

    /// What a delivery calls. By default ``receive(raw:sequence:)``; a one-input modifier's
    /// core made by an operator gets a closure compiled for its client's types, which runs
    /// the modifier's work at once in the common case (see ``ModifierCore/entry(_:)``).
    @usableFromInline final let entry: Entry

    /// A receiver entered through `entry`. Not an optional parameter: an optional closure is
    /// stored in its most general form, and calling it after unwrapping goes through two
    /// conversion thunks (perf: a quarter of a three-modifier chain's time).
    init(entry: @escaping Entry = Receiver.receiveEntry) {
        self.entry = entry
    }

    /// The default ``entry``: ``receive(raw:sequence:)``.
    @usableFromInline static let receiveEntry: Entry = { receiver, message, sequence in
        receiver.receive(raw: message, sequence: sequence)
    }

    /// Receives the message at `message`, which is of the receiver's input type, numbered
    /// `sequence` by a source whose messages are states (or `nil`).
    @usableFromInline
    func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {}

    /// Receives the message it is owed on connecting (the relay's last message), at
    /// `message`, before any message sent after it.
    func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {}

    /// Receives the end of the stream, after every message sent before it; nothing follows.
    /// The relay has let go of this receiver.
    func receiveCompletion(_ completion: Completion<any Error>) {}

    /// Receives the end of a stream that had ended when this receiver connected (it was not
    /// connected). By default, as ``receiveCompletion(_:)``.
    func receiveReplayCompletion(_ completion: Completion<any Error>) {
        receiveCompletion(completion)
    }

    /// Asked when the chain after it ended: a modifier's core that feeds nothing any more
    /// detaches from its upstream and returns it, to be asked in turn; anything else (a
    /// source's relay, a core that still feeds a chain) returns `nil`.
    func detachIfIdle() -> Receiver? { nil }
}
