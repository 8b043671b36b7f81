extension I {
    /// A value read from a node that `transform` picks from this value: the graph changes
    /// shape as values change (Jane Street's `bind`).
    ///
    /// ```swift
    /// let shown = useMetric.flatMap { $0 ? celsius : fahrenheit }
    /// ```
    ///
    /// When this value changes, `transform` runs and the node it returns replaces the
    /// previous one: only the current one is connected and computed, and the previous one
    /// (with any graph `transform` built for it) is released once nothing else holds it.
    /// The result is current in the same propagation, even when the new node sits higher in
    /// the graph than this one: heights are repaired and the node waits its turn.
    ///
    /// - Precondition: The node `transform` returns does not read the result itself (a
    ///   cycle), and belongs to the same graph.
    public func flatMap<Output>(_ transform: @escaping (Value) -> I<Output>) -> I<Output> {
        BindNode(self, transform)
    }
}

/// Reads the node its transform picks from the left-hand side.
final class BindNode<Input, Value>: I<Value> {
    let lhs: I<Input>
    let transform: (Input) -> I<Value>
    private(set) var rhs: I<Value>?
    /// The left-hand side's clock when `transform` last ran.
    private var lhsSeenAt = -1

    init(_ lhs: I<Input>, _ transform: @escaping (Input) -> I<Value>) {
        self.lhs = lhs
        self.transform = transform
        super.init(graph: lhs.graph)
    }

    override var inputs: [IncrementalNode] {
        if let rhs { [lhs, rhs] } else { [lhs] }
    }

    override var isStale: Bool {
        rhs == nil || super.isStale
    }

    override func recompute() -> RecomputeResult {
        if rhs == nil || lhs.changedAt > lhsSeenAt {
            lhsSeenAt = lhs.changedAt
            let newRhs = transform(lhs.current)
            precondition(newRhs.graph === graph, "Incremental: flatMap returned a node of another graph")
            if newRhs !== rhs {
                let oldRhs = rhs
                rhs = newRhs
                if isNecessary {
                    graph.connect(newRhs)
                    newRhs.dependents.append(self)
                    if let oldRhs {
                        if let index = oldRhs.dependents.firstIndex(where: { $0 === self }) {
                            oldRhs.dependents.remove(at: index)
                        }
                        graph.disconnect(oldRhs)
                    }
                    if newRhs.height >= height {
                        graph.raise(self, to: newRhs.height + 1)
                        if graph.nodeBeingPropagated === self {
                            // The new node's inputs may still be waiting to recompute at or
                            // above our old height: take our turn again above it. (A node
                            // being connected reads it now; it is queued again if it changes.)
                            graph.enqueue(self)
                            return .requeued
                        }
                    }
                }
            }
        }
        let rhs = rhs!
        if !rhs.isNecessary { graph.pull(rhs) }
        return update(to: rhs.current)
    }
}
