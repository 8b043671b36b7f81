extension Graph {
    /// A node whose inputs you manage yourself, to write combinators the module does not have
    /// (Jane Street's `Expert.Node`).
    ///
    /// ```swift
    /// var total = 0
    /// let sum = graph.expertNode { total }
    /// for price in prices {
    ///     var last = 0
    ///     sum.addDependency(ExpertDependency(price) { new in
    ///         total += new - last
    ///         last = new
    ///     })
    /// }
    /// ```
    ///
    /// `compute` runs when the node is needed and a dependency changed since it last ran, or
    /// after ``ExpertNode/makeStale()``. Before it runs, each dependency that changed calls
    /// its `onChange` with its new value, in the order the changes reached the node: so a
    /// combinator can keep its own state up to date in O(1) per change, however many
    /// dependencies it has. While the node is necessary, a change reaches it through the
    /// dependency it changed, and only that one is looked at; while it is not, a read looks
    /// at them all.
    ///
    /// `onObservabilityChange` is told when the node becomes necessary (`true`) and stops
    /// being (`false`); it runs while the graph changes its links, so it may record the
    /// change, not read or write the graph.
    public func expertNode<Value>(
        cutoff: Cutoff<Value> = .default,
        onObservabilityChange: ((Bool) -> Void)? = nil,
        compute: @escaping () throws -> Value
    ) -> ExpertNode<Value> {
        ExpertNode(graph: self, cutoff: cutoff, onObservabilityChange: onObservabilityChange, compute: compute)
    }
}

/// A dependency of an ``ExpertNode``: a node it reads, with what to do when that node's value
/// changes.
public final class ExpertDependency<Value>: AnyExpertDependency {
    /// The node depended on.
    public let node: I<Value>
    private let onChange: ((Value) -> Void)?

    /// A dependency on `node`; `onChange` receives each new value, before the expert node's
    /// `compute` runs.
    public init(_ node: I<Value>, onChange: ((Value) -> Void)? = nil) {
        self.node = node
        self.onChange = onChange
    }

    /// The node's current value: read it from the expert node's `compute`.
    public var value: Value { node.value }

    override func changed(at address: UnsafeRawPointer) {
        onChange?(address.assumingMemoryBound(to: Value.self).pointee)
    }
}

/// A dependency of an expert node, whatever the type of its value.
public class AnyExpertDependency {
    /// The expert node this dependency belongs to, while it does.
    weak var owner: IncrementalNode?
    /// The index of this dependency's edge in its owner.
    var index = -1
    /// Whether the node depended on held an error when the owner last looked.
    var failed = false

    init() {}

    /// Tells the dependency that its node changed; its value is at `address`.
    func changed(at address: UnsafeRawPointer) {}
}

/// A node with user-managed dependencies (``Graph/expertNode(cutoff:onObservabilityChange:compute:)``).
///
/// It is an ``I``: observe it, read it, and build on it like any other node.
public final class ExpertNode<Value>: I<Value> {
    private var compute: () throws -> Value
    private var onObservabilityChange: ((Bool) -> Void)?
    /// The dependencies, in the order of the edges.
    private var dependencies: [AnyExpertDependency] = []
    /// The edges a push reached this node through since it last computed (in the order
    /// reached, maybe repeated); only kept while the node is necessary and `checksAll` is
    /// false.
    private var marked: [Int] = []
    /// Whether the next pull looks at every edge: the node has not computed while necessary
    /// since it last became so.
    private var checksAll = true
    /// ``makeStale()`` was called since the node last computed.
    private var isStale = false
    /// How many dependencies hold an error: while any does, so does the node.
    private var failedCount = 0

    init(
        graph: Graph, cutoff: Cutoff<Value>, onObservabilityChange: ((Bool) -> Void)?,
        compute: @escaping () throws -> Value
    ) {
        self.compute = compute
        self.onObservabilityChange = onObservabilityChange
        super.init(
            graph: Unmanaged.passUnretained(graph), flags: Flags.dynamic | Flags.expert, cutoff: cutoff)
    }

    deinit {
        graph.releaseAfterDeinit(compute)
        compute = { throw InvalidatedNode() }
        onObservabilityChange = nil
    }

    /// The dependencies the node has now, in no particular order.
    public var dependencyCount: Int { dependencies.count }

