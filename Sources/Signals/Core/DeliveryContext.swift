import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the calling thread is delivering: the relays whose delivery is under way on it,
/// innermost last, and the messages it sent to one of those meanwhile, in the order sent.
///
/// One per thread, reached through a pthread key, so that a send needs no lock to know
/// whether it is nested: only its own thread ever touches a context. (Before, each relay
/// kept its delivering threads under its lock, which took the lock a second time per hop.)
@usableFromInline
final class DeliveryContext {
    /// The relays delivering on this thread, by identity, innermost last: `activeCount` of
    /// them at `active`, which has room for `activeCapacity`. A raw buffer rather than an
    /// array: an array's append checks uniqueness and capacity through calls into the runtime
    /// on every hop. Unchecked exclusivity: only this thread touches it, and never while it
    /// is being changed.
    @exclusivity(unchecked) @usableFromInline var active: UnsafeMutablePointer<ObjectIdentifier>
    @exclusivity(unchecked) @usableFromInline var activeCount = 0
    @exclusivity(unchecked) @usableFromInline var activeCapacity = 16
    /// Whether `pending` holds anything, read at the end of every delivery.
    @exclusivity(unchecked) @usableFromInline var hasPending = false
    /// Sends made by a closure while their relay was delivering on this thread, in the order
    /// sent; each runs when that relay's current delivery has reached every receiver.
    @exclusivity(unchecked) private var pending: [(relay: ObjectIdentifier, deliver: () -> Void)] = []
    /// The epoch this thread pinned when its outermost delivery began, or zero while it
    /// delivers nothing (see ``Reclaimer``): written by this thread, read by a collection.
    @usableFromInline let pinnedEpoch = Atomic<UInt64>(0)
    /// How many deliveries (and other pinned sections) are under way on this thread.
    @exclusivity(unchecked) @usableFromInline var pinCount = 0
    /// How many drains are under way on this thread: of messages held while a receiver
    /// connected, or of a stream operator's outbox (see ``SenderGate``).
    @exclusivity(unchecked) @usableFromInline var drainCount = 0
    /// ``Reclaimer/shared``, which lives as long as the process.
    @usableFromInline unowned(unsafe) let reclaimer: Reclaimer

    private init() {
        active = .allocate(capacity: activeCapacity)
        reclaimer = .shared
        reclaimer.register(self)
    }

    deinit {
        reclaimer.unregister(self)
        active.deallocate()
    }

    /// Pins the thread (see ``Reclaimer``): until the matching ``unpin()``, no receivers list
    /// it reads from a relay is freed.
    @inlinable
    func pin() {
        if pinCount == 0 {
            pinnedEpoch.store(reclaimer.epoch.load(ordering: .relaxed), ordering: .releasing)
        }
        pinCount += 1
    }

    /// Ends a pinned section; the outermost one unpins the thread and frees the lists it was
    /// the last to hold back.
    @inlinable
    func unpin() {
        pinCount -= 1
        guard pinCount == 0 else { return }
        SignalsChecks.checkUnpinned(activeDeliveries: activeCount, hasPending: hasPending)
        let pinned = pinnedEpoch.load(ordering: .relaxed)
        // Sequentially consistent, with a retirement's store of `newestRetired` and its
        // loads of every pin: either the retirement sees this thread unpinned and frees the
        // list itself, or this thread sees the list waiting and collects it.
        pinnedEpoch.store(0, ordering: .sequentiallyConsistent)
        if reclaimer.newestRetired.load(ordering: .sequentiallyConsistent) >= pinned { reclaimer.collect() }
    }

    /// Runs `body` pinned: for work that walks relays' lists outside a relay's own send (a
    /// replay, messages held while connecting).
    static func pinned<Result>(_ body: () throws -> Result) rethrows -> Result {
        let context = current
        context._withUnsafeGuaranteedRef { $0.pin() }
        defer { context._withUnsafeGuaranteedRef { $0.unpin() } }
        return try body()
    }

    /// Runs `body` pinned and marked as draining what waited while a receiver connected:
    /// a send it makes never waits at a ``SenderGate``.
    static func draining<Result>(_ body: () throws -> Result) rethrows -> Result {
        let context = current
        context._withUnsafeGuaranteedRef { context in
            context.pin()
            context.drainCount += 1
        }
        defer {
            context._withUnsafeGuaranteedRef { context in
                context.drainCount -= 1
                context.unpin()
            }
        }
        return try body()
    }

