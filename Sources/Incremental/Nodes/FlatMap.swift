extension I {
    /// A value read from a node that `transform` picks from this value: the graph changes
    /// shape as values change (Jane Street's `bind`).
    ///
    /// ```swift
    /// let shown = useMetric.flatMap { $0 ? celsius : fahrenheit }
    /// ```
    ///
    /// When this value changes, `transform` runs and the node it returns replaces the
    /// previous one. Only the current one is connected and computed: a node that only the
    /// previous choice read is not recomputed, in that propagation or later, while nothing
    /// else needs it. The result is current in the same propagation, with the node it
    /// picked brought up to date first.
    ///
    /// Nodes that `transform` makes belong to the run that made them: when this value
    /// changes, they are *invalidated* (they never compute again, and hold
    /// ``InvalidatedNode`` as their error), because their closures may capture values of
    /// the old run. Inputs and constants made there are not invalidated.
    ///
    /// `transform` may throw: the error becomes the node's state until this value changes
    /// and `transform` succeeds.
    ///
    /// - Precondition: The node `transform` returns does not read the result itself (a
    ///   cycle), and belongs to the same graph.
    public func flatMap<Output>(_ transform: @escaping (Value) throws -> I<Output>) -> I<Output> {
        BindNode(self, transform)
    }
}

/// Reads the node its transform picks from the left-hand side (edge 0); the picked node is
/// edge 1.
final class BindNode<Input, Value>: I<Value> {
    unowned(unsafe) let lhs: I<Input>
    private var transform: (Input) throws -> I<Value>
    /// The derived nodes the current run of `transform` made.
    private var scope: [WeakNode] = []

    init(_ lhs: I<Input>, _ transform: @escaping (Input) throws -> I<Value>) {
        self.lhs = lhs
        self.transform = transform
        super.init(graph: Unmanaged.passUnretained(lhs.graph), flags: Flags.dynamic, edgeCapacity: 2)
        appendEdge(to: lhs)
    }

    deinit {
        // The transform usually captures nodes, whose own transforms capture more (a chain of
        // `flatMap`s): the graph releases it after this node, in its loop, without recursing.
        // The closure left in its place captures nothing.
        graph.releaseAfterDeinit(transform)
        transform = { _ in throw InvalidatedNode() }
    }

    override func recompute() -> Step {
        if edges.count == 1 || edges[0].seen != lhs.version {
            edges[0].seen = lhs.version
            if let failure = pick() { return fail(failure) }
        }
        let rhs = edges[1].ref
        if !rhs._withUnsafeGuaranteedRef({ $0.isCurrent }) {
            graph.recomputeNeeds(rhs)
            return .needs
        }
        return rhs._withUnsafeGuaranteedRef { rhs in
            edges[1].seen = rhs.version
            if let failure = rhs.failure { return fail(failure) }
            return update(to: unsafeDowncast(rhs, to: I<Value>.self).current)
        }
    }

    /// Runs `transform` for the left-hand side's value and reads the node it returns from
    /// now on; returns the error if there is none to read.
    private func pick() -> (any Error)? {
        invalidateScope()
        if let failure = lhs.failure {
            dropRhs()
            return failure
        }
        let newRhs: I<Value>
        do {
            // Nodes the transform makes belong to this node's scope (the graph asks
            // `currentScope` only when a node is made).
            let transform = transform
            let value = lhs.current
            newRhs = try graph.withScope(self) { try transform(value) }
        } catch {
            dropRhs()
            return error
        }
        precondition(newRhs.graph === graph, "Incremental: flatMap returned a node of another graph")
        if edges.count == 1 {
            appendEdge(to: newRhs)
            if isNecessary { graph.link(self, edge: 1) }
        } else if edges[1].ref.toOpaque() != Unmanaged.passUnretained(newRhs).toOpaque() {
            replaceEdge(at: 1, with: newRhs)
        }
        return nil
    }

    private func dropRhs() {
        guard edges.count == 2 else { return }
        let rhs = edges[1].node
        if edges[1].slot >= 0 {
            graph.unlink(self, edge: 1)
            if !rhs.isNecessary { graph.deactivate(rhs) }
        }
        edges.removeLast()
        graph.releaseLater(rhs)
    }

    override func adopt(_ node: IncrementalNode) {
        if node.flags & Flags.source == 0 { scope.append(WeakNode(node: node)) }
    }

    private func invalidateScope() {
        guard !scope.isEmpty else { return }
        let nodes = scope
        scope = []
        for entry in nodes {
            if let node = entry.node { graph.invalidate(node) }
        }
    }

    override func willBeInvalidated() {
        invalidateScope()
    }
}

struct WeakNode {
    weak var node: IncrementalNode?
}

extension Graph {
    /// Makes `node` invalid: it holds ``InvalidatedNode``, never computes again, and lets go
    /// of what it read; nodes that read it see the error.
    func invalidate(_ node: IncrementalNode) {
        guard node.flags & Flags.invalid == 0 else { return }
        countInvalidation()
        node.willBeInvalidated()
        node.flags |= Flags.invalid
        node.flags &= ~Flags.pending
        node.failure = InvalidatedNode()
        let edges = node.edges
        for index in edges.indices where edges[index].slot >= 0 {
            unlink(node, edge: index)
            let input = edges[index].node
            if !input.isNecessary { deactivate(input) }
        }
        node.edges = RawList()
        releaseLater(edges)
        var freed = edges
        freed.deallocate()
        inputChanged(node)
    }
}
