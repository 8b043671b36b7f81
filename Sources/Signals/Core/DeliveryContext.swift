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
final class DeliveryContext {
    /// The relays delivering on this thread, by identity, innermost last. Unchecked
    /// exclusivity: only this thread touches it, and never while it is being changed.
    @exclusivity(unchecked) private var active: [ObjectIdentifier] = []
    /// Sends made by a closure while their relay was delivering on this thread, in the order
    /// sent; each runs when that relay's current delivery has reached every receiver.
    @exclusivity(unchecked) private var pending: [(relay: ObjectIdentifier, deliver: () -> Void)] = []

    private init() {
        active.reserveCapacity(16)
    }

    /// The calling thread's context, made on first use and released when the thread exits.
    static var current: Unmanaged<DeliveryContext> {
        if let pointer = pthread_getspecific(deliveryContextKey) {
            return Unmanaged<DeliveryContext>.fromOpaque(pointer)
        }
        let context = Unmanaged.passRetained(DeliveryContext())
        let result = pthread_setspecific(deliveryContextKey, context.toOpaque())
        precondition(result == 0, "Signals: pthread_setspecific failed with \(result)")
        return context
    }

    /// Whether `relay` is delivering on this thread.
    @inline(__always)
    func isDelivering(_ relay: ObjectIdentifier) -> Bool {
        // Innermost first: a nested send is most often to a relay just above in the stack.
        var index = active.count
        while index > 0 {
            index -= 1
            if active[index] == relay { return true }
        }
        return false
    }

    /// Starts `relay`'s delivery on this thread.
    @inline(__always)
    func begin(_ relay: ObjectIdentifier) {
        active.append(relay)
    }

    /// Ends the innermost delivery, `relay`'s, and runs the sends nested in it first, in
    /// the order sent (each still counts as `relay`'s delivery, so what they send nests too).
    @inline(__always)
    func end(_ relay: ObjectIdentifier) {
        if !pending.isEmpty { runPending(for: relay) }
        active.removeLast()
    }

    /// Queues a send nested in `relay`'s delivery.
    func enqueue(_ relay: ObjectIdentifier, _ deliver: @escaping () -> Void) {
        pending.append((relay, deliver))
    }

    @inline(never)
    private func runPending(for relay: ObjectIdentifier) {
        while let index = pending.firstIndex(where: { $0.relay == relay }) {
            let next = pending.remove(at: index)
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
