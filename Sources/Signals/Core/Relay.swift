/// The state and delivery behind an observable (a ``MessageSource``): the connected receivers,
/// held strongly, and the last message. A send nested in a delivery waits in the thread's
/// ``DeliveryContext``.
///
/// A relay holds its receivers strongly, so a delivery loads no weak reference (a weak
/// reference gives its object a side table, and every retain and release of it then takes
/// the slow path: 70% of a delivery's time under perf). What a user holds is the
/// ``MessageSource`` handle; a modifier's handle disconnects its receiver when it is freed.
class Relay<Message: Sendable>: Receiver, @unchecked Sendable {
    // `@unchecked`: a non-final class cannot be checked. Every stored property here and in
    // every subclass is a `let` of a `Sendable` type, or (`lastSlot`) only touched while
    // holding `state`'s lock.

    // The hot path (`send`) touches only non-generic types: generic code that uses a generic
    // struct or `Optional<Message>` looks their metadata up at run time, which cost more than
    // the delivery itself (callgrind).
    let state = RelayStorage.make(
        messageSize: MemoryLayout<Message>.size, alignment: MemoryLayout<Message>.alignment)
    /// The last message, in `state`'s allocation; initialized while `state.hasLast`, read and
    /// written under the lock.
    private let lastSlot: UnsafeMutablePointer<Message>
    /// Where this observable sends its messages from (`nil`: any thread, for sources).
    let emittingExecutor: Executor?

    init(last: Message? = nil, emittingExecutor: Executor?) {
        lastSlot = state.messageAddress(alignment: MemoryLayout<Message>.alignment)
            .bindMemory(to: Message.self, capacity: 1)
        self.emittingExecutor = emittingExecutor
        if let last {
            lastSlot.initialize(to: last)
            state.withLock { $0.hasLast = true }
        }
    }

    deinit {
        // The slot itself goes with `state`, which this relay's deinit releases after this.
        if state.withLock({ $0.hasLast }) { lastSlot.deinitialize(count: 1) }
    }

    /// The last message sent, if any: what a newly connected modifier receives.
    var lastMessage: Message? {
        state.withLock { $0.hasLast ? lastSlot.pointee : nil }
    }

    /// How many receivers are connected.
    var connectedCount: Int {
        state.withLock { $0.receivers.count }
    }

    private func remember(_ message: Message, in state: inout ObservableState) {
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
    func send(_ message: Message) {
        send(message, sequence: nil)
    }

    /// Sends `message`, numbered `sequence` by a source whose writes can race (or `nil`);
    /// it is remembered only if no later-numbered message was sent first.
    func send(_ message: Message, sequence: UInt64?) {
        let context = DeliveryContext.current
        let identity = ObjectIdentifier(self)
        if context._withUnsafeGuaranteedRef({ $0.isDelivering(identity) }) {
            return enqueueNested(message, sequence: sequence, in: context)
        }
        // A relay with no receivers remembers the message and is done: there is no delivery
        // for a send to nest in.
        guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
        context._withUnsafeGuaranteedRef { $0.begin(identity) }
        deliver(message, sequence: sequence, to: receivers)
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
    final func sendFromInput(_ message: Message, sequence: UInt64?) {
        guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
        deliver(message, sequence: sequence, to: receivers)
    }

    /// Under the lock: remembers `message` and takes the receivers, or `nil` if there are
    /// none (a relay without receivers just remembers: there is no delivery to nest in).
    @inline(__always)
    private func rememberAndTakeReceivers(_ message: Message, sequence: UInt64?) -> [Receiver]? {
        state.withLock { state -> [Receiver]? in
            remember(message, sequence: sequence, in: &state)
            return state.receivers.isEmpty ? nil : state.receivers
        }
    }

    /// Queues a send made while this relay delivers on the same thread; it is remembered
    /// and delivered when the delivery under way has reached every receiver. Not inlined:
    /// the closure captures a generic message, whose metadata would otherwise be looked up
    /// on every send.
    @inline(never)
    private func enqueueNested(_ message: Message, sequence: UInt64?, in context: Unmanaged<DeliveryContext>) {
        context._withUnsafeGuaranteedRef { context in
            context.enqueue(ObjectIdentifier(self)) { [self] in
                let receivers = state.withLock { state in
                    remember(message, sequence: sequence, in: &state)
                    return state.receivers
                }
                deliver(message, sequence: sequence, to: receivers)
            }
        }
    }

    private func remember(_ message: Message, sequence: UInt64?, in state: inout ObservableState) {
        guard let sequence else { return remember(message, in: &state) }
        if sequence > state.lastSequence {
            remember(message, in: &state)
            state.lastSequence = sequence
        }
    }

    private func deliver(_ message: Message, sequence: UInt64?, to receivers: [Receiver]) {
        withUnsafePointer(to: message) { pointer in
            // `receivers` holds each receiver for the whole delivery, so each is called
            // through an unretained reference: two atomic operations fewer per receiver.
            receivers.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: Unmanaged<Receiver>.self) { references in
                    for reference in references {
                        reference._withUnsafeGuaranteedRef {
                            $0.receive(raw: UnsafeRawPointer(pointer), sequence: sequence)
                        }
                    }
                }
            }
        }
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
                state.receivers.append(receiver)
                guard state.hasLast else { return Replay(isOwed: false, sequence: nil) }
                owed.initialize(to: lastSlot.pointee)
                return Replay(isOwed: true, sequence: state.lastSequence > 0 ? state.lastSequence : nil)
            }
            guard replay.isOwed else { return }
            receiver.receiveReplay(raw: UnsafeRawPointer(owed), sequence: replay.sequence)
            owed.deinitialize(count: 1)
        }
    }

    /// Disconnects `receiver`. It is released outside the lock: if that release is its last,
    /// its `deinit` may disconnect what it holds, which takes other relays' locks.
    func disconnect(_ receiver: AnyObject) {
        let removed = state.withLock { state -> Receiver? in
            guard let index = state.receivers.firstIndex(where: { $0 === receiver }) else { return nil }
            return state.receivers.remove(at: index)
        }
        _ = removed
    }
}

/// An observable's state behind its lock. At file scope, not nested in the generic class:
/// a nested type is generic too, and its metadata would be looked up on every send.
struct ObservableState: Sendable {
    var receivers: [Receiver] = []
    var hasLast = false
    /// The sequence number of the last message, for sources whose writers race
    /// (``Property``).
    var lastSequence: UInt64 = 0
}

/// Whether a connecting receiver is owed a replay, and its number.
struct Replay {
    var isOwed: Bool
    var sequence: UInt64?
}

/// Takes messages from a relay, by address: the relay knows the message type and so does
/// the receiver it connected (a modifier's core whose input is that type, or a two-source
/// modifier's second input).
///
/// A class rather than a protocol, so that a delivery calls it through an unretained
/// reference. Every relay is one (a modifier's core receives from the relay before it);
/// an endpoint's relay is never connected, and ignores messages.
class Receiver: @unchecked Sendable {
    // `@unchecked`: no stored state; subclasses say why they are `Sendable`.

    /// Receives the message at `message`, which is of the receiver's input type, numbered
    /// `sequence` by a source whose messages are states (or `nil`).
    func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {}

    /// Receives the message it is owed on connecting (the relay's last message), at
    /// `message`, before any message sent after it.
    func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {}
}