    /// Runs `body` marked as draining, without pinning: a stream operator's carrier, whose
    /// sends pin for themselves.
    @inlinable
    static func carrying<Result>(_ body: () throws -> Result) rethrows -> Result {
        let context = current
        context._withUnsafeGuaranteedRef { $0.drainCount += 1 }
        defer { context._withUnsafeGuaranteedRef { $0.drainCount -= 1 } }
        return try body()
    }

    /// Whether the calling thread is draining: what waited while a receiver connected, or a
    /// stream operator's outbox.
    static var isDraining: Bool {
        current._withUnsafeGuaranteedRef { $0.drainCount > 0 }
    }

    /// Runs `body` pinned, the pin published with a sequentially consistent store: for work
    /// that checks a flag a removal sets with no lock shared with the removal (a message
    /// dispatched to a queue, checking whether its chain was removed). Either the removal's
    /// wait (``Reclaimer/waitForDeliveriesUnderWay()``) sees the pin, or `body` sees the flag.
    static func pinnedSequentially<Result>(_ body: () throws -> Result) rethrows -> Result {
        let context = current
        context._withUnsafeGuaranteedRef { context in
            if context.pinCount == 0 {
                context.pinnedEpoch.store(
                    context.reclaimer.epoch.load(ordering: .relaxed), ordering: .sequentiallyConsistent)
            }
            context.pinCount += 1
        }
        defer { context._withUnsafeGuaranteedRef { $0.unpin() } }
        return try body()
    }

    /// Whether the calling thread is pinned (for assertions).
    @usableFromInline static var isPinned: Bool {
        current._withUnsafeGuaranteedRef { $0.pinCount > 0 }
    }

    /// The calling thread's context, made on first use and released when the thread exits.
    @usableFromInline static var current: Unmanaged<DeliveryContext> {
        if let pointer = pthread_getspecific(deliveryContextKey) {
            return Unmanaged<DeliveryContext>.fromOpaque(pointer)
        }
        let context = Unmanaged.passRetained(DeliveryContext())
        let result = pthread_setspecific(deliveryContextKey, context.toOpaque())
        precondition(result == 0, "Signals: pthread_setspecific failed with \(result)")
        return context
    }

    /// Whether `relay` is delivering on this thread.
    @inlinable
    func isDelivering(_ relay: ObjectIdentifier) -> Bool {
        // Innermost first: a nested send is most often to a relay just above in the stack.
        var index = activeCount
        while index > 0 {
            index -= 1
            if active[index] == relay { return true }
        }
        return false
    }

    /// Starts `relay`'s delivery on this thread.
    @inlinable
    func begin(_ relay: ObjectIdentifier) {
        pin()
        if activeCount == activeCapacity { grow() }
        active[activeCount] = relay
        activeCount += 1
        SignalsChecks.checkDeliveryBegun(activeDeliveries: activeCount, pins: pinCount)
    }

    /// Ends the innermost delivery, `relay`'s, and runs the sends nested in it first, in
    /// the order sent (each still counts as `relay`'s delivery, so what they send nests too).
    @inlinable
    func end(_ relay: ObjectIdentifier) {
        if hasPending { runPending(for: relay) }
        activeCount -= 1
        unpin()
    }

    /// Doubles the room for active deliveries.
    @usableFromInline @inline(never)
    func grow() {
        let larger = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: 2 * activeCapacity)
        larger.moveInitialize(from: active, count: activeCount)
        active.deallocate()
        active = larger
        activeCapacity *= 2
    }

    /// Queues a send nested in `relay`'s delivery.
    func enqueue(_ relay: ObjectIdentifier, _ deliver: @escaping () -> Void) {
        pending.append((relay, deliver))
        hasPending = true
    }

    @usableFromInline @inline(never)
    func runPending(for relay: ObjectIdentifier) {
        while let index = pending.firstIndex(where: { $0.relay == relay }) {
            let next = pending.remove(at: index)
            hasPending = !pending.isEmpty
            next.deliver()
        }
    }
}

/// The key of each thread's ``DeliveryContext``; its destructor releases the context when
/// the thread exits.
private let deliveryContextKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
        let result = pthread_key_create(&key) { Unmanaged<DeliveryContext>.fromOpaque($0).release() }
    #else
        let result = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<DeliveryContext>.fromOpaque(pointer).release() }
        }
    #endif
    precondition(result == 0, "Signals: pthread_key_create failed with \(result)")
    return key
}()
