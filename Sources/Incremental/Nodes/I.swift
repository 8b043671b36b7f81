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
/// Derived values recompute only while something observes them, at most once per
/// propagation, and only after every value they read is current. See <doc:Semantics>.
public class I<Value>: IncrementalNode {
    // The value lives in a slot rather than in an `Optional<Value>` property: generic code
    // that touches `Optional<Value>` looks up its metadata at run time, which cost more
    // than the rest of a node's recomputation.
    private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    /// Whether the slot holds a value.
    // Unchecked: the graph is single-threaded and never holds an access to these across a
    // call that could reach them again; the dynamic checks cost a quarter of a recompute.
    @exclusivity(unchecked) final var hasValue = false
    @exclusivity(unchecked) final var cutsOff = false
    @exclusivity(unchecked) final var equality: (Value, Value) -> Bool = { _, _ in false }
    // Observers take the value by address: a list of a non-generic type, so that notifying
    // them looks up no generic metadata at run time (a list of `(Int, ((Value) -> Void)?)`
    // did, on every notification: callgrind). Unchecked exclusivity as above.
    @exclusivity(unchecked) private var observers: [RawObserver] = []
    @exclusivity(unchecked) private var nextObserverKey = 0
    @exclusivity(unchecked) private var liveObservers = 0

    override init(graph: Graph) {
        super.init(graph: graph)
        setCutoff(.default)
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
    /// For an observed node, the value as of the last propagation. For an unobserved one,
    /// reading computes it (and the unobserved values it reads) on the spot, without
    /// connecting anything; nothing is kept up to date afterwards.
    public var value: Value {
        if !isNecessary || !hasValue { graph.pull(self) }
        return current
    }

    /// Sets the node's cutoff: when a recomputed value counts as unchanged.
    ///
    /// ```swift
    /// let rounded = reading.map { ($0 * 10).rounded() / 10 }
    /// rounded.setCutoff(.custom { abs($0 - $1) < 0.05 })
    /// ```
    @discardableResult
    public func setCutoff(_ cutoff: Cutoff<Value>) -> Self {
        if let isEqual = cutoff.isEqual {
            (cutsOff, equality) = (true, isEqual)
        } else {
            (cutsOff, equality) = (false, { _, _ in false })
        }
        return self
    }

    /// Delivers the current value to `sink` at once, then the new value after each
    /// propagation that changes it, until the connection disconnects.
    ///
    /// Observing makes the node necessary: it and everything it reads are computed and kept
    /// up to date. Observers run after the propagation has finished, so every value they can
    /// read is consistent; a write they make is applied after all observers have run.
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    public func observe(_ sink: @escaping (Value) -> Void) -> Connection {
        precondition(
            !graph.isInsideRecomputation,
            "Incremental: observe was called while the graph was recomputing (from inside a map or flatMap closure)")
        let key = nextObserverKey
        nextObserverKey += 1
        observers.append(RawObserver(key: key) { sink($0.assumingMemoryBound(to: Value.self).pointee) })
        liveObservers += 1
        graph.connect(self)
        sink(current)
        return Connection(isolated: { [self] in removeObserver(key) })
    }

    private func removeObserver(_ key: Int) {
        guard let index = observers.firstIndex(where: { $0.key == key }), observers[index].sink != nil else {
            return
        }
        let removed = observers[index].sink
        observers[index].sink = nil
        liveObservers -= 1
        if !isNotifying { observers.remove(at: index) }
        graph.disconnect(self)
        _ = removed
    }

    @exclusivity(unchecked) private var isNotifying = false

    override var hasObservers: Bool { liveObservers > 0 }

    override func notifyObservers() {
        guard hasValue else { return }
        isNotifying = true
        withUnsafePointer(to: current) { value in
            let end = observers.count
            var index = 0
            while index < end {
                if let sink = observers[index].sink { sink(UnsafeRawPointer(value)) }
                index += 1
            }
        }
        isNotifying = false
        if observers.count != liveObservers { observers.removeAll { $0.sink == nil } }
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value.
    final func update(to newValue: Value) -> RecomputeResult {
        if hasValue {
            if cutsOff && equality(slot.pointee, newValue) { return .unchanged }
            slot.pointee = newValue
        } else {
            slot.initialize(to: newValue)
            hasValue = true
        }
        return .changed
    }
}

/// A value you write: the sources of an incremental graph.
///
/// ```swift
/// let count = graph.input(0)
/// count.write(1)                 // propagates at once, unless inside graph.batch { }
/// count.value += 1               // the same, through the property
/// ```
///
/// A write equal to the current value (for `Equatable` values) changes nothing; see
/// ``Cutoff``. A write made by an observer during a propagation is applied after all
/// observers have run, in the order written.
public class Input<Value>: I<Value> {
    init(graph: Graph, value: Value) {
        super.init(graph: graph)
        current = value
        recomputedAt = 0
        changedAt = 0
    }

    /// The input as a derived-value handle, as in Chris Eidhof's Incremental.
    public var i: I<Value> { self }

    /// The input's value; setting it writes.
    override public var value: Value {
        get { current }
        set { write(newValue) }
    }

    /// Writes `newValue` and propagates (at the end of the batch, inside one).
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    public func write(_ newValue: Value) {
        guard graph.beginWrite() else {
            graph.deferWrite { [self] in apply(newValue) }
            return
        }
        apply(newValue)
        graph.propagate()
    }

    private func apply(_ newValue: Value) {
        if update(to: newValue) == .changed { graph.inputDidChange(self) }
    }

    /// Mutates the stored value in place without telling the graph; for owners that keep
    /// their state in the input (Resin's root store) and report the change with
    /// ``markChanged()`` once they are done. Must not be called during a recomputation.
    package func mutateWithoutPropagating<Result>(_ body: (inout Value) -> Result) -> Result {
        mutateCurrent(body)
    }

    /// Reports that the value changed (in place), as a write that always propagates.
    package func markChanged() {
        graph.write { [self] in graph.inputDidChange(self) }
    }

    /// Changes the value in place and propagates.
    public func modify(_ body: (inout Value) -> Void) {
        var copy = current
        body(&copy)
        write(copy)
    }

    override var isStale: Bool { false }
}

/// A node that never changes.
final class ConstantNode<Value>: I<Value> {
    init(graph: Graph, value: Value) {
        super.init(graph: graph)
        current = value
        recomputedAt = 0
        changedAt = 0
    }

    override var isStale: Bool { false }
}

/// An observer of a node: a sink that takes the node's value by address, so that the list of
/// observers has one non-generic type whatever the value's type.
struct RawObserver {
    let key: Int
    var sink: ((UnsafeRawPointer) -> Void)?
}
