/// A value in an incremental graph: an input, a constant, or a value derived from others.
///
/// ```swift
/// let graph = Graph()
/// let name = graph.input("Ada")
/// let greeting: I<String> = name.map { "Hello, \($0)!" }
/// let connection = greeting.observe { print($0) }   // prints "Hello, Ada!"
/// name.write("Grace")                               // prints "Hello, Grace!"
/// ```
///
/// Derived values recompute only when something needs them (an observer, or a read), at
/// most once per propagation, and only after every value they read is current. A closure
/// may throw: the error is then the node's state. See <doc:Semantics>.
public class I<Value>: IncrementalNode {
    // The value lives in a slot rather than in an `Optional<Value>` property: generic code
    // that touches `Optional<Value>` looks up its metadata at run time, which cost more
    // than the rest of a node's recomputation.
    @usableFromInline final let slot: UnsafeMutablePointer<Value>
    /// Whether the slot holds a value (a bit of the node's flags).
    @inlinable final var hasValue: Bool {
        get { flags & Flags.hasValue != 0 }
        set { if newValue { flags |= Flags.hasValue } else { flags &= ~Flags.hasValue } }
    }
    // Unchecked: the graph is single-threaded and never holds an access to these across a
    // call that could reach them again; the dynamic checks cost a quarter of a recompute.
    /// Whether the cutoff is the value type's own `==`, applied by code specialized for the
    /// type (``storeEquatable(_:)``) instead of through `equality`.
    @exclusivity(unchecked) @usableFromInline final var cutsOffWithEquatable = false
    /// The cutoff's comparison, unless the node has none, or compares with the type's own
    /// `==` in specialized code only (a `map` to an `Equatable` value).
    @exclusivity(unchecked) @usableFromInline final var equality: ((Value, Value) -> Bool)?
    // Observers in the order they were added: a list linked through the observers
    // themselves, so adding one allocates nothing more and removing one is O(1).
    // Unchecked exclusivity as above.
    @exclusivity(unchecked) final var firstObserver: NodeObserver?
    @exclusivity(unchecked) final var lastObserver: Unmanaged<NodeObserver>?
    /// How many deliveries to this node's observers are under way (nested when an observer
    /// writes outside a propagation): a removed observer keeps its place in the chain until
    /// they end, so that a delivery loop can step past it.
    @exclusivity(unchecked) final var deliveryDepth = 0

    /// `cutoff` nil: the node compares with its type's own `==` in specialized code only
    /// (see ``useEquatableCutoff()``).
    ///
    /// `edgeCapacity`: how many edges the node makes when it is created (its block has room
    /// for them).
    ///
    /// `graph` unmanaged: see ``IncrementalNode``'s initializer.
    init(graph: Unmanaged<Graph>, flags: UInt32 = 0, cutoff: Cutoff<Value>? = .default, edgeCapacity: Int = 0) {
        let block = NodeBlock(for: Value.self, edgeCapacity: edgeCapacity, in: graph)
        slot = block.value.bindMemory(to: Value.self, capacity: 1)
        super.init(graph: graph, flags: flags, block: block)
        if let cutoff {
            setCutoff(cutoff)
        } else {
            useEquatableCutoff()
        }
    }

    deinit {
        if hasValue && !_isPOD(Value.self) { slot.deinitialize(count: 1) }
        // The block itself is freed by `IncrementalNode`, after the edges in it.
        if UnsafeMutableRawPointer(slot) != block { deallocateSlot(slot) }
    }

    /// The stored value; only while ``hasValue``. Setting it stores a first value too.
    final var current: Value {
        get { slot.pointee }
        set {
            if hasValue {
                slot.pointee = newValue
            } else {
                slot.initialize(to: newValue)
                hasValue = true
            }
        }
    }

    /// Mutates the stored value in place (no copy of a copy-on-write buffer).
    final func mutateCurrent<Result>(_ body: (inout Value) -> Result) -> Result {
        body(&slot.pointee)
    }

    /// The current value.
    ///
    /// Reading brings the node up to date first if an input changed since it computed
    /// (observed or not, inside a batch or not), so it is always consistent with the
    /// inputs as last written. Reading an unobserved node computes what it needs on the
    /// spot, each node at most once, without connecting anything.
    ///
    /// - Precondition: The node holds a value, not an error (its closure, or one below it,
    ///   threw). Use ``get()`` or ``result`` where a closure may throw.
    public var value: Value {
        graph.read(self)
        if let failure {
            preconditionFailure(
                "Incremental: value read of a node that holds an error (\(failure)); read it with get() or result where a closure may throw"
            )
        }
        return current
    }

