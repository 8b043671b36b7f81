extension I {
    /// This value until `condition` holds for it, then that value for good (Jane Street's
    /// `freeze`).
    ///
    /// ```swift
    /// let firstResult = results.freeze { !$0.isEmpty }   // the first non-empty results, kept
    /// ```
    ///
    /// Each time the node computes, it takes this value; when `condition` holds for it, the
    /// node is *frozen*: it lets go of this node and never changes again, as a constant
    /// would. With the default condition, it freezes at its first computation. While this
    /// value holds an error, so does the node, and it does not freeze.
    public func freeze(when condition: @escaping (Value) -> Bool = { _ in true }) -> I<Value> {
        FreezeNode(self, condition: condition)
    }

    /// This value, with `other` kept necessary while the result is (Jane Street's
    /// `depend_on`).
    ///
    /// ```swift
    /// let shown = total.depend(on: auditLog)   // auditLog stays up to date while shown is observed
    /// ```
    ///
    /// The result changes only when this value changes; a change of `other` alone propagates
    /// no further. If either holds an error, so does the result (this value's first).
    ///
    /// - Precondition: Both values belong to the same graph.
    public func depend<Other>(on other: I<Other>) -> I<Value> {
        precondition(graph === other.graph, "Incremental: depend(on:) of values from two different graphs")
        return DependOnNode(self, other)
    }

    /// This value, kept up to date by propagations as long as the returned node is alive,
    /// observed or not (Jane Street's `necessary_if_alive`).
    ///
    /// ```swift
    /// let warm = expensiveReport.necessaryIfAlive()   // reading warm.value computes nothing more
    /// ```
    ///
    /// The returned node holds an observer of this node, with no sink to call: this node and
    /// everything it reads are necessary, so propagations keep them current, until the
    /// returned node is freed.
    ///
    /// - Precondition: Not called from inside a `map`, `flatMap` or `computed` closure (it
    ///   observes).
    public func necessaryIfAlive() -> I<Value> {
        KeepNecessaryNode(self)
    }
}

/// Takes its input's value until its condition holds, then becomes a constant: it drops its
/// edge and carries `Flags.source`, so the walks treat it as current from then on.
final class FreezeNode<Value>: I<Value> {
    private var condition: (Value) -> Bool

    init(_ input: I<Value>, condition: @escaping (Value) -> Bool) {
        self.condition = condition
        super.init(graph: Unmanaged.passUnretained(input.graph), cutoff: .default, edgeCapacity: 1)
        appendEdge(to: input)
    }

    deinit {
        graph.releaseAfterDeinit(condition)
        condition = { _ in false }
    }

    override func recompute() -> Step {
        guard let address = readEdge(0) else { return fail(edgeFailure(0)) }
        let value = address.assumingMemoryBound(to: Value.self).pointee
        let step = update(to: value)
        if condition(value) {
            // Safe inside `recompute`: the walks read a node's edges before it recomputes,
            // never after; a bit set here survives them (they only clear bits afterwards).
            graph.trimEdges(of: self, to: 0)
            flags |= Flags.source
            graph.releaseAfterDeinit(condition)
            condition = { _ in false }
        }
        return step
    }

    override var valueDescription: String {
        flags & Flags.source != 0 ? "frozen \(super.valueDescription)" : super.valueDescription
    }
}

/// Reads its input (edge 0) and another node (edge 1); its value is the input's, and changes
/// only when the input's version does.
final class DependOnNode<Value>: I<Value> {
    init<Other>(_ input: I<Value>, _ other: I<Other>) {
        super.init(graph: Unmanaged.passUnretained(input.graph), cutoff: .alwaysPropagate, edgeCapacity: 2)
        appendEdge(to: input)
        appendEdge(to: other)
    }

    override func recompute() -> Step {
        let inputChanged = edges[0].seen != edges[0].ref._withUnsafeGuaranteedRef { $0.version }
        guard let address = readEdge(0) else { return fail(edgeFailure(0)) }
        guard readEdge(1) != nil else { return fail(edgeFailure(1)) }
        if !inputChanged && flags & (Flags.hasValue | Flags.failed) == Flags.hasValue { return .unchanged }
        return update(to: address.assumingMemoryBound(to: Value.self).pointee)
    }
}

/// Its input's value, with an observer of the input held as long as this node lives.
final class KeepNecessaryNode<Value>: I<Value> {
    private var demand: Connection?

    init(_ input: I<Value>) {
        super.init(graph: Unmanaged.passUnretained(input.graph), cutoff: .alwaysPropagate, edgeCapacity: 1)
        appendEdge(to: input)
        demand = input.observeResult { _ in }
    }

    deinit {
        // Disconnected first, while the graph still counts this node and its block: the
        // input loses the demand (the invariant checks may run then).
        demand?.disconnect()
        demand = nil
    }

    override func recompute() -> Step {
        guard let address = readEdge(0) else { return fail(edgeFailure(0)) }
        return update(to: address.assumingMemoryBound(to: Value.self).pointee)
    }
}
