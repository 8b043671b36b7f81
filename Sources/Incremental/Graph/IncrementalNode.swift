#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A node of an incremental graph, whatever the type of its value.
///
/// ``I`` is the typed node you work with; `IncrementalNode` carries what the graph needs to
/// keep it current: the nodes it reads (in the order its last computation read them, with
/// the version of each it saw), the necessary nodes that read it, and its own version.
public class IncrementalNode {
    // The bookkeeping below is `@exclusivity(unchecked)`: a graph is used in one isolation
    // domain and never holds an access to these properties across a call that could reach
    // them again, and the dynamic checks cost about a quarter of a recomputation.
    //
    // The fields a propagation reads come first: those of every walk (edges, readers,
    // version, flags, observer count) in the 48 bytes after the object's header, then those
    // of a recomputation and a notification (the value's address, the error, the first
    // observer), so that all of them fit in two cache lines; a walk over many nodes is bound
    // by the memory it touches. The rest follow. A node is 120 bytes before its kind's
    // fields (an ``I``'s, then a map's kernel, in the third line), and a map node 184: what
    // few nodes need is kept by the graph (a name, a push plan) or in a flag (the kind of
    // cutoff), so that a map node is one `malloc` size class (192 bytes) smaller.

    /// The nodes this node read in its last computation, in reading order. Each edge holds
    /// its node strongly (a manual retain, released through the graph so that freeing a long
    /// chain never recurses).
    @exclusivity(unchecked) final var edges = RawList<Edge>()
    /// The necessary nodes that read this node, each with the index of its edge to it.
    /// Present only while the reader is necessary.
    @exclusivity(unchecked) final var subs = RawList<Sub>()
    /// Changes whenever the value changes (after the cutoff): a fresh number from the
    /// graph's version counter, or, for an input written back to the value its readers saw,
    /// the version they saw.
    @exclusivity(unchecked) final var version = 0
    /// ``Flags``.
    @exclusivity(unchecked) @usableFromInline final var flags: UInt32 = 0
    /// How many observers the node has.
    @exclusivity(unchecked) final var observerCount: Int32 = 0
    /// Where the node's value is stored (an ``I``'s slot), for nodes that read it without
    /// knowing its type.
    @usableFromInline final let valueAddress: UnsafeMutableRawPointer
    /// The error the node's computation failed with, if it did (its state instead of a value).
    /// `Flags.failed` mirrors whether there is one, for the engine's hot path.
    @exclusivity(unchecked) final var failure: (any Error)? {
        didSet {
            if failure == nil { flags &= ~Flags.failed } else { flags |= Flags.failed }
        }
    }
    /// The first of the node's observers, in the order they were added: a list of records in
    /// the graph's arena (see ``ObserverRecord``). Kept by ``I``.
    @exclusivity(unchecked) final var firstObserver: UnsafeMutablePointer<ObserverRecord>?
    /// For an unnecessary node: the graph's write epoch when the node was last known current.
    @exclusivity(unchecked) final var checkedAt = -1
    /// The graph the node belongs to.
    public let graph: Graph
    /// The node's one allocation besides the object: its first edges and readers, and its
    /// value unless the value needs more alignment than `malloc` gives (see ``NodeBlock``).
    final let block: UnsafeMutableRawPointer
    /// The size class of ``block`` in the graph's ``BlockArena`` (0: from `malloc`).
    final let blockClass: UInt8
    /// How many deliveries to the node's observers are under way (nested when an observer
    /// writes outside a propagation): a removed observer keeps its place in the chain until
    /// they end, so that a delivery loop can step past it. Kept by ``I``; here, in the
    /// padding after ``blockClass``, so that it costs no room.
    @exclusivity(unchecked) final var deliveryDepth: Int32 = 0

    /// For a node whose writes change it (an input): the order in which its writes mark
    /// the nodes above it pending, while the graph's links stay as they are (see
    /// ``PushPlan``).
    final var pushPlan: PushPlan? {
        get { unmanagedPushPlan()?.takeUnretainedValue() }
        set { setPushPlan(newValue) }
    }

    /// ``pushPlan``, unretained (asked on every write: a retain and a release per write
    /// were a few percent of a deep chain's propagation). The graph keeps the plans of the
    /// nodes that have one, so that no node has room for one, and remembers the last one
    /// asked for, so that writes to one input in a row cost no lookup.
    @inline(__always)
    final func unmanagedPushPlan() -> Unmanaged<PushPlan>? {
        guard flags & Flags.hasPushPlan != 0 else { return nil }
        return graph.pushPlan(of: self)
    }

