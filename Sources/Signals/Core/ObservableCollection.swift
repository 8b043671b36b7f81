import ReactiveCore

/// Keeps modifier chains alive; releasing it, or calling ``removeAll()``, tears them down.
///
/// ```swift
/// let observables = ObservableCollection()
/// signal.fired.then { print($0) }.append(to: observables)
/// ```
///
/// A chain that nothing keeps is freed at once and receives nothing: append every chain to a
/// collection that lives as long as the chain should. `Sendable`, so chains can be appended
/// and removed from any thread; they are torn down in the order appended.
///
/// ## Removal and deliveries on other threads
///
/// ``removeAll()`` stops the chains at once: no message fired after it returns reaches them,
/// and no message queued for them runs. A delivery already under way on *another* thread
/// may still be running one of their closures when it returns, or start one, until that
/// delivery ends. Before releasing what the closures use, call ``removeAllAndWait()``, or
/// ``waitForDeliveriesUnderWay()`` after any other removal (a connection's `disconnect()`, a
/// timer's `invalidate()`):
///
/// ```swift
/// observables.removeAllAndWait()
/// database.close()   // no closure of those chains runs any more
/// ```
public final class ObservableCollection: Sendable {
    /// The chains' last observables, in the order appended. A list, not connections in the
    /// common module's `Connector`: a chain never leaves on its own, so it needs no
    /// connection object, no closure and no weak reference back (each made every append cost
    /// allocations, and the weak reference made every retain of the collection slow).
    private let chains = LockedState<[any ChainEnd]>([])

    /// An empty collection.
    public init() {}

    deinit {
        removeAll()
    }

    /// The number of chains kept.
    public var count: Int { chains.withLock { $0.count } }

    /// Tears down every chain: each disconnects from what it observes and is freed.
    public func removeAll() {
        // Taken under the lock and torn down after it: a chain's teardown may free objects
        // whose own teardown appends to or empties this collection.
        let taken = chains.withLock { chains -> [any ChainEnd] in
            defer { chains = [] }
            return chains
        }
        for chain in taken { chain.detachFromUpstream() }
    }

    /// Tears down every chain, as ``removeAll()`` does, then waits until every delivery that
    /// was under way on another thread has ended: when it returns, no closure of those chains
    /// is running or will run.
    ///
    /// - Precondition: Not called from inside a delivery (a chain's closure), where it would
    ///   wait for the delivery it is part of. A closure that blocks until the thread calling
    ///   this does something makes it wait forever.
    public func removeAllAndWait() {
        precondition(
            !DeliveryContext.isPinned,
            "Signals: removeAllAndWait() called from inside a delivery, which it would wait for; call removeAll() there"
        )
        removeAll()
        Reclaimer.shared.waitForDeliveriesUnderWay()
    }

    /// Waits until every delivery that was under way on another thread when it was called
    /// has ended. After removing chains (``removeAll()``, a connection's `disconnect()`, a
    /// timer's `invalidate()`), no closure of theirs runs once this returns.
    ///
    /// Deliveries that begin on other threads while it waits are not waited for.
    ///
    /// - Precondition: Not called from inside a delivery (a chain's closure).
    public static func waitForDeliveriesUnderWay() {
        precondition(
            !DeliveryContext.isPinned,
            "Signals: waitForDeliveriesUnderWay() called from inside a delivery, which it would wait for"
        )
        Reclaimer.shared.waitForDeliveriesUnderWay()
    }

    func insert(_ chain: any ChainEnd) {
        chains.withLock { $0.append(chain) }
    }
}

extension MessageSource {
    /// Keeps this chain alive in `collection` until the collection is released or emptied.
    public func append(to collection: ObservableCollection) {
        collection.insert(self)
    }
}
