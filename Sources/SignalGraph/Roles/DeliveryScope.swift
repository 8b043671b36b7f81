#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outermost delivery under way on the current thread, and the work that waits for it to
/// end: what makes the joining views glitch-free.
///
/// Every emitter's entry points (a storage's change, a registration, a deregistration, a
/// dispatch) run inside a scope. A mutation's signals travel through every view synchronously
/// before the entry point that published it returns, so when the outermost scope on a thread
/// ends, every sensor that one mutation reaches has sensed it. A join that hears from one side
/// defers its own change until then (``deferUntilEnd(_:)``), when both sides hold every part of
/// the mutation. Deferred work runs in a scope of its own, so what it publishes defers again
/// and runs in turn, until nothing waits.
///
/// SignalGraph is single-threaded per graph, but separate graphs may live on separate threads
/// (tests run in parallel), so the scope is the thread's: a thread-local object.
final class DeliveryScope {
    private var depth = 0
    private var deferred: [() -> Void] = []

    /// The current thread's scope, entered: leave it with ``leave()``.
    @inline(__always)
    static func enter() -> DeliveryScope {
        let scope = current
        scope.depth += 1
        return scope
    }

    /// Leaves the scope; the outermost leave runs the deferred work.
    @inline(__always)
    func leave() {
        depth -= 1
        if depth == 0 && !deferred.isEmpty { runDeferred() }
    }

    /// Whether a delivery is under way on this thread.
    var isDelivering: Bool { depth > 0 }

    /// Runs `work` when the outermost delivery under way ends, or at once if none is.
    func deferUntilEnd(_ work: @escaping () -> Void) {
        if depth == 0 {
            depth += 1
            work()
            leave()
        } else {
            deferred.append(work)
        }
    }

    private func runDeferred() {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            signalGraphCheck(depth == 0, "SG7", "deferred join work runs while a delivery is under way")
        #endif
        while !deferred.isEmpty {
            let batch = deferred
            deferred = []
            depth += 1
            for work in batch { work() }
            depth -= 1
        }
    }

    /// The current thread's scope, made on first use and released with the thread.
    static var current: DeliveryScope {
        // Safe: the key's value is only ever a retained `DeliveryScope` (set below), and only
        // this thread reads or writes its own value.
        if let pointer = pthread_getspecific(deliveryScopeKey) {
            return Unmanaged<DeliveryScope>.fromOpaque(pointer).takeUnretainedValue()
        }
        let scope = DeliveryScope()
        pthread_setspecific(deliveryScopeKey, Unmanaged.passRetained(scope).toOpaque())
        return scope
    }
}

/// A view's update that waits for the outermost delivery to end: scheduled at most once
/// however many signals ask for it, and not run at all if the view is gone by then (a handler
/// may tear a view down and release it before the delivery ends).
final class PendingUpdate {
    private var isScheduled = false

    /// Runs `update` on `owner` when the outermost delivery on this thread ends (at once if
    /// none is under way), unless it is already scheduled.
    func schedule<Owner: AnyObject>(_ owner: Owner, _ update: @escaping (Owner) -> Void) {
        guard !isScheduled else { return }
        isScheduled = true
        DeliveryScope.current.deferUntilEnd { [weak self, weak owner] in
            guard let self, let owner else { return }
            isScheduled = false
            update(owner)
        }
    }
}

/// The thread-local key of each thread's ``DeliveryScope``; its destructor releases the scope
/// retained in ``DeliveryScope/current`` when the thread ends.
private let deliveryScopeKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
        let result = pthread_key_create(&key) { Unmanaged<DeliveryScope>.fromOpaque($0).release() }
    #else
        let result = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<DeliveryScope>.fromOpaque(pointer).release() }
        }
    #endif
    precondition(result == 0, "SignalGraph: pthread_key_create failed with \(result)")
    return key
}()