    /// Sets ``pushPlan``.
    final func setPushPlan(_ plan: PushPlan?) {
        graph.setPushPlan(plan, of: self)
        if plan == nil { flags &= ~Flags.hasPushPlan } else { flags |= Flags.hasPushPlan }
    }

    /// A name shown by ``Graph/dot(_:)``, for debugging. Kept by the graph, so that nodes
    /// without one have no room for it.
    public var debugName: String? {
        get { flags & Flags.named == 0 ? nil : graph.debugNames[ObjectIdentifier(self)] }
        set {
            graph.setDebugName(newValue, of: self)
            if newValue == nil { flags &= ~Flags.named } else { flags |= Flags.named }
        }
    }

    /// `graph` unmanaged: the only reference counted is the node's own (a node's creation
    /// is on the hot path of building a graph).
    ///
    /// `first`, `second` and `third`, those given, are the node's first edges, in that order
    /// (at most the block's edge capacity), retained here. Made here, before the object is whole, they
    /// cost no retain of the node itself, which edges appended by the kind's initializer,
    /// after this one returns, do.
    init(
        graph: Unmanaged<Graph>, flags: UInt32, block: NodeBlock, first: Unmanaged<IncrementalNode>? = nil,
        second: Unmanaged<IncrementalNode>? = nil, third: Unmanaged<IncrementalNode>? = nil
    ) {
        self.graph = graph.takeUnretainedValue()
        self.flags = flags
        self.block = block.memory
        self.blockClass = block.sizeClass
        self.valueAddress = block.value
        var edges = RawList<Edge>(borrowing: block.memory + block.edgesOffset, capacity: block.edgeCapacity)
        if let first { edges.append(Edge(ref: first.retain(), seen: -1, slot: -1)) }
        if let second { edges.append(Edge(ref: second.retain(), seen: -1, slot: -1)) }
        if let third { edges.append(Edge(ref: third.retain(), seen: -1, slot: -1)) }
        self.edges = edges
        subs = RawList(borrowing: block.memory + block.subsOffset, capacity: NodeBlock.subCapacity)
        graph._withUnsafeGuaranteedRef { $0.nodeCreated(self) }
    }

    /// Runs after the deinits of the node's kind, which hand their closures to the graph
    /// (`releaseAfterDeinit`) and replace them with closures that capture nothing: the graph
    /// then holds the only reference to each, and releases them here, in its loop, with the
    /// nodes the edges held.
    deinit {
        // Through an unmanaged reference: the node holds the graph until its deinit ends.
        Unmanaged.passUnretained(graph)._withUnsafeGuaranteedRef { graph in
            graph.nodeFreed(self, named: flags & Flags.named != 0, planned: flags & Flags.hasPushPlan != 0)
            if !edges.isEmpty { graph.releaseLater(edges) }
            edges.deallocate()
            subs.deallocate()
            graph.deallocateBlock(block, sizeClass: blockClass)
            graph.drainGraveyard()
        }
    }

    /// Whether an observer, directly or through the nodes that read this one, needs it.
    /// Only necessary nodes are linked to their inputs and kept current by propagations.
    public final var isNecessary: Bool { observerCount > 0 || !subs.isEmpty }

    /// Whether the node was invalidated: made inside a `flatMap` whose left-hand side has
    /// since changed. An invalid node never computes again; it holds ``InvalidatedNode``.
    public final var isInvalid: Bool { flags & Flags.invalid != 0 }

    /// Whether reading the node now would compute nothing.
    final var isCurrent: Bool { graph.isCurrent(self) }

    /// The node's height: 0 for inputs and constants, one more than its highest input
    /// otherwise, as the nodes it read in its last computation stand now. Computed on
    /// demand (it walks the nodes below); for debugging and ``Graph/dot(_:)``.
    public var height: Int { graph.heights(from: [self])[ObjectIdentifier(self)] ?? 0 }

    /// Recomputes the value from the inputs, which are current. Overridden by every kind of
    /// derived node.
    func recompute() -> Step { .unchanged }

    // MARK: Expert nodes (overridden by `ExpertNode`)

    /// Called on an expert node when it stops being necessary.
    func didBecomeUnnecessary() {}

    /// Called on an expert node when it becomes necessary.
    func didBecomeNecessary() {}

    /// Called on an expert node when a push marks the node of edge `index` pending.
    func noteMarkedEdge(_ index: Int) {}

    /// How many edges the pull brings up to date before an expert node recomputes.
    var expertCheckCount: Int { edges.count }

    /// The edge the pull brings up to date at `position` (below ``expertCheckCount``).
    func expertCheckEdge(at position: Int) -> Int { position }

