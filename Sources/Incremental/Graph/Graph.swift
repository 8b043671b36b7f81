/// An incremental computation: the inputs, the values derived from them, and the engine
/// that brings derived values up to date when inputs change.
///
/// ```swift
/// let graph = Graph()
/// let width = graph.input(3)
/// let height = graph.input(4)
/// let area = map2(width, height) { $0 * $1 }
/// let connection = area.observe { print("area", $0) }   // prints "area 12"
/// graph.batch {
///     width.write(5)
///     height.write(6)
/// }                                                      // prints "area 30", once
/// ```
///
/// A graph and its nodes live in one isolation domain; see <doc:Semantics> for the rules
/// of propagation, demand, cutoff and reentrancy.
public final class Graph {
    /// How many nodes of this graph exist (referenced by anything).
    public internal(set) var nodeCount = 0

    /// Counts of the work the graph has done, for tests and benchmarks.
    @exclusivity(unchecked) public private(set) var statistics = Statistics()

    /// Increases on every change of a value; a node is stale if one of its inputs changed
    /// after it was recomputed.
    // Unchecked exclusivity for the propagation loop's state, for the reason given on
    // `IncrementalNode`'s bookkeeping.
    @exclusivity(unchecked) var clock = 0
    @exclusivity(unchecked) private var heap = RecomputeHeap()
    @exclusivity(unchecked) private(set) var isStabilizing = false
    @exclusivity(unchecked) private var isNotifying = false
    @exclusivity(unchecked) private var batchDepth = 0
    @exclusivity(unchecked) private var pendingWrites: [() -> Void] = []
    @exclusivity(unchecked) private var changedObserved: [IncrementalNode] = []
    /// Counts stabilizations (including empty ones), so that collection inputs know when
    /// the edits of one change end and the next change begins.
    @exclusivity(unchecked) private(set) var changeWindow = 0
    /// The node the propagation loop is recomputing (not one it connects on the way).
    @exclusivity(unchecked) private(set) var nodeBeingPropagated: IncrementalNode?

    /// Creates an empty graph.
    public init() {}

    /// A new input holding `value`.
    public func input<Value>(_ value: Value) -> Input<Value> {
        Input(graph: self, value: value)
    }

    /// A node that always holds `value`.
    public func constant<Value>(_ value: Value) -> I<Value> {
        ConstantNode(graph: self, value: value)
    }

