extension I {
    /// An `Observable` view of this value for Observation and SwiftUI: it starts from the
    /// current value, follows every propagation that changes it, and tells a view only about
    /// the members the view read. See `ObservedValue` in ReactiveCore for the rules.
    ///
    /// ```swift
    /// let total = cart.map { $0.reduce(0, +) }.observed()
    /// withObservationTracking { print(total.value) } onChange: { print("total changes") }
    /// ```
    ///
    /// The observed value observes the node, so the node stays necessary (and is kept up
    /// to date) while the observed value lives; releasing it releases the node's observer.
    /// Call it in the graph's isolation domain (the main actor, for SwiftUI).
    ///
    /// - Precondition: The node holds a value, not an error, as for ``value``.
    public func observed() -> ObservedValue<Value> {
        ObservedValue(self, initial: value)
    }
}

extension Input {
    /// Writes every element of `sequence` to the input, in order, each write propagating as
    /// `write(_:)` does, until the sequence ends or the returned connection disconnects.
    ///
    /// ```swift
    /// let feeding = temperature.feed(from: sensor.readings)
    /// ```
    ///
    /// The writes happen on a task isolated to the caller's actor (the compiler rejects a
    /// call from code that is not on an actor), the domain the graph lives in. After the
    /// connection disconnects, nothing more is written; releasing it disconnects too.
    /// `finished` runs once when the sequence ends on its own: with `nil`, or with the error
    /// it threw.
    public func feed<Elements: AsyncSequence>(
        from sequence: sending Elements,
        isolation: isolated (any Actor) = #isolation,
        finished: @escaping (Elements.Failure?) -> Void = { _ in }
    ) -> Connection where Elements.Element == Value {
        feedIsolated(sequence, isolation: isolation, receive: { [self] in write($0) }, finished: finished)
    }
}

extension I: CustomDebugStringConvertible {
    /// The node's name (or kind), its value or error (`–` if never computed), whether it is necessary and how many
    /// observers it has; reading it does not bring the node up to date.
    public var debugDescription: String {
        let name = debugName ?? kindName
        let necessity = isNecessary ? "necessary" : "not necessary"
        return "\(name)<\(Value.self)>(\(valueDescription), \(necessity), observers: \(observerCount))"
    }
}

extension Graph: CustomDebugStringConvertible {
    /// The number of nodes and propagations so far; ``dot(_:)`` draws the whole graph.
    public var debugDescription: String {
        "Graph(nodes: \(nodeCount), propagations: \(statistics.propagations))"
    }
}
