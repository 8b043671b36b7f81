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