    /// Runs `body`, then brings the graph up to date once for all the writes it made.
    ///
    /// Observers see the result of all the writes together, never an intermediate state.
    /// Batches nest; the outermost one propagates.
    public func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { propagate() }
        }
        return try body()
    }

    // MARK: Writes

    /// Called by an input whose value a write changed.
    func write(_ apply: @escaping () -> Void) {
        if beginWrite() {
            apply()
            propagate()
        } else {
            pendingWrites.append(apply)
        }
    }

    /// Checks that an input may be written now, and says whether the write applies at once
    /// (`true`) or must wait until the observers being notified have all run (`false`: the
    /// caller passes it to ``deferWrite(_:)``). Lets a write that applies at once do so
    /// without allocating a closure.
    func beginWrite() -> Bool {
        precondition(
            !isStabilizing,
            "Incremental: an input was written while the graph was recomputing (from inside a map or flatMap closure); write from an observer or outside the graph instead"
        )
        return !isNotifying
    }

    /// Queues a write made while observers are being notified.
    func deferWrite(_ apply: @escaping () -> Void) {
        pendingWrites.append(apply)
    }

    /// Records that input `node` changed and queues what depends on it.
    func inputDidChange(_ node: IncrementalNode) {
        clock += 1
        node.changedAt = clock
        node.recomputedAt = clock
        for dependent in node.dependents { enqueue(dependent) }
        if node.hasObservers { noteChanged(node) }
    }

    // MARK: Propagation

    /// Recomputes what is queued, notifies observers, then applies the writes observers
    /// made, repeating until nothing is left. Does nothing inside a batch or while already
    /// propagating.
    func propagate() {
        guard batchDepth == 0, !isStabilizing, !isNotifying else { return }
        stabilize()
        notify()
        while !pendingWrites.isEmpty {
            let writes = pendingWrites
            pendingWrites = []
            for apply in writes { apply() }
            stabilize()
            notify()
        }
    }

    private func stabilize() {
        // Edits written from here on belong to the next change.
        defer { changeWindow += 1 }
        guard !heap.isEmpty else { return }
        isStabilizing = true
        defer { isStabilizing = false }
        var recomputed = 0
        while let node = heap.removeFirst() {
            guard node.isNecessary else { continue }
            recomputed += 1
            nodeBeingPropagated = node
            finish(node, node.recompute(), propagating: true)
        }
        nodeBeingPropagated = nil
        statistics.propagations += 1
        statistics.lastRecomputations = recomputed
        statistics.recomputations += recomputed
    }

    /// Bookkeeping after a node recomputed.
    private func finish(_ node: IncrementalNode, _ result: RecomputeResult, propagating: Bool) {
        switch result {
        case .changed:
            clock += 1
            node.changedAt = clock
            node.recomputedAt = clock
            // A node computed while being connected or read has no one to tell: its new
            // observer gets the value directly, and nothing depends on it yet.
            if propagating {
                for dependent in node.dependents { enqueue(dependent) }
                if node.hasObservers { noteChanged(node) }
            }
        case .unchanged:
            node.recomputedAt = clock
        case .requeued:
            break
        }
    }

    private func noteChanged(_ node: IncrementalNode) {
        guard !node.awaitsNotification else { return }
        node.awaitsNotification = true
        changedObserved.append(node)
    }

    private func notify() {
        guard !changedObserved.isEmpty else { return }
        isNotifying = true
        defer { isNotifying = false }
        var index = 0
        while index < changedObserved.count {
            let node = changedObserved[index]
            node.awaitsNotification = false
            node.notifyObservers()
            index += 1
        }
        changedObserved.removeAll(keepingCapacity: true)
    }

    func enqueue(_ node: IncrementalNode) {
        if node.queuedHeight == nil { heap.insert(node) }
    }

    var isInsideRecomputation: Bool { isStabilizing }

    // MARK: Demand

    /// Adds one unit of demand to `root`; a node that becomes necessary connects to its
    /// inputs (which become necessary in turn), takes its height, and recomputes if stale.
    func connect(_ root: IncrementalNode) {
        root.demand += 1
        guard root.demand == 1 else { return }
        var stack: [(node: IncrementalNode, inputs: [IncrementalNode], next: Int)] = [(root, root.inputs, 0)]
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].inputs.count {
                let input = stack[top].inputs[stack[top].next]
                stack[top].next += 1
                input.demand += 1
                if input.demand == 1 { stack.append((input, input.inputs, 0)) }
                continue
            }
            let (node, inputs, _) = stack.removeLast()
            var height = 0
            for input in inputs {
                input.dependents.append(node)
                height = max(height, input.height + 1)
            }
            node.height = height
            if node.isStale { finish(node, node.recompute(), propagating: false) }
        }
    }

    /// Removes one unit of demand from `root`; a node that is no longer needed drops its
    /// edges to its inputs, which may then stop being needed too.
    func disconnect(_ root: IncrementalNode) {
        var stack = [root]
        while let node = stack.popLast() {
            node.demand -= 1
            guard node.demand == 0 else { continue }
            for input in node.inputs {
                if let index = input.dependents.firstIndex(where: { $0 === node }) {
                    input.dependents.remove(at: index)
                }
                stack.append(input)
            }
            node.didBecomeUnnecessary()
        }
    }

    /// Brings an unobserved node up to date by recomputing it and its unobserved inputs as
    /// needed, without connecting anything.
    func pull(_ root: IncrementalNode) {
        var stack: [(node: IncrementalNode, inputs: [IncrementalNode], next: Int)] = [(root, root.inputs, 0)]
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].inputs.count {
                let input = stack[top].inputs[stack[top].next]
                stack[top].next += 1
                if !input.isNecessary { stack.append((input, input.inputs, 0)) }
                continue
            }
            let (node, _, _) = stack.removeLast()
            if node.isStale { finish(node, node.recompute(), propagating: false) }
        }
    }

    /// Raises `start` to at least `height`, and its dependents above it, so that every node
    /// stays above its inputs.
    ///
    /// - Precondition: The graph has no cycle through `start`.
    func raise(_ start: IncrementalNode, to height: Int) {
        guard start.height < height else { return }
        start.height = height
        start.isRaising = true
        var path: [(node: IncrementalNode, next: Int)] = [(start, 0)]
        while !path.isEmpty {
            let top = path.count - 1
            let node = path[top].node
            guard path[top].next < node.dependents.count else {
                node.isRaising = false
                path.removeLast()
                continue
            }
            let dependent = node.dependents[path[top].next]
            path[top].next += 1
            precondition(
                !dependent.isRaising,
                "Incremental: a cycle: a flatMap made a node depend on its own value; no node may read itself, directly or through others"
            )
            if dependent.height <= node.height {
                dependent.height = node.height + 1
                dependent.isRaising = true
                path.append((dependent, 0))
            }
        }
    }
}

extension Graph {
    /// Counts of the work a graph has done.
    public struct Statistics: Equatable, Sendable {
        /// How many propagations ran.
        public var propagations = 0
        /// How many node recomputations ran, in all.
        public var recomputations = 0
        /// How many node recomputations the last propagation ran.
        public var lastRecomputations = 0
    }
}
