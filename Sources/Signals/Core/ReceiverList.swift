import ReactiveCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The receivers connected to a relay: a list whose first `count` elements never change.
/// Connecting appends in place while there is room (under the relay's lock, beyond every
/// count a delivery has read); disconnecting, or connecting to a full list, replaces it.
///
/// A delivery reads a relay's list and its count under the relay's lock and then walks that
/// many receivers without the lock and without retaining the list: two atomic operations
/// fewer per relay a message passes. A list that is replaced is *retired* (see
/// ``Reclaimer``) and freed only once no thread can still be walking it, that is once every
/// thread that was delivering when it was replaced has finished its outermost delivery.
///
/// The list holds one reference to each receiver, taken when it is added and given back when
/// the list is freed, so a receiver disconnected during a delivery is still alive for every
/// walk of the old list.
@usableFromInline
final class ReceiverList: ManagedBuffer<ReceiverList.Header, Unmanaged<Receiver>> {
    /// How many receivers the list holds, and room for how many. Changed only under the
    /// relay's lock.
    @usableFromInline
    struct Header {
        @usableFromInline var count: Int
        var capacity: Int
    }

    /// A list of `receiver` alone, retained, with room for `capacity` (at least one).
    static func make(single receiver: Receiver, capacity: Int) -> ReceiverList {
        let buffer = create(minimumCapacity: capacity) { _ in Header(count: 1, capacity: capacity) }
        // `create` always returns an instance of the class it is called on.
        let list = unsafeDowncast(buffer, to: ReceiverList.self)
        list.withUnsafeMutablePointerToElements { $0.initialize(to: Unmanaged.passRetained(receiver)) }
        SignalsChecks.listMade(list)
        return list
    }

    /// Whether the list holds exactly `receiver`. Under the relay's lock.
    func holdsOnly(_ receiver: AnyObject) -> Bool {
        withUnsafeMutablePointers { header, elements in
            header.pointee.count == 1 && elements[0].takeUnretainedValue() === receiver
        }
    }

    /// A list of `receivers`, each retained, with room for `capacity` (at least as many).
    static func make(_ receivers: [Receiver], capacity: Int) -> ReceiverList {
        let buffer = create(minimumCapacity: capacity) { _ in Header(count: receivers.count, capacity: capacity) }
        // `create` always returns an instance of the class it is called on.
        let list = unsafeDowncast(buffer, to: ReceiverList.self)
        list.withUnsafeMutablePointerToElements { elements in
            for (index, receiver) in receivers.enumerated() {
                (elements + index).initialize(to: Unmanaged.passRetained(receiver))
            }
        }
        SignalsChecks.listMade(list)
        return list
    }

    deinit {
        SignalsChecks.listFreed(self)
        withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count { elements[index].release() }
            elements.deinitialize(count: header.pointee.count)
        }
    }

    /// How many receivers the list holds. Under the relay's lock. (Through the header's
    /// address: `header` is a class property, checked for exclusive access at run time on
    /// every read.)
    @inlinable
    var count: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    /// The receivers, retained by the caller's copy. Under the relay's lock.
    var receivers: [Receiver] {
        withUnsafeMutablePointers { header, elements in
            (0..<header.pointee.count).map { elements[$0].takeUnretainedValue() }
        }
    }

    /// Appends `receiver`, retained, if there is room; under the relay's lock. Deliveries
    /// under way walk only the count they read, so they do not see it.
    func appendIfRoom(_ receiver: Receiver) -> Bool {
        withUnsafeMutablePointers { header, elements in
            guard header.pointee.count < header.pointee.capacity else { return false }
            (elements + header.pointee.count).initialize(to: Unmanaged.passRetained(receiver))
            header.pointee.count += 1
            return true
        }
    }

    /// Hands the message at `message`, numbered `sequence`, to the first `count` receivers
    /// in order.
    @inlinable
    func deliver(_ message: UnsafeRawPointer, sequence: UInt64?, count: Int) {
        withUnsafeMutablePointerToElements { elements in
            // The list holds each receiver, and the list is alive until this thread's
            // outermost delivery ends, so each is called through an unretained reference.
            for index in 0..<count {
                elements[index]._withUnsafeGuaranteedRef { $0.entry($0, message, sequence) }
            }
        }
    }
}

/// A relay's receivers as a delivery reads them under the relay's lock: the list, and how
/// many of its receivers to walk.
@usableFromInline
struct ReceiverWalk {
    @usableFromInline let list: Unmanaged<ReceiverList>
    @usableFromInline let count: Int

    @inlinable
    init(list: Unmanaged<ReceiverList>, count: Int) {
        self.list = list
        self.count = count
    }
}

/// Frees retired ``ReceiverList``s once no thread can still be walking them (epoch-based
/// reclamation).
///
/// Each thread's ``DeliveryContext`` *pins* itself while it delivers: on entering its
/// outermost delivery it stores the global epoch it saw, and on leaving it stores zero. A
/// relay replaces its list under its lock and then retires the old one, stamped with the
/// epoch, which it advances. A thread pinned at an epoch later than the stamp read the relay's
/// list after the replacement (the relay's lock orders the two), so it never saw the old list;
/// a thread pinned at an earlier or equal epoch may be walking it. A retired list is freed
/// when every thread is unpinned or pinned later than its stamp: at once when it is retired
/// outside any delivery, otherwise when the last thread that may walk it ends its outermost
/// delivery (that thread collects, see ``DeliveryContext/unpin()``).
///
/// Freeing a list releases its receivers, whose teardown may run any code (a chain's
/// closures and what they capture); it runs outside every lock.
@usableFromInline
final class Reclaimer: Sendable {
    /// The one reclaimer, shared by every relay and thread.
    static let shared = Reclaimer()