    /// For inputs: forgets the value the readers saw, at the end of a propagation.
    func forgetBase() {}

    /// Whether the node holds a value or an error yet.
    final var hasComputed: Bool { flags & (Flags.hasValue | Flags.failed) != 0 }

    /// Notifies the observers that have not seen the current version.
    func notifyObservers() {}

    /// The typed value as text, for ``Graph/dot(_:)``.
    var valueDescription: String { "" }

    #if INCREMENTAL_INTERNAL_CHECKS
        /// The last of the node's observers (kept by ``I``), for the invariant checks.
        var lastObserverForChecks: UnsafeMutablePointer<ObserverRecord>? { nil }

        /// How many of the node's observers have no record (an effect's node counts itself).
        var unlistedObserversForChecks: Int32 { 0 }

        /// Every observer record the node holds in the arena: those listed and those removed
        /// while a delivery was under way, for the invariant checks.
        func observerRecordsForChecks() -> [UnsafeMutablePointer<ObserverRecord>] { [] }
    #endif

    // MARK: Edges

    /// How many nodes this node reads (for kernels made in inlinable code).
    @usableFromInline final var edgeCount: Int { edges.count }

    /// Where the value of the node of edge `index` is stored (for kernels made in inlinable
    /// code, which know its type).
    @usableFromInline final func edgeValueAddress(at index: Int) -> UnsafeMutableRawPointer {
        edges[index].ref._withUnsafeGuaranteedRef { $0.valueAddress }
    }

    /// Adds an edge to `node`, as the `index`-th input read.
    @inline(__always)
    final func appendEdge(to node: borrowing IncrementalNode) {
        edges.append(Edge(ref: Unmanaged.passRetained(copy node), seen: -1, slot: -1))
    }

    /// Replaces the edge at `index` with one to `node`, linking and unlinking as the node's
    /// necessity requires. The old node is released through the graph.
    ///
    /// The new edge is linked before the old one is unlinked: if the new node reads the old
    /// one, the old one stays necessary throughout, and is never activated a second time
    /// while its own edges are still linked.
    final func replaceEdge(at index: Int, with node: IncrementalNode) {
        let ref = Unmanaged.passUnretained(node).retain()
        let old = edges[index]
        edges[index] = Edge(ref: ref, seen: -1, slot: -1)
        if isNecessary { graph.link(self, edge: index) }
        if old.slot >= 0 {
            old.ref._withUnsafeGuaranteedRef { oldNode in
                graph.removeSub(of: oldNode, at: old.slot)
                if !oldNode.isNecessary { graph.deactivate(oldNode) }
            }
        }
        graph.releaseLater(old.ref)
    }

    // MARK: Scopes

    /// Called on a `flatMap` node for each node made while its transform runs.
    func adopt(_ node: IncrementalNode) {}

    /// Called when the node is invalidated, before it lets go of its inputs: a `flatMap`
    /// invalidates the nodes its transform made.
    func willBeInvalidated() {}
}

// Edges, readers and stack frames refer to nodes by `Unmanaged` references, and the engine
// reads a node through `_withUnsafeGuaranteedRef`: a reference loaded from an `unowned(unsafe)`
// or `Unmanaged` value into a plain one is retained and released around its uses, which cost
// most of a recomputation.

/// The layout of a node's block: one piece of memory, from the graph's ``BlockArena``, for the
/// value (when 16-byte alignment suffices for it), room for the edges a node of its kind
/// makes when it is created, and room for its first two readers. Building a node then costs
/// the object and this block, not four allocations, and its bookkeeping sits together in
/// memory. Lists that outgrow their room move to memory of their own.
struct NodeBlock {
    /// How many readers the block has room for.
    static let subCapacity = 2

    let memory: UnsafeMutableRawPointer
    /// Where the value goes: in the block, or in a separate aligned allocation.
    let value: UnsafeMutableRawPointer
    let valueIsInline: Bool
    let edgeCapacity: Int
    let edgesOffset: Int
    let subsOffset: Int
    /// The block's size class in the arena.
    let sizeClass: UInt8

