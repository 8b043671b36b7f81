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
    var storedValue: Value?
    var cutoff: Cutoff<Value> = .default
    private var observers: [(key: Int, sink: ((Value) -> Void)?)] = []
    private var nextObserverKey = 0
    private var liveObservers = 0

    /// The current value.
    ///
    /// For an observed node, the value as of the last propagation. For an unobserved one,
    /// reading computes it (and the unobserved values it reads) on the spot, without
    /// connecting anything; nothing is kept up to date afterwards.
    public var value: Value {
        if !isNecessary || storedValue == nil { graph.pull(self) }
        return storedValue!
    }

    /// Sets the node's cutoff: when a recomputed value counts as unchanged.
    ///
    /// ```swift
    /// let rounded = reading.map { ($0 * 10).rounded() / 10 }
    /// rounded.setCutoff(.custom { abs($0 - $1) < 0.05 })
    /// ```
    @discardableResult
    public func setCutoff(_ cutoff: Cutoff<Value>) -> Self {
        self.cutoff = cutoff
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
        observers.append((key, sink))
        liveObservers += 1
        graph.connect(self)
        sink(storedValue!)
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

    private var isNotifying = false

    override var hasObservers: Bool { liveObservers > 0 }

    override func notifyObservers() {
        guard let value = storedValue else { return }
        isNotifying = true
        let end = observers.count
        var index = 0
        while index < end {
            if let sink = observers[index].sink { sink(value) }
            index += 1
        }
        isNotifying = false
        if observers.count != liveObservers { observers.removeAll { $0.sink == nil } }
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value.
    func update(to newValue: Value) -> RecomputeResult {
        if let old = storedValue, let isEqual = cutoff.isEqual, isEqual(old, newValue) {
            return .unchanged
        }
        storedValue = newValue
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
        storedValue = value
        recomputedAt = 0
        changedAt = 0
    }

    /// The input as a derived-value handle, as in Chris Eidhof's Incremental.
    public var i: I<Value> { self }

    /// The input's value; setting it writes.
    override public var value: Value {
        get { storedValue! }
        set { write(newValue) }
    }

    /// Writes `newValue` and propagates (at the end of the batch, inside one).
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    public func write(_ newValue: Value) {
        graph.write { [self] in
            if update(to: newValue) == .changed { graph.inputDidChange(self) }
        }
    }

    /// Changes the value in place and propagates.
    public func modify(_ body: (inout Value) -> Void) {
        var copy = storedValue!
        body(&copy)
        write(copy)
    }

    override var isStale: Bool { false }
}

/// A node that never changes.
final class ConstantNode<Value>: I<Value> {
    init(graph: Graph, value: Value) {
        super.init(graph: graph)
        storedValue = value
        recomputedAt = 0
        changedAt = 0
    }

    override var isStale: Bool { false }
}