    /// The current value, or the error the node holds, thrown. Brings the node up to date
    /// as ``value`` does.
    public final func get() throws -> Value {
        graph.read(self)
        if let failure { throw failure }
        return current
    }

    /// The current value or the error the node holds. Brings the node up to date as
    /// ``value`` does.
    public final var result: Result<Value, any Error> {
        graph.read(self)
        if let failure { return .failure(failure) }
        return .success(current)
    }

    /// Sets the node's cutoff: when a recomputed value counts as unchanged.
    ///
    /// ```swift
    /// let rounded = reading.map { ($0 * 10).rounded() / 10 }
    /// rounded.setCutoff(.custom { abs($0 - $1) < 0.05 })
    /// ```
    @discardableResult
    public final func setCutoff(_ cutoff: Cutoff<Value>) -> Self {
        cutsOffWithEquatable = false
        equality = cutoff.isEqual
        return self
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value; returns
    /// whether the value changed. Inlined into the code of a `map` (specialized for its
    /// types) so that storing a value calls no generic code.
    @inlinable @inline(__always)
    final func store(_ newValue: Value) -> Bool {
        if flags & (Flags.hasValue | Flags.failed) == Flags.hasValue {
            if let equality, equality(slot.pointee, newValue) { return false }
            slot.pointee = newValue
            return true
        }
        if flags & (Flags.hasValue | Flags.failed) == 0 {
            slot.initialize(to: newValue)
            flags |= Flags.hasValue
            return true
        }
        return storeFirst(newValue)
    }

    /// ``store(_:)`` for a value type with its own `==`: while the node's cutoff is the
    /// default, the comparison is a direct call to `==`.
    @inlinable @inline(__always)
    final func storeEquatable(_ newValue: Value) -> Bool where Value: Equatable {
        if flags & (Flags.hasValue | Flags.failed) == Flags.hasValue {
            if cutsOffWithEquatable {
                if slot.pointee == newValue { return false }
            } else if let equality, equality(slot.pointee, newValue) {
                return false
            }
            slot.pointee = newValue
            return true
        }
        if flags & (Flags.hasValue | Flags.failed) == 0 {
            slot.initialize(to: newValue)
            flags |= Flags.hasValue
            return true
        }
        return storeFirst(newValue)
    }

    /// Stores a value that replaces an error (or a first value).
    @usableFromInline
    final func storeFirst(_ newValue: Value) -> Bool {
        update(to: newValue) == .changed
    }

    /// Makes the cutoff the value type's own `==`, applied by ``storeEquatable(_:)``. Keeps
    /// `equality` (nil for a node made with `cutoff: nil`, which compares in specialized
    /// code only).
    final func useEquatableCutoff() {
        cutsOffWithEquatable = true
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value.
    final func update(to newValue: Value) -> Step {
        if hasValue {
            if failure != nil {
                failure = nil
            } else if let equality, equality(slot.pointee, newValue) {
                return .unchanged
            }
            slot.pointee = newValue
        } else {
            slot.initialize(to: newValue)
            hasValue = true
            failure = nil
        }
        return .changed
    }

    /// Makes `error` the node's state.
    final func fail(_ error: any Error) -> Step {
        failure = error
        return .changed
    }

    override var valueDescription: String {
        if let failure { return "error(\(failure))" }
        return hasValue ? String(describing: current) : "–"
    }

    // MARK: Observers

    /// Delivers the current value to `sink` at once, then the new value after each
    /// propagation that changes it, until the connection disconnects.
    ///
    /// Observing makes the node necessary: it and everything it reads are kept up to date.
    /// Observers run after the propagation has made every observed node current. While the
    /// node holds an error (a closure threw), `sink` is not called; use
    /// ``observeResult(_:)`` to receive errors too.
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    @inlinable
    public final func observe(_ sink: @escaping (Value) -> Void) -> Connection {
        // Inlinable: the observer's class is then made for the concrete value type where
        // `observe` is called, rather than looked up at run time on every call.
        addObserver(ValueObserver(node: self, sink: sink))
    }

    /// Delivers the current value or error to `sink` at once, then each new value or error
    /// after each propagation that changes it, until the connection disconnects.
    ///
    /// ```swift
    /// let parsed = text.map { try Int($0, format: .number) }
    /// let connection = parsed.observeResult { result in
    ///     switch result {
    ///     case .success(let number): show(number)
    ///     case .failure(let error): show(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    @inlinable
    public final func observeResult(_ sink: @escaping (Result<Value, any Error>) -> Void) -> Connection {
        addObserver(ResultObserver(node: self, sink: sink))
    }

    @usableFromInline
    final func addObserver(_ observer: consuming NodeObserver) -> Connection {
        precondition(
            graph.recomputeDepth == 0,
            "Incremental: observe was called while the graph was recomputing (from inside a map or flatMap closure)")
        // The links to the last and previous observers are unmanaged: the list holds them.
        if let last = lastObserver {
            last._withUnsafeGuaranteedRef { $0.next = observer }
            observer.previous = last
        } else {
            firstObserver = observer
        }
        lastObserver = Unmanaged.passUnretained(observer)
        graph.addObserver(to: self)
        graph.read(self, propagating: false)
        // Writes the observer makes now are propagated after it returns, as they are when it
        // runs in a propagation: observers never nest.
        graph.deliveringOutsidePropagation {
            deliver(to: observer)
        }
        return Connection(source: observer, token: 0)
    }

    /// Removes `observer` (its connection disconnected), then runs its cleanups.
    override final func remove(_ observer: NodeObserver) {
        guard observer.isActive else { return }
        observer.isActive = false
        // Unlinked at once; it keeps its `next` while a delivery loop may stand on it.
        let previous = observer.previous
        observer.previous = nil
        let next = deliveryDepth == 0 ? observer.next.take() : observer.next
        if let next { next.previous = previous } else { lastObserver = previous }
        // Releases the list's reference to the observer; its connection still holds it.
        if let previous { previous._withUnsafeGuaranteedRef { $0.next = next } } else { firstObserver = next }
        graph.removeObserver(from: self)
        if !observer.cleanups.isEmpty {
            let cleanups = observer.cleanups
            observer.cleanups = []
            for cleanup in cleanups { cleanup() }
        }
    }

    override final func notifyObservers() {
        guard hasComputed, let first = firstObserver else { return }
        // One observer (the usual case): no walk, and one reference counted.
        if first.next == nil {
            if first.isActive && first.seen != version { deliver(to: first) }
            return
        }
        guard let lastObserver else { return }
        let last = ObjectIdentifier(lastObserver.takeUnretainedValue())
        deliveryDepth += 1
        // The observers present now, in order; one added meanwhile received the value when
        // it was added. A removed one is skipped, and its `next` still leads on.
        var current: NodeObserver? = first
        while let observer = current {
            if observer.isActive && observer.seen != version { deliver(to: observer) }
            if ObjectIdentifier(observer) == last { break }
            current = observer.next
        }
        deliveryDepth -= 1
    }

    /// Runs the observer's cleanups, then the observer with the current value or error.
    private func deliver(to observer: NodeObserver) {
        observer.seen = version
        graph.deliveries += 1
        if !observer.cleanups.isEmpty {
            let cleanups = observer.cleanups
            observer.cleanups = []
            for cleanup in cleanups { cleanup() }
        }
        guard observer.isActive else { return }
        let cleanupsBefore = graph.cleanups.count
        graph.observerDepth += 1
        deliveryDepth += 1
        if let failure {
            observer.receive(failure)
        } else {
            // The observer copies the value out of the slot before its sink runs, so a write
            // the sink makes does not change the value it holds.
            observer.receive(UnsafeRawPointer(slot))
        }
        deliveryDepth -= 1
        graph.observerDepth -= 1
        if graph.cleanups.count > cleanupsBefore {
            let cleanups = Array(graph.cleanups[cleanupsBefore...])
            graph.cleanups.removeSubrange(cleanupsBefore...)
            if observer.isActive {
                observer.cleanups += cleanups
            } else {
                // Disconnected while it ran: its cleanups run at once.
                for cleanup in cleanups { cleanup() }
            }
        }
    }
}

extension I: Subscribable {
    /// Delivers the current value at once, then each new value, until the connection
    /// disconnects: ``observe(_:)`` under the name every paradigm of this package shares,
    /// so `.values` and code written against `Subscribable` work with incremental values.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        observe(sink)
    }
}

/// The error that an invalidated node holds: it was made inside a `flatMap` whose
/// left-hand side has since changed, so its closure may hold values that no longer apply.
public struct InvalidatedNode: Error, CustomStringConvertible, Sendable {
    /// A sentence saying why the node is invalid.
    public var description: String {
        "the node was made inside a flatMap whose left-hand side has since changed"
    }
}