    /// Makes the node depend on `dependency`'s node: its `onChange` receives that node's
    /// value before the next `compute`, and every change after.
    ///
    /// - Precondition: `dependency` belongs to no expert node, and its node to this graph.
    public func addDependency<DependencyValue>(_ dependency: ExpertDependency<DependencyValue>) {
        precondition(
            dependency.owner == nil && dependency.index < 0,
            "Incremental: addDependency of a dependency that already belongs to an expert node")
        precondition(
            dependency.node.graph === graph, "Incremental: addDependency of a node of another graph")
        dependency.owner = self
        dependency.index = edges.count
        dependencies.append(dependency)
        appendEdge(to: dependency.node)
        if isNecessary {
            graph.link(self, edge: dependency.index)
            marked.append(dependency.index)
        }
        makeStale()
    }

    /// Makes the node stop depending on `dependency`, in O(1).
    ///
    /// - Precondition: `dependency` belongs to this node, which is not computing (remove
    ///   dependencies from outside `compute` and `onChange`).
    public func removeDependency<DependencyValue>(_ dependency: ExpertDependency<DependencyValue>) {
        precondition(
            dependency.owner === self && dependency.index >= 0,
            "Incremental: removeDependency of a dependency this expert node does not have")
        precondition(
            flags & Flags.onStack == 0,
            "Incremental: removeDependency was called while the expert node computes")
        let index = dependency.index
        let last = dependencies.count - 1
        graph.removeEdge(of: self, at: index)
        dependencies[index] = dependencies[last]
        dependencies[index].index = index
        dependencies.removeLast()
        if dependency.failed { failedCount -= 1 }
        dependency.owner = nil
        dependency.index = -1
        dependency.failed = false
        // The marks named edges by index: the removed one goes, the moved one follows.
        marked = marked.compactMap { $0 == index ? nil : $0 == last ? index : $0 }
        makeStale()
    }

    /// Makes the node compute again when next needed, as if a dependency changed (every
    /// necessary node above it is brought up to date in the next propagation).
    public func makeStale() {
        isStale = true
        graph.markStale(self)
    }

    /// Invalidates the node: it holds ``InvalidatedNode``, lets go of its dependencies, and
    /// never computes again; the nodes that read it hold the error too.
    ///
    /// From inside a computation, it applies after it, as writes do.
    public func invalidate() {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in invalidate() }
            return
        }
        graph.invalidate(self)
        graph.propagate()
    }

    override func willBeInvalidated() {
        for dependency in dependencies {
            dependency.owner = nil
            dependency.index = -1
            dependency.failed = false
        }
        dependencies = []
        marked = []
        failedCount = 0
    }

    override func didBecomeNecessary() {
        onObservabilityChange?(true)
    }

    override func didBecomeUnnecessary() {
        checksAll = true
        marked = []
        onObservabilityChange?(false)
    }

    override func noteMarkedEdge(_ index: Int) {
        if !checksAll { marked.append(index) }
    }

    override var expertCheckCount: Int { checksAll || !isNecessary ? edges.count : marked.count }

    override func expertCheckEdge(at position: Int) -> Int {
        checksAll || !isNecessary ? position : marked[position]
    }

    override func recompute() -> Step {
        var changed = isStale || flags & (Flags.hasValue | Flags.failed) == 0
        isStale = false
        var failure: (any Error)?
        func look(at index: Int) {
            let version = edges[index].ref._withUnsafeGuaranteedRef { $0.version }
            guard version != edges[index].seen else { return }
            changed = true
            let dependency = dependencies[index]
            if let address = readEdge(index) {
                if dependency.failed {
                    dependency.failed = false
                    failedCount -= 1
                }
                dependency.changed(at: address)
            } else {
                if !dependency.failed {
                    dependency.failed = true
                    failedCount += 1
                }
                if failure == nil { failure = edgeFailure(index) }
            }
        }
        if checksAll || !isNecessary {
            for index in edges.indices { look(at: index) }
            checksAll = !isNecessary
        } else {
            for index in marked { look(at: index) }
        }
        marked.removeAll(keepingCapacity: true)
        if failedCount > 0 {
            if let failure { return fail(failure) }
            if self.failure != nil { return .unchanged }
            // An error from before that no look saw now (rare): find a dependency holding one.
            let index = dependencies.firstIndex { $0.failed } ?? 0
            return fail(edgeFailure(index))
        }
        guard changed else { return .unchanged }
        do {
            return update(to: try compute())
        } catch {
            return fail(error)
        }
    }
}
