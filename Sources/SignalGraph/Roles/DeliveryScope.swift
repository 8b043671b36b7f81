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
    /// The waiting work, each with its level (see ``deferUntilEnd(level:_:)``).
    private var deferred: [(level: Int, work: () -> Void)] = []

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
    ///
    /// Waiting work runs lowest `level` first (in the order scheduled, among equals), each
    /// piece in a scope of its own. A join's level is the number of joins on the longest path
    /// above it plus one (``joinLevel(of:)``), so a join runs only after every join above it
    /// that waits has run and sent its change: a join of a join and of something else derived
    /// from the same mutation sees both sides whole, however deep the joins nest.
    func deferUntilEnd(level: Int, _ work: @escaping () -> Void) {
        if depth == 0 {
            depth += 1
            work()
            leave()
        } else {
            deferred.append((level, work))
        }
    }

    private func runDeferred() {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            signalGraphCheck(depth == 0, "SG7", "deferred join work runs while a delivery is under way")
        #endif
        while !deferred.isEmpty {
            // The first of the lowest level: O(waiting) per piece, and the pieces are the joins
            // a mutation reached, few.
            var next = 0
            for index in deferred.indices.dropFirst() where deferred[index].level < deferred[next].level {
                next = index
            }
            let work = deferred.remove(at: next).work
            depth += 1
            work()
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
    func schedule<Owner: JoiningView>(_ owner: Owner, _ update: @escaping (Owner) -> Void) {
        guard !isScheduled else { return }
        isScheduled = true
        DeliveryScope.current.deferUntilEnd(level: joinLevel(of: owner)) { [weak self, weak owner] in
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

/// An emitter's channel, which knows the emitter it belongs to.
protocol OwnedChannel: AnyObject {
    /// The emitter.
    var owner: AnyObject? { get }
    /// The registered sensors, in the order registered.
    var sensorObjects: [AnyObject] { get }
    /// The number of changes (or signals) delivered.
    var deliveredCount: Int { get }
}

/// A view that joins the signals of two emitters and changes when the outermost delivery ends.
protocol JoiningView: AnyObject {
    /// Where its two inputs are registered.
    var inputRegistrations: [SensorRegistration] { get }
    /// Its inputs' names, in the same order.
    var inputNames: [String] { get }
}

/// One more than the most joins on any path above `join`, following each input's emitter and,
/// through views, the emitter each view senses: the order in which waiting joins run. O(the
/// views above it).
func joinLevel(of join: some JoiningView) -> Int {
    var level = 0
    for registration in join.inputRegistrations {
        var emitter = registration.emitter
        while let current = emitter {
            if let upstream = current as? any JoiningView {
                level = max(level, joinLevel(of: upstream))
                break
            }
            if let channel = current as? any OwnedChannel {
                emitter = channel.owner
                continue
            }
            emitter = (current as? any Sensor)?.registration.emitter
        }
    }
    return level + 1
}