    /// A block for a value of `type` and `edgeCapacity` edges, from `graph`'s arena.
    @inline(__always)
    init<Value>(for type: Value.Type, edgeCapacity: Int, in graph: Unmanaged<Graph>) {
        valueIsInline = MemoryLayout<Value>.alignment <= 16
        let valueBytes = valueIsInline ? (MemoryLayout<Value>.stride + 15) & ~15 : 0
        self.edgeCapacity = edgeCapacity
        edgesOffset = valueBytes
        subsOffset = edgesOffset + edgeCapacity * MemoryLayout<Edge>.stride
        let size = subsOffset + Self.subCapacity * MemoryLayout<Sub>.stride
        let sizeClass = BlockArena.sizeClass(of: size)
        self.sizeClass = sizeClass
        let memory = graph._withUnsafeGuaranteedRef { $0.allocateBlock(size: size, sizeClass: sizeClass) }
        self.memory = memory
        value = valueIsInline ? memory : UnsafeMutableRawPointer(allocateSlot(of: Value.self))
    }
}

/// Memory for one value: an input's base, or a node's value too aligned for its ``NodeBlock``.
/// `malloc` where its alignment suffices (nearly always): the runtime's default-aligned
/// allocation, which `UnsafeMutablePointer.allocate` uses, costs twice as much on Linux.
func allocateSlot<Value>(of type: Value.Type) -> UnsafeMutablePointer<Value> {
    guard MemoryLayout<Value>.alignment <= 16 else { return .allocate(capacity: 1) }
    guard let memory = malloc(Swift.max(1, MemoryLayout<Value>.stride)) else {
        fatalError("Incremental: out of memory")
    }
    return memory.bindMemory(to: Value.self, capacity: 1)
}

/// Frees a slot made by ``allocateSlot(of:)``.
func deallocateSlot<Value>(_ slot: UnsafeMutablePointer<Value>) {
    if MemoryLayout<Value>.alignment <= 16 { free(slot) } else { slot.deallocate() }
}

/// An edge from a node to a node it reads.
struct Edge {
    /// The node read. Retained by hand when the edge is made; see ``IncrementalNode/edges``.
    let ref: Unmanaged<IncrementalNode>
    /// `node`'s version when this node last read it.
    var seen: Int
    /// The index of the matching ``Sub`` in `node.subs` while linked, -1 otherwise.
    var slot: Int

    /// The node read, as a plain reference (off the hot path).
    var node: IncrementalNode { ref.takeUnretainedValue() }
}

/// A necessary node that reads this one.
struct Sub {
    /// The reader. Not retained: a linked reader holds this node through its edge, and
    /// unlinks before it is freed.
    let ref: Unmanaged<IncrementalNode>
    /// The index of the reader's edge to this node.
    var edge: Int

    /// The reader, as a plain reference (off the hot path).
    var node: IncrementalNode { ref.takeUnretainedValue() }
}

/// The bits of ``IncrementalNode/flags``.
@usableFromInline
enum Flags {
    /// Necessary and maybe stale: an input below changed since it was last current.
    static let pending: UInt32 = 1
    /// Being brought up to date now (cycle detection).
    static let onStack: UInt32 = 2
    /// An input or constant: current by definition.
    static let source: UInt32 = 4
    /// Waiting in the graph's list of observed nodes to bring up to date and notify.
    static let queued: UInt32 = 8
    /// Made inside a `flatMap` whose left-hand side has since changed.
    static let invalid: UInt32 = 16
    /// Its last computation read a prefix of its edges before deciding the rest (a
    /// `flatMap`): only the first edge is refreshed before it recomputes.
    static let dynamic: UInt32 = 32
    /// An input that holds, in `base`, the value its readers last saw.
    @usableFromInline static let hasBase: UInt32 = 64
    /// The node holds an error (``IncrementalNode/failure``) instead of a value.
    @usableFromInline static let failed: UInt32 = 128
    /// The node's slot holds a value (``I/hasValue``).
    @usableFromInline static let hasValue: UInt32 = 256
    /// Reached by the walk that builds a ``PushPlan`` (cleared when it ends).
    static let visited: UInt32 = 512
    /// The node has a ``IncrementalNode/debugName``, kept by its graph.
    static let named: UInt32 = 1024
    /// An expert node (``ExpertNode``): it keeps the edges a push reached it through, and
    /// the pull brings only those up to date before it recomputes.
    static let expert: UInt32 = 2048
    /// The node's cutoff is its value type's own `==` (``I/cutsOffWithEquatable``).
    @usableFromInline static let equatableCutoff: UInt32 = 4096
    /// The graph keeps a ``PushPlan`` for the node (see ``IncrementalNode/pushPlan``).
    static let hasPushPlan: UInt32 = 8192
}

/// What a recomputation did.
enum Step {
    /// The value changed (the cutoff let it through), or an error replaced it.
    case changed
    /// The value stayed, or the cutoff judged the new one equal.
    case unchanged
    /// The node needs ``Graph/needed`` brought up to date first; it is called again then.
    case needs
}
