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
    // Observers take the value by address: a list of a non-generic type, so that notifying
    // them looks up no generic metadata at run time. Unchecked exclusivity as above.
    @exclusivity(unchecked) private var observers: [RawObserver] = []
    @exclusivity(unchecked) private var nextObserverKey = 0
    /// How many deliveries to this node's observers are under way (nested when an observer
    /// writes outside a propagation); removed observers are compacted only at zero.
    @exclusivity(unchecked) private var deliveryDepth = 0

    /// `cutoff` nil: the node compares with its type's own `==` in specialized code only
    /// (see ``useEquatableCutoff()``).
    init(graph: Graph, flags: UInt32 = 0, cutoff: Cutoff<Value>? = .default) {
        slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        super.init(graph: graph, flags: flags, valueAddress: UnsafeMutableRawPointer(slot))
        if let cutoff {
            setCutoff(cutoff)
        } else {
            useEquatableCutoff()
        }
    }

    deinit {
        if hasValue { slot.deinitialize(count: 1) }
        slot.deallocate()
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
    public func get() throws -> Value {
        graph.read(self)
        if let failure { throw failure }
        return current
    }

    /// The current value or the error the node holds. Brings the node up to date as
    /// ``value`` does.
    public var result: Result<Value, any Error> {
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
    public func setCutoff(_ cutoff: Cutoff<Value>) -> Self {
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
        return storeFirst(newValue)
    }

    /// Stores a first value, or one that replaces an error.
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
    public func observe(_ sink: @escaping (Value) -> Void) -> Connection {
        addObserver(
            RawObserver(
                key: 0,
                sink: {
                    let value = $0.assumingMemoryBound(to: Value.self).pointee
                    sink(value)
                }, onError: nil))
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
    public func observeResult(_ sink: @escaping (Result<Value, any Error>) -> Void) -> Connection {
        addObserver(
            RawObserver(
                key: 0,
                sink: {
                    let value = $0.assumingMemoryBound(to: Value.self).pointee
                    sink(.success(value))
                },
                onError: { sink(.failure($0)) }))
    }

    private func addObserver(_ observer: RawObserver) -> Connection {
        precondition(
            graph.recomputeDepth == 0,
            "Incremental: observe was called while the graph was recomputing (from inside a map or flatMap closure)")
        var observer = observer
        observer.key = nextObserverKey
        nextObserverKey += 1
        let key = observer.key
        observers.append(observer)
        graph.addObserver(to: self)
        graph.read(self)
        // Writes the observer makes now are propagated after it returns, as they are when it
        // runs in a propagation: observers never nest.
        graph.deliveringOutsidePropagation {
            deliver(toObserverAt: observers.count - 1)
        }
        return Connection(isolated: { [self] in removeObserver(key) })
    }

    private func removeObserver(_ key: Int) {
        guard let index = observers.firstIndex(where: { $0.key == key }), observers[index].isActive else { return }
        let cleanups = observers[index].cleanups
        observers[index].sink = nil
        observers[index].onError = nil
        observers[index].cleanups = []
        observers[index].isActive = false
        if deliveryDepth == 0 { observers.remove(at: index) }
        graph.removeObserver(from: self)
        for cleanup in cleanups { cleanup() }
    }

    override final func notifyObservers() {
        guard hasComputed else { return }
        deliveryDepth += 1
        let end = observers.count
        var index = 0
        while index < end {
            if observers[index].isActive && observers[index].seen != version {
                deliver(toObserverAt: index)
            }
            index += 1
        }
        deliveryDepth -= 1
        compactObservers()
    }

    private func compactObservers() {
        if deliveryDepth == 0, observers.count != observerCount {
            observers.removeAll { !$0.isActive }
        }
    }

    /// Runs the observer's cleanups, then the observer with the current value or error.
    private func deliver(toObserverAt index: Int) {
        observers[index].seen = version
        graph.deliveries += 1
        if !observers[index].cleanups.isEmpty {
            let cleanups = observers[index].cleanups
            observers[index].cleanups = []
            for cleanup in cleanups { cleanup() }
        }
        guard observers[index].isActive else { return }
        let cleanupsBefore = graph.cleanups.count
        graph.observerDepth += 1
        deliveryDepth += 1
        if let failure {
            let onError = observers[index].onError
            onError?(failure)
        } else if let sink = observers[index].sink {
            // The sink copies the value out of the slot before the observer runs, so a write
            // the observer makes does not change the value it holds.
            sink(UnsafeRawPointer(slot))
        }
        deliveryDepth -= 1
        graph.observerDepth -= 1
        if graph.cleanups.count > cleanupsBefore {
            let cleanups = Array(graph.cleanups[cleanupsBefore...])
            graph.cleanups.removeSubrange(cleanupsBefore...)
            if observers[index].isActive {
                observers[index].cleanups += cleanups
            } else {
                // Disconnected while it ran: its cleanups run at once.
                for cleanup in cleanups { cleanup() }
            }
        }
        compactObservers()
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

/// An observer of a node: a sink that takes the node's value by address, so that the list of
/// observers has one non-generic type whatever the value's type.
struct RawObserver {
    var key: Int
    var sink: ((UnsafeRawPointer) -> Void)?
    var onError: ((any Error) -> Void)?
    /// The node's version this observer last received.
    var seen = -1
    /// What to run before the observer runs again, or when it is disconnected.
    var cleanups: [() -> Void] = []
    var isActive = true

    init(key: Int, sink: ((UnsafeRawPointer) -> Void)?, onError: ((any Error) -> Void)?) {
        self.key = key
        self.sink = sink
        self.onError = onError
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
