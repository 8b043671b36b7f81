/// A node of an incremental graph, whatever the type of its value.
///
/// ``I`` is the typed node you work with; `IncrementalNode` carries what the graph needs
/// to schedule it: its height, who depends on it, and whether anything needs it.
public class IncrementalNode {
    /// The graph the node belongs to.
    public let graph: Graph

    // The bookkeeping below is `@exclusivity(unchecked)`: the graph is single-threaded and
    // never holds an access to these properties across a call that could reach them again,
    // and the dynamic checks cost about a quarter of a node's recomputation.

    /// The node's height: 0 for inputs and constants, one more than its highest input
    /// otherwise. Recomputation runs in increasing height, so a node recomputes only after
    /// all of its inputs are current. Meaningful while the node is observed.
    @exclusivity(unchecked) public internal(set) var height = 0

    /// How many observers and necessary dependents need this node. A node is computed and
    /// connected to its inputs only while this is above zero.
    @exclusivity(unchecked) var demand = 0
    /// The necessary nodes that read this node.
    @exclusivity(unchecked) var dependents: [IncrementalNode] = []
    /// The graph's clock when this node's value last changed.
    @exclusivity(unchecked) var changedAt = -1
    /// The graph's clock when this node was last recomputed.
    @exclusivity(unchecked) var recomputedAt = -1
    /// The height of the bucket the node is queued in, or `nil` when it is not queued.
    @exclusivity(unchecked) var queuedHeight: Int?
    /// Set while a height raise passes through this node, to detect cycles.
    @exclusivity(unchecked) var isRaising = false
    /// Set while the node waits in the graph's list of observed nodes that changed.
    @exclusivity(unchecked) var awaitsNotification = false

    init(graph: Graph) {
        self.graph = graph
        graph.nodeCount += 1
    }

    deinit {
        graph.nodeCount -= 1
    }

    /// Whether an observer, directly or through other nodes, needs this node.
    public var isNecessary: Bool { demand > 0 }

    /// The nodes this node reads now. Overridden by every kind of node.
    var inputs: [IncrementalNode] { [] }

    /// Recomputes the value from the inputs; returns whether it changed (after the cutoff).
    /// Overridden by every kind of derived node.
    func recompute() -> RecomputeResult { .unchanged }

    /// Whether the node has observers to notify.
    var hasObservers: Bool { false }

    /// Notifies the node's observers of its current value.
    func notifyObservers() {}

    /// Whether an input changed since this node last recomputed.
    var isStale: Bool {
        if recomputedAt < 0 { return true }
        for input in inputs where input.changedAt > recomputedAt { return true }
        return false
    }

    /// Called when the node stops being necessary, so it can let go of what it holds for
    /// its current inputs (a bind node, its right-hand side).
    func didBecomeUnnecessary() {}
}

/// What a recomputation did.
enum RecomputeResult {
    /// The value changed (the cutoff let it through).
    case changed
    /// The value stayed, or the cutoff judged the new one equal.
    case unchanged
    /// The node's height was raised and it was queued again; it recomputes later in the same
    /// propagation.
    case requeued
}
