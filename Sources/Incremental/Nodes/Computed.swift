extension Graph {
    /// A value computed by `body`, whose inputs are the values it reads.
    ///
    /// ```swift
    /// let first = graph.input("Ada")
    /// let last = graph.input("Lovelace")
    /// let showLast = graph.input(true)
    /// let name = graph.computed { showLast.value ? "\(first.value) \(last.value)" : first.value }
    /// ```
    ///
    /// Every read of a node's value inside `body` (``I/value``, ``I/get()``, ``I/result``)
    /// makes that node an input, recorded afresh on each run: a branch not taken is not an
    /// input, so while `showLast` is false, writing `last` recomputes nothing. Reads inside
    /// ``untracked(_:)`` are not recorded.
    ///
    /// Otherwise the node is like any other: it computes only when needed, at most once per
    /// propagation, only after every value it reads is current; a result equal to the last
    /// (by `==`) stops propagation. `body` may throw: the error is then the node's state.
    /// Explicit nodes (`map`, `flatMap`) and computed ones read each other freely.
    ///
    /// - Precondition: `body` reads only nodes of this graph, and not the node itself,
    ///   directly or through the values it reads (a cycle).
    @inlinable
    public func computed<Value: Equatable>(_ body: @escaping () throws -> Value) -> I<Value> {
        TrackedNode(graph: self, equatable: true) { node in
            try unsafeDowncast(node, to: I<Value>.self).storeEquatable(body())
        }
    }

    /// A value computed by `body`, whose inputs are the values it reads; for a value that
    /// is not `Equatable`, with the ``Cutoff/default`` cutoff (`===` for class instances,
    /// none otherwise).
    ///
    /// See the `Equatable` form for the rules.
    @inlinable
    public func computed<Value>(_ body: @escaping () throws -> Value) -> I<Value> {
        TrackedNode(graph: self, equatable: false) { node in try unsafeDowncast(node, to: I<Value>.self).store(body()) }
    }

    /// Runs `body` without recording what it reads: inside a computed value or an effect,
    /// the nodes `body` reads do not become inputs.
    ///
    /// ```swift
    /// let logged = graph.computed {
    ///     let total = price.value * quantity.value
    ///     let unit = graph.untracked { currency.value }   // a currency change recomputes nothing
    ///     return "\(total) \(unit)"
    /// }
    /// ```
    ///
    /// Outside a computed value or an effect, it just runs `body`.
    @discardableResult
    public func untracked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withoutTracking(body)
    }

    /// Whether a computed value or an effect is running now and records what is read.
    public var isTracking: Bool { tracker != nil }
}

/// A node whose inputs are what its closure reads (``Graph/computed(_:)-9iakp``).
///
/// `Flags.dynamic`: the pull walk recomputes it at its first input that changed, without
/// bringing the later ones up to date (see Tracking.swift).
@usableFromInline
final class TrackedNode<Value>: I<Value> {
    /// Runs the closure and stores its result with the node's cutoff; made where
    /// `computed` is called, so specialized for the value's type.
    @usableFromInline typealias Kernel = (IncrementalNode) throws -> Bool
    private var kernel: Kernel

    @usableFromInline
    init(graph: Graph, equatable: Bool, kernel: @escaping Kernel) {
        self.kernel = kernel
        super.init(
            graph: Unmanaged.passUnretained(graph), flags: Flags.dynamic, cutoff: equatable ? nil : .default,
            edgeCapacity: 2)
    }

    deinit {
        // The graph releases the closure after this node, without recursing (see `Graph`'s
        // `releaseAfterDeinit`); the closure left in its place captures nothing.
        graph.releaseAfterDeinit(kernel)
        kernel = { _ in false }
    }

    override func recompute() -> Step {
        let kernel = kernel
        do {
            return try graph.tracking(self) { try kernel(self) } ? .changed : .unchanged
        } catch {
            return fail(error)
        }
    }
}