    /// The global epoch: advanced by each retirement.
    @usableFromInline let epoch = Atomic<UInt64>(1)
    /// The stamp of the newest list waiting to be freed, or zero if none waits: a thread
    /// leaving its outermost delivery collects only if it was pinned at or before it (it may
    /// then have held a list back).
    @usableFromInline let newestRetired = Atomic<UInt64>(0)
    private let state = LockedState(State())

    private struct State: @unchecked Sendable {
        // `@unchecked`: only touched under the reclaimer's lock. The lists are immutable
        // once made; the contexts are only read through their atomic `pinnedEpoch`.

        /// Every thread's context, unretained: a context leaves when its thread exits. An
        /// array: every collection reads each pin, and a dictionary's walk cost twice as much.
        var contexts: [Unmanaged<DeliveryContext>] = []
        /// Lists replaced while some thread may still walk them, oldest first.
        var retired: [(stamp: UInt64, list: ReceiverList)] = []
    }

    private init() {}

    /// Registers a thread's context, made on that thread's first delivery.
    func register(_ context: DeliveryContext) {
        state.withLock { $0.contexts.append(Unmanaged.passUnretained(context)) }
    }

    /// Unregisters a context, when its thread exits (it is not delivering then), and frees
    /// what it alone held back.
    func unregister(_ context: DeliveryContext) {
        state.withLock { state in
            guard
                let index = state.contexts.firstIndex(where: {
                    $0.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
                })
            else { return }
            state.contexts.swapAt(index, state.contexts.count - 1)
            state.contexts.removeLast()
        }
        collect()
    }

    /// Retires `list`, which its relay has just replaced under its lock: frees it at once if
    /// no thread can be walking it (the common case, without allocating), or keeps it until
    /// the threads that may be have ended their outermost deliveries.
    func retire(_ list: ReceiverList) {
        let others = state.withLock { state -> Bool in
            let stamp = epoch.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
            // Published before the pins are read, sequentially consistent with them and with
            // `DeliveryContext.unpin()`'s store and load: a thread seen pinned here sees this
            // stamp when it unpins, and collects.
            newestRetired.store(stamp, ordering: .sequentiallyConsistent)
            guard oldestPin(in: state) <= stamp else {
                if state.retired.isEmpty { newestRetired.store(0, ordering: .releasing) }
                return !state.retired.isEmpty
            }
            state.retired.append((stamp, list))
            SignalsChecks.checkRetired(state.retired.map { $0.stamp }, epoch: stamp + 1)
            return false
        }
        // Freed here if it was not kept (the caller's reference was the last), outside the
        // lock; older lists may have become free too.
        if others { collect() }
    }

    /// The earliest epoch a thread is pinned at, or `UInt64.max` if none is pinned.
    private func oldestPin(in state: State) -> UInt64 {
        var oldest = UInt64.max
        for context in state.contexts {
            let pin = context._withUnsafeGuaranteedRef { $0.pinnedEpoch.load(ordering: .sequentiallyConsistent) }
            if pin != 0 { oldest = min(oldest, pin) }
        }
        return oldest
    }

    /// Frees every retired list that no pinned thread can be walking, outside the lock.
    @usableFromInline
    func collect() {
        let freed = state.withLock { state -> Freed in
            guard !state.retired.isEmpty else { return .none }
            let oldestPin = oldestPin(in: state)
            // A list stamped `stamp` may be walked by a thread pinned at or before `stamp`.
            let kept = state.retired.firstIndex { $0.stamp >= oldestPin } ?? state.retired.endIndex
            guard kept > 0 else { return .none }
            SignalsChecks.checkRetired(state.retired.map { $0.stamp }, epoch: epoch.load(ordering: .relaxed))
            if kept == 1, state.retired.count == 1 {
                // The common case (one list retired during a delivery): moved out, no array
                // made, the array kept for the next retirement.
                newestRetired.store(0, ordering: .releasing)
                return .one(state.retired.removeLast().list)
            }
            let freed: Freed
            if kept == 1 {
                freed = .one(state.retired[0].list)
            } else {
                freed = .many(state.retired[..<kept].map { $0.list })
            }
            if kept == state.retired.count {
                // Kept for the next retirement, which then allocates nothing.
                state.retired.removeAll(keepingCapacity: true)
                newestRetired.store(0, ordering: .releasing)
            } else {
                state.retired.removeSubrange(..<kept)
            }
            return freed
        }
        _ = freed  // Released here, outside the lock: each release may free receivers.
    }

    /// The lists a collection frees.
    private enum Freed {
        case none
        case one(ReceiverList)
        case many([ReceiverList])
    }

    /// Waits until every other thread that was pinned when this was called has ended that
    /// outermost delivery (or pinned section). A thread that pins afterwards is not waited
    /// for; the calling thread must not be pinned (it would wait for itself).
    ///
    /// A delivery pins its thread before it reads a relay's receivers, under the relay's
    /// lock, and a removal replaces the list under the same lock before it waits: so every
    /// delivery that can still reach a removed receiver is pinned at or before the stamp taken
    /// here, and is waited for.
    func waitForDeliveriesUnderWay() {
        let stamp = epoch.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
        var rounds = 0
        while state.withLock({ state in
            state.contexts.contains { context in
                let pin = context._withUnsafeGuaranteedRef { $0.pinnedEpoch.load(ordering: .sequentiallyConsistent) }
                return pin != 0 && pin <= stamp
            }
        }) {
            // Deliveries are short: yield first; back off for one that is not.
            rounds += 1
            if rounds < 64 { sched_yield() } else { usleep(100) }
        }
    }

    /// How many lists wait to be freed (for tests).
    var retiredCount: Int { state.withLock { $0.retired.count } }
}
