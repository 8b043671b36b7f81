#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state and delivery behind an observable (a ``MessageSource``): the connected receivers,
/// held strongly, the last message, and the messages a delivering thread sent meanwhile.
///
/// A relay holds its receivers strongly, so a delivery loads no weak reference (a weak
/// reference gives its object a side table, and every retain and release of it then takes
/// the slow path: 70% of a delivery's time under perf). What a user holds is the
/// ``MessageSource`` handle; a modifier's handle disconnects its receiver when it is freed.
class Relay<Message: Sendable>: @unchecked Sendable {
    // `@unchecked`: a non-final class cannot be checked. Every stored property here and in
    // every subclass is a `let` of a `Sendable` type, or (`lastSlot`, `nested`) only
    // touched while holding `state`'s lock.

    // The hot path (`send`) touches only non-generic types: generic code that uses a generic
    // struct or `Optional<Message>` looks their metadata up at run time, which cost more than
    // the delivery itself (callgrind).
    private let state = LockedState(ObservableState())
    /// The last message; initialized while `state.hasLast`, read and written under the lock.
    private let lastSlot = UnsafeMutablePointer<Message>.allocate(capacity: 1)
    /// Messages sent by a thread while it delivers one of this observable's messages, in
    /// the order sent; touched only while holding `state`'s lock.
    private var nested: [(thread: UInt, message: Message, sequence: UInt64?)] = []
    /// Where modifiers connected to this observable run by default.
    let downstreamExecutor: Executor
    /// Where this observable sends its messages from (`nil`: any thread, for sources).
    let emittingExecutor: Executor?

    init(last: Message? = nil, emittingExecutor: Executor?, downstreamExecutor: Executor) {
        self.emittingExecutor = emittingExecutor
        self.downstreamExecutor = downstreamExecutor
        if let last {
            lastSlot.initialize(to: last)
            state.withLock { $0.hasLast = true }
        }
    }

    deinit {
        if state.withLock({ $0.hasLast }) { lastSlot.deinitialize(count: 1) }
        lastSlot.deallocate()
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
        let thread = currentThreadID()
        let receivers = state.withLock { state -> [any RawReceiver]? in
            if state.isDelivering(on: thread) {
                enqueueNested(message, sequence: sequence, on: thread)
                state.nestedCount += 1
                return nil
            }
            state.beginDelivering(on: thread)
            remember(message, sequence: sequence, in: &state)
            return state.receivers
        }
        guard let receivers else { return }
        deliver(message, sequence: sequence, to: receivers)
        // The common case, nothing nested: the closure returns a `Bool`, not a generic type,
        // whose metadata would be looked up at run time on every send (perf).
        let isDone = state.withLock { state -> Bool in
            guard state.nestedCount == 0 else { return false }
            state.endDelivering(on: thread)
            return true
        }
        if !isDone { deliverNested(on: thread) }
    }

    /// Queues a nested message; called under the lock. Not inlined: the queue's element is a
    /// generic tuple, whose metadata would otherwise be looked up on every send.
    @inline(never)
    private func enqueueNested(_ message: Message, sequence: UInt64?, on thread: UInt) {
        nested.append((thread, message, sequence))
    }

    /// Delivers the messages `thread` sent while delivering, in the order sent; each is
    /// remembered when its delivery starts, after the one before it reached every modifier.
    private func deliverNested(on thread: UInt) {
        while true {
            let next = state.withLock { state -> (Message, UInt64?, [any RawReceiver])? in
                if state.nestedCount > 0, let index = nested.firstIndex(where: { $0.thread == thread }) {
                    let (_, message, sequence) = nested.remove(at: index)
                    state.nestedCount -= 1
                    remember(message, sequence: sequence, in: &state)
                    return (message, sequence, state.receivers)
                }
                state.endDelivering(on: thread)
                return nil
            }
            guard let (message, sequence, receivers) = next else { return }
            deliver(message, sequence: sequence, to: receivers)
        }
    }

    private func remember(_ message: Message, sequence: UInt64?, in state: inout ObservableState) {
        guard let sequence else { return remember(message, in: &state) }
        if sequence > state.lastSequence {
            remember(message, in: &state)
            state.lastSequence = sequence
        }
    }

    private func deliver(_ message: Message, sequence: UInt64?, to receivers: [any RawReceiver]) {
        withUnsafePointer(to: message) { pointer in
            for receiver in receivers { receiver.receive(raw: UnsafeRawPointer(pointer), sequence: sequence) }
        }
    }

    /// Connects `receiver`, which takes messages of type `Message`, and holds it until it is
    /// disconnected; returns the last message, which it is owed, and its number if it has one.
    func connect(_ receiver: some RawReceiver) -> (Message, UInt64?)? {
        state.withLock { state in
            state.receivers.append(receiver)
            guard state.hasLast else { return nil }
            return (lastSlot.pointee, state.lastSequence > 0 ? state.lastSequence : nil)
        }
    }

    /// Disconnects `receiver`. It is released outside the lock: if that release is its last,
    /// its `deinit` may disconnect what it holds, which takes other relays' locks.
    func disconnect(_ receiver: AnyObject) {
        let removed = state.withLock { state -> (any RawReceiver)? in
            guard let index = state.receivers.firstIndex(where: { $0 === receiver }) else { return nil }
            return state.receivers.remove(at: index)
        }
        _ = removed
    }
}

/// An observable's state behind its lock. At file scope, not nested in the generic class:
/// a nested type is generic too, and its metadata would be looked up on every send.
struct ObservableState: Sendable {
    var receivers: [any RawReceiver] = []
    var hasLast = false
    /// The sequence number of the last message, for sources whose writers race
    /// (``Property``).
    var lastSequence: UInt64 = 0
    /// The thread delivering one of the observable's messages now (0: none), and any others
    /// doing so at the same time; a message one of them sends meanwhile is nested, and
    /// waits. One thread is kept apart so that the common case allocates nothing.
    var deliverer: UInt = 0
    var otherDeliverers: [UInt] = []
    /// How many nested messages wait, so that the common case never looks at them.
    var nestedCount = 0

    func isDelivering(on thread: UInt) -> Bool {
        deliverer == thread || (!otherDeliverers.isEmpty && otherDeliverers.contains(thread))
    }

    mutating func beginDelivering(on thread: UInt) {
        if deliverer == 0 { deliverer = thread } else { otherDeliverers.append(thread) }
    }

    mutating func endDelivering(on thread: UInt) {
        if deliverer == thread {
            deliverer = 0
        } else if let index = otherDeliverers.firstIndex(of: thread) {
            otherDeliverers.remove(at: index)
        }
    }
}

/// Takes messages from an observable, by address: the observable knows the message type
/// and so does the receiver it connected (a modifier whose input is that type).
protocol RawReceiver: AnyObject, Sendable {
    /// Receives the message at `message`, which is of the receiver's input type, numbered
    /// `sequence` by a source whose messages are states (or `nil`).
    func receive(raw message: UnsafeRawPointer, sequence: UInt64?)
}

/// The calling thread's identity, as a number (`pthread_t` is a number on Linux and a
/// pointer on Apple platforms).
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
