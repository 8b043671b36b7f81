import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread that connects a receiver, to tell its own sends from other threads'.
struct ConnectingThread: @unchecked Sendable {
    // `@unchecked`: a thread's identity, compared, never dereferenced.
    private let thread = pthread_self()

    /// Whether the calling thread is the connecting one.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}

/// One look, under a receiver's lock, at the messages that waited while it connected.
enum HeldTake<Batch> {
    /// Nothing waited: connecting is over (the receiver ended it under the same lock).
    case finished
    /// The messages that waited, taken out, oldest first.
    case taken(Batch)
}

/// Backpressure on the threads that send to a receiver while it connects (S14).
///
/// What reaches a connecting receiver waits behind its replay, and the thread draining it
/// (the connecting thread, or the receiver's queue) does the chain's work on it. A sender
/// that only adds to the batch is faster than that work, so a sender that never pauses
/// would keep the receiver connecting for ever, the batch growing without bound and each
/// message later than the one before. The gate bounds it: once other threads have held
/// ``limit`` messages in one connect, a thread sending one more while a drain is under way
/// on another thread waits until connecting ends, then hands its message on itself, after
/// every earlier one (so its messages stay in order). A thread that is draining never waits
/// (``DeliveryContext/isDraining``), nor does a connecting thread, from its connect to the
/// end of its drain: a drain waits for nothing, so no two threads can wait for each other.
///
/// Kept under the receiver's lock, in a modifier's core and in a side input; and, with
/// ``holdBack(backlog:)``, under a stream operator's lock for the effects its carrier works
/// through (S10): a thread that steps the operator while its outbox holds ``limit`` effects
/// waits until the carrier leaves.
@usableFromInline
struct SenderGate: @unchecked Sendable {
    // `@unchecked`: kept under its receiver's lock; the semaphores are thread-safe.
    /// How many messages of other threads may wait in one connect (or effects in a stream
    /// operator's outbox) before their senders wait.
    @usableFromInline static let limit = 1_024

    /// The thread working through what waited, once one looked at the batch (a queue's
    /// thread, when the drain waits for a queue); before, the connecting thread, unless the
    /// drain waits for a queue (see ``admit(fromOtherThread:connecting:)``).
    private var drainer: ConnectingThread?
    /// The messages held in this connect from threads other than the connecting one.
    private var heldFromOthers = 0
    /// The senders waiting for connecting to end.
    private var waiters: [DispatchSemaphore] = []

    /// Under the lock, before a message is held: `nil` to hold it now (counted if it comes
    /// from another thread than the connecting one), or a semaphore to wait on, outside the
    /// lock, before looking again (connecting will have ended). `connecting`: the connecting
    /// thread if it drains what waits itself (the replay did not wait for a queue).
    mutating func admit(fromOtherThread: Bool, connecting: ConnectingThread?) -> DispatchSemaphore? {
        guard fromOtherThread else { return nil }
        let gated = (drainer ?? connecting).map { !$0.isCurrent } == true && !DeliveryContext.isDraining
        if gated, heldFromOthers >= Self.limit { return shut() }
        heldFromOthers += 1
        if gated { SignalsChecks.checkGate(heldFromOthers: heldFromOthers, limit: Self.limit) }
        return nil
    }

    /// Under the lock of a stream operator whose outbox holds `backlog` effects while a thread
    /// carries them out: a semaphore to wait on, outside the lock, until the carrier leaves,
    /// if the backlog reached the limit and the calling thread drains nothing (the carrier
    /// itself, stepping the operator from its own delivery, never waits); otherwise `nil`.
    @usableFromInline
    mutating func holdBack(backlog: Int) -> DispatchSemaphore? {
        guard backlog >= Self.limit, !DeliveryContext.isDraining else { return nil }
        return shut()
    }

    /// A new waiter's semaphore.
    private mutating func shut() -> DispatchSemaphore {
        let semaphore = DispatchSemaphore(value: 0)
        waiters.append(semaphore)
        return semaphore
    }

    /// Under the lock, as the drain that held senders back ends (a stream operator's carrier
    /// leaves): wakes them.
    @usableFromInline
    mutating func open() {
        for waiter in waiters { waiter.signal() }
        waiters = []
    }

    /// Under the lock, as the calling thread looks at what waited to take it out.
    mutating func drains() {
        if drainer == nil { drainer = ConnectingThread() }
    }

    /// Under the lock, as connecting ends: wakes the senders waiting, and starts over for the
    /// next connect.
    mutating func connectingEnds() {
        open()
        self = SenderGate()
    }

    /// Whether a sender waits.
    @usableFromInline var hasWaiters: Bool { !waiters.isEmpty }
}

/// A receiver that holds the messages reaching it while it connects, and receives them
/// after the replay, in the order they came: a modifier's core and a two-source modifier's
/// side input.
protocol HoldsWhileConnecting: AnyObject, Sendable {
    /// The messages taken out at once.
    associatedtype HeldBatch

    /// Under the receiver's lock: ends connecting (waking the senders its ``SenderGate``
    /// holds back) and returns `.finished` if nothing waits; otherwise takes out what waits,
    /// and marks the calling thread as the one draining.
    func takeHeld() -> HeldTake<HeldBatch>

    /// Receives messages taken out by ``takeHeld()``, in order.
    func receiveTaken(_ batch: HeldBatch)

    /// Called once connecting ended (``takeHeld()`` found nothing waiting), outside the
    /// lock: a modifier whose last chain went meanwhile lets go of its upstream then.
    func connectingFinished()
}

extension HoldsWhileConnecting {
    /// Receives what waited while connecting (the replay first), round by round, until
    /// nothing is left: on `queue` if one is given, otherwise here. The work is bounded: the
    /// connecting thread's own sends are its own work, and other threads' senders wait once
    /// ``SenderGate/limit`` of theirs are held.
    func receiveHeld(on queue: Executor?) {
        if let queue {
            queue.run { self.receiveHeld() }
        } else {
            receiveHeld()
        }
    }

    /// Receives what waited, round by round, until nothing is left.
    func receiveHeld() {
        // Pinned: what is received here is sent on to modifiers connected after this one
        // (see `Reclaimer`). Draining: a send this work makes never waits at a gate.
        DeliveryContext.draining {
            while case .taken(let batch) = takeHeld() { receiveTaken(batch) }
            connectingFinished()
        }
    }
}

/// Holds `message` in a receiver that connects, through `attempt` (run under the receiver's
/// lock: true if held, false if connecting is over, or a semaphore to wait on first); waits
/// at the receiver's gate as long as it says so.
@inline(never)
func holdAtGate(_ attempt: () -> GateAttempt) -> Bool {
    while true {
        switch attempt() {
        case .held: return true
        case .notConnecting: return false
        case .wait(let semaphore): semaphore.wait()
        }
    }
}

/// What one attempt to hold a message gave (see ``holdAtGate(_:)``).
enum GateAttempt {
    /// Held: it is received after the messages held before it.
    case held
    /// Connecting is over: the sender hands the message on itself.
    case notConnecting
    /// The gate is shut: wait on the semaphore, then try again.
    case wait(DispatchSemaphore)
}
