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
/// of propagation, demand, cutoff, errors and reentrancy.
public final class Graph {
    // Unchecked: counted on every node's creation and release; see the engine's state below.
    /// How many nodes of this graph exist (referenced by anything).
    @exclusivity(unchecked) public internal(set) var nodeCount = 0

    /// Counts of the work the graph has done, for tests, benchmarks and tuning.
    public var statistics: Statistics {
        var statistics = counters
        statistics.nodesAlive = nodeCount
        statistics.changes = versionClock
        return statistics
    }

    /// The counts ``statistics`` reports, kept as the work is done (the number of changes is
    /// the version clock itself).
    @exclusivity(unchecked) var counters = Statistics()

    // Read on every propagation; unchecked for the reason given below.
    /// How many propagations in a row observers (or closures) may start by writing inputs
    /// before the graph stops with a precondition failure: a feedback loop that never
    /// settles. 100 by default.
    @exclusivity(unchecked) public var feedbackLimit = 100

    // Unchecked exclusivity for the engine's state, for the reason given on
    // `IncrementalNode`'s bookkeeping.

    /// The source of fresh versions.
    @exclusivity(unchecked) var versionClock = 0
    /// Increases whenever a necessary node gains or loses a reader: a ``PushPlan`` built
    /// at another value is out of date.
    @exclusivity(unchecked) var structureVersion = 0
    /// Increases whenever an input changes: an unnecessary node checked in this epoch is
    /// current.
    @exclusivity(unchecked) var epoch = 0
    /// Increases at the end of each propagation: the edits collection inputs record before
    /// it belong to one change.
    @exclusivity(unchecked) private(set) var changeWindow = 0
    @exclusivity(unchecked) @usableFromInline var batchDepth = 0
    @exclusivity(unchecked) var isPropagating = false
    /// Set while an observer receives its first value outside a propagation.
    @exclusivity(unchecked) var isDelivering = false
    /// How many `recompute` calls are running: writes made then are deferred.
    @exclusivity(unchecked) var recomputeDepth = 0
    /// Observed nodes that a change reached, in the order reached, to bring up to date and
    /// notify. Not retained: a node is queued only while observed, so its observers hold it;
    /// one that loses its last observer while listed is held in `keptAlive` instead.
    @exclusivity(unchecked) var queue = RawList<Unmanaged<IncrementalNode>>()
    /// The queue of the round under way (not retained, as `queue`).
    @exclusivity(unchecked) var roundQueue = RawList<Unmanaged<IncrementalNode>>()
    /// Nodes that lost their last observer while the queues listed nodes: retained by hand
    /// until the propagation ends, so that no list, and no delivery under way (a node's
    /// observers are told while the round's queue lists it), refers to a freed node.
    @exclusivity(unchecked) var keptAlive = RawList<Unmanaged<IncrementalNode>>()
    /// Writes made by `map` or `flatMap` closures, applied after the computation.
    @exclusivity(unchecked) private var deferredWrites: [() -> Void] = []
    /// Inputs holding the value their readers last saw, to forget at the end of a propagation.
    /// Each is retained by hand while listed.
    @exclusivity(unchecked) var inputsWithBase = RawList<Unmanaged<IncrementalNode>>()
    /// The stack of `refresh` (see Refresh.swift).
    @exclusivity(unchecked) var frames = RawList<Frame>()
    /// The nodes writes marked pending since the round began, in the order marked: a round
    /// brings them up to date in that order before its observed nodes, so that each finds
    /// its inputs current and makes none current itself (a chain is then recomputed from
    /// the bottom, without walking down it first). Not retained; see `hintsAreStale`.
    @exclusivity(unchecked) var pushOrder = RawList<Unmanaged<IncrementalNode>>()
    /// The list of the round under way, taken from `pushOrder`.
    @exclusivity(unchecked) private var roundOrder = RawList<Unmanaged<IncrementalNode>>()
    /// Set when a node stopped being necessary (and so may have been freed) since the round
    /// began: the lists above are not used then.
    @exclusivity(unchecked) var hintsAreStale = false
    /// Set when a write reached a `flatMap` since the round began: the round then only pulls
    /// from its observed nodes, so that a node the `flatMap` stops reading is not computed.
    @exclusivity(unchecked) var pushReachedDynamic = false
    /// The plan of a write whose marking is put off until the round walks it, or until
    /// something needs the marks (see PushPlan.swift). Not retained: the input owns it, and
    /// the input's readers hold the input until they are unlinked, which marks the plan and
    /// clears this first.
    @exclusivity(unchecked) var deferredPush: Unmanaged<PushPlan>?
    /// While the round walks `deferredPush`: the position of the first node it has not
    /// reached; -1 otherwise.
    @exclusivity(unchecked) var fusedIndex = -1
    /// The stack `activate` and `deactivate` walk with.
    @exclusivity(unchecked) var demandStack = RawList<Unmanaged<IncrementalNode>>()
    /// The node a recomputation asked to bring up to date first (`Step.needs`).
    @exclusivity(unchecked) var needed: Unmanaged<IncrementalNode>?
    /// The `flatMap` whose transform is running: nodes made now belong to it.
    /// Unretained: the `flatMap` is alive while its transform runs.
    @exclusivity(unchecked) var currentScope: Unmanaged<IncrementalNode>?
    /// Nodes whose last reference went while the graph frees others; see `releaseLater`.
    @exclusivity(unchecked) private var graveyard = RawList<Unmanaged<IncrementalNode>>()
    /// Closures that freed nodes let go of (a `map`'s transform, a `flatMap`'s), released by
    /// the same loop as `graveyard`: a closure may capture nodes, whose own closures capture
    /// more (a chain of `flatMap`s each returning the previous one), and releasing them in
    /// the nodes' deinits would recurse once per link.
    @exclusivity(unchecked) private var closureGraveyard: [Any] = []
    @exclusivity(unchecked) var isReleasing = false
    /// The nodes' ``IncrementalNode/debugName``s.
    @exclusivity(unchecked) var debugNames: [ObjectIdentifier: String] = [:]
    /// The cleanups that observers registered in their last runs, under their records'
    /// addresses (see ``ObserverRecord/hasCleanups``).
    @exclusivity(unchecked) private(set) var observerCleanups: [UnsafeRawPointer: [() -> Void]] = [:]
    /// The push plans of the nodes that have one (``IncrementalNode/pushPlan``).
    @exclusivity(unchecked) private(set) var pushPlans: [ObjectIdentifier: PushPlan] = [:]
    /// The node whose plan was asked for last, and that plan: the next write is most often
    /// to the same input.
    @exclusivity(unchecked) private(set) var lastPlanned: (node: ObjectIdentifier, plan: Unmanaged<PushPlan>)?
    /// The memory of the nodes' blocks; freed with the graph, which every node holds.
    @exclusivity(unchecked) var blocks = BlockArena()
    /// Counts observer deliveries, to tell a propagation that did work.
    @exclusivity(unchecked) var deliveries = 0
    /// Where `onCleanup` puts cleanups while an observer runs; the observer takes those
    /// registered during its run when it returns.
    @exclusivity(unchecked) var cleanups: [() -> Void] = []
    /// How many observers are running (nested when one reads or writes).
    @exclusivity(unchecked) var observerDepth = 0
    /// The computed value or effect whose run is recording the nodes it reads (see
    /// Tracking.swift); nil outside such a run, and while a read it made brings a node up to
    /// date.
    @exclusivity(unchecked) var tracker: Unmanaged<IncrementalNode>?
    /// Where the next read of `tracker`'s run goes among its edges.
    @exclusivity(unchecked) var trackCursor = 0
    /// Disposed effects whose edges wait to be dropped until no pull walk stands on them
    /// (see ``trimWhenOffStack(_:)``); held, so that they live until then.
    @exclusivity(unchecked) var deferredTrims: [IncrementalNode] = []
    /// What effects and effect scopes made now belong to: the running effect's, the scope
    /// whose `run` is under way, or nil for the graph's own (``rootOwnership``).
    @exclusivity(unchecked) var currentOwnership: EffectOwnership?
    /// The effects and scopes made outside any effect or scope: they live until disposed.
    @exclusivity(unchecked) var rootOwnership = EffectOwnership()

    #if INCREMENTAL_INTERNAL_CHECKS
        /// Every node of the graph that exists: registered by each node's initializer and
        /// removed by its deinit, for the invariant checks (Invariants.swift) alone.
        @exclusivity(unchecked) var _liveNodes: [ObjectIdentifier: Unmanaged<IncrementalNode>] = [:]
        /// Calls to `checkInvariantsAfterOperation` since the last check.
        @exclusivity(unchecked) var _checksSkipped = 0
    #endif

    /// Creates an empty graph.
    public init() {}

    deinit {
        frames.deallocate()
        graveyard.deallocate()
        queue.deallocate()
        roundQueue.deallocate()
        keptAlive.deallocate()
        pushOrder.deallocate()
        roundOrder.deallocate()
        demandStack.deallocate()
        inputsWithBase.deallocate()
        blocks.deallocateAll()
    }

    /// A new input holding `value`.
    public func input<Value>(_ value: Value) -> Input<Value> {
        Input(graph: self, value: value)
    }

    /// A new input holding `value`, compared with `==` by code specialized for its type.
    public func input<Value: Equatable>(_ value: Value) -> Input<Value> {
        let input = Input(graph: self, value: value)
        input.useEquatableCutoff()
        return input
    }

    /// A node that always holds `value`.
    public func constant<Value>(_ value: Value) -> I<Value> {
        ConstantNode(graph: self, value: value)
    }

    /// Runs `body`, then brings the graph up to date once for all the writes it made.
    ///
    /// Observers see the result of all the writes together, never an intermediate state;
    /// writes that leave an input as its readers last saw it change nothing. Batches nest;
    /// the outermost one propagates. If `body` throws, the writes it made before throwing
    /// still propagate, then the error is rethrown.
    @inlinable
    public func batch<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { propagate() }
        }
        return try body()
    }

    /// Opens a batch that ``endBatch()`` closes: ``batch(_:)`` for callers whose batch spans
    /// calls (a bridge holding the graph's propagation while another paradigm's transaction
    /// is open).
    func beginBatch() {
        batchDepth += 1
    }

    /// Closes the batch ``beginBatch()`` opened; the outermost propagates. Its callers are
    /// the delta targets, which `drive(_:)` calls in pairs, each end after its begin.
    func endBatch() {
        batchDepth -= 1
        if batchDepth == 0 { propagate() }
    }

    /// Registers `cleanup` to run before the running observer runs again, and when it is
    /// disconnected.
    ///
    /// ```swift
    /// let connection = query.observe { text in
    ///     let request = search(text)
    ///     graph.onCleanup { request.cancel() }
    /// }
    /// ```
    ///
    /// - Precondition: Called from inside an observer (a closure given to `observe`).
    public func onCleanup(_ cleanup: @escaping () -> Void) {
        precondition(
            observerDepth > 0,
            "Incremental: onCleanup was called outside an observer or effect; call it from inside a closure given to observe or effect"
        )
        cleanups.append(cleanup)
    }

    // MARK: Writes

    /// Whether a write now must wait: a `map` or `flatMap` closure is running.
    @usableFromInline var mustDeferWrites: Bool { recomputeDepth > 0 }

    /// Runs `apply` (which changes inputs through ``inputChanged(_:)``) now and propagates,
    /// or, from inside a closure, after the computation under way.
    func write(_ apply: @escaping () -> Void) {
        if mustDeferWrites {
            deferredWrites.append(apply)
        } else {
            apply()
            propagate()
        }
    }

    /// Queues a write made from inside a closure.
    func deferWrite(_ apply: @escaping () -> Void) {
        deferredWrites.append(apply)
    }

    /// Applies the writes closures made, in the order made (each may queue more).
    private func applyDeferredWrites() {
        guard !deferredWrites.isEmpty else { return }
        let writes = deferredWrites
        deferredWrites = []
        for apply in writes { apply() }
    }

    /// Records that `input`'s value changed: a new version unless `version` is given (the
    /// version its readers saw of an equal value), and every necessary node above it
    /// marked pending.
    @usableFromInline
    func inputChanged(_ input: IncrementalNode, version: Int? = nil) {
        epoch += 1
        if let version {
            input.version = version
        } else {
            versionClock += 1
            input.version = versionClock
        }
        if input.observerCount > 0 { enqueue(input) }
        guard !input.subs.isEmpty else { return }
        // Asked once per write: the plan is built at the second write with the same links.
        let plan = currentPlan(of: input)
        if let plan, deferredPush == nil, pushOrder.isEmpty, fusedIndex < 0,
            !plan._withUnsafeGuaranteedRef({ $0.hasDynamic })
        {
            deferredPush = plan
            return
        }
        flushDeferredPush()
        push(from: input, plan: plan?.takeUnretainedValue())
    }

    /// Marks every necessary node that reads `start`, directly or not, pending, and queues
    /// the observed ones: in the order of `plan`, the input's current plan, if it has one.
    func push(from start: IncrementalNode, plan: PushPlan?) {
        // A plan marks nodes without the edges that reach them, which expert nodes keep.
        if let plan, !plan.hasExpert {
            for reader in plan.order { markPending(reader, recordingOrder: true) }
            return
        }
        // Breadth first, with the push order as the queue of nodes to visit: nodes are marked
        // (and so later brought up to date, and their observers told) level by level, which,
        // in a graph built level by level, is the order they sit in memory.
        var next = pushOrder.count
        markReaders(of: start)
        while next < pushOrder.count {
            let node = pushOrder[next]
            next += 1
            node._withUnsafeGuaranteedRef { markReaders(of: $0) }
        }
    }

    /// Marks the readers of `node` pending, queues the observed ones, and adds them to the
    /// push order.
    @inline(__always)
    private func markReaders(of node: IncrementalNode) {
        for index in 0..<node.subs.count {
            let reader = node.subs[index].ref
            let marked = reader._withUnsafeGuaranteedRef { reader -> Bool in
                if reader.flags & (Flags.pending | Flags.expert) != 0 {
                    if reader.flags & Flags.expert != 0 { reader.noteMarkedEdge(node.subs[index].edge) }
                    if reader.flags & Flags.pending != 0 { return false }
                }
                reader.flags |= Flags.pending
                if reader.flags & Flags.dynamic != 0 { pushReachedDynamic = true }
                if reader.observerCount > 0 { enqueue(reader) }
                return true
            }
            if marked { pushOrder.append(reader) }
        }
    }

    /// Queues `node`, observed, to be brought up to date and notified in the next round.
    @inline(__always)
    func enqueue(_ node: IncrementalNode) {
        guard node.flags & Flags.queued == 0 else { return }
        node.flags |= Flags.queued
        queue.append(Unmanaged.passUnretained(node))
    }

    /// ``enqueue(_:)`` out of line, for the loop of a plan's walk: inlined there, it made the
    /// loop's body too large to inline, and a deep chain's propagation 15% slower.
    @inline(never)
    func enqueueOutOfLine(_ node: IncrementalNode) {
        enqueue(node)
    }

    // MARK: Propagation

    /// Brings every queued observed node up to date and notifies its observers, then does
    /// the same for what observers and closures wrote, until nothing is left. Does nothing
    /// inside a batch or while already propagating.
    @usableFromInline
    func propagate() {
        guard batchDepth == 0, !isPropagating, !isDelivering else { return checkInvariantsAfterOperation() }
        if queue.isEmpty && deferredWrites.isEmpty && deferredPush == nil {
            endWindow()
            pushOrder.removeAll()
            hintsAreStale = false
            pushReachedDynamic = false
            releaseKeptAlive()
            checkInvariantsAfterOperation()
            return
        }
        isPropagating = true
        defer { isPropagating = false }
        var rounds = 0
        while !queue.isEmpty || !deferredWrites.isEmpty || deferredPush != nil {
            rounds += 1
            precondition(
                rounds <= feedbackLimit,
                "Incremental: observers kept writing inputs for \(feedbackLimit) propagations in a row without settling (a feedback loop); make the writes converge, or raise Graph.feedbackLimit"
            )
            if !queue.isEmpty || deferredPush != nil { propagateRound() }
            checkInvariantsAfterOperation()
            applyDeferredWrites()
        }
        // An observer's write to an input that nothing reads queues no round, so no round
        // forgets its base: forget it now. The graph holds such an input until then, and the
        // input holds the graph.
        if !inputsWithBase.isEmpty { forgetBases() }
        releaseKeptAlive()
        isPropagating = false
        checkInvariantsAfterOperation()
    }

    /// Lets go of the nodes held while the queues listed them (see `keptAlive`); the queues
    /// are empty now.
    @inline(__always)
    private func releaseKeptAlive() {
        guard !keptAlive.isEmpty else { return }
        var nodes = RawList<Unmanaged<IncrementalNode>>()
        swap(&nodes, &keptAlive)
        for node in nodes { graveyard.append(node) }
        nodes.deallocate()
        drainGraveyard()
    }

    /// Called when `node` lost its last observer: holds it if a queue may list it.
    func keepAliveIfListed(_ node: IncrementalNode) {
        guard !queue.isEmpty || !roundQueue.isEmpty else { return }
        keptAlive.append(Unmanaged.passRetained(node))
    }

    /// One propagation: bring the queued nodes up to date, then notify.
    private func propagateRound() {
        let recomputedBefore = counters.recomputations
        let deliveredBefore = deliveries
        if deferredPush != nil {
            // A single write with a plan: nothing was marked, and the walk queues the
            // observed nodes that change. Only if the links changed since the write (a node
            // stopped being necessary) do the marks come first, for the pull below.
            if hintsAreStale { flushDeferredPush() } else { walkDeferredPlan() }
        }
        swap(&queue, &roundQueue)
        swap(&pushOrder, &roundOrder)
        let useOrder = !hintsAreStale && !pushReachedDynamic
        hintsAreStale = false
        pushReachedDynamic = false
        if useOrder && !roundOrder.isEmpty {
            refreshInOrder(roundOrder)
        }
        roundOrder.removeAll()
        // The order brought every queued node up to date (each was marked, so listed, or
        // is an input) unless a node stopped being necessary meanwhile: then the queue is
        // walked, so that every observed node is current before any observer runs. Skipping
        // the walk spares a pass over the queued nodes, which a large graph pays in cache
        // misses; the notification loop below still refreshes a node that is not current.
        if !useOrder || hintsAreStale {
            for node in roundQueue {
                node._withUnsafeGuaranteedRef { if $0.observerCount > 0 { refresh($0) } }
            }
        }
        let recomputed = counters.recomputations - recomputedBefore
        endWindow()
        // Observers run now. One that writes an input marks what it reaches pending and
        // queues it for the next round; a node it reaches that is still to be notified in
        // this round is brought up to date again first, so every observer sees current
        // values.
        for node in roundQueue {
            node._withUnsafeGuaranteedRef { node in
                node.flags &= ~Flags.queued
                guard node.observerCount > 0 else { return }
                if !isCurrent(node) { refresh(node) }
                node.notifyObservers()
            }
        }
        roundQueue.removeAll()
        // A round that recomputed nothing and told nobody (the writes were undone, or a
        // cutoff stopped them at once) did no work, and is not counted.
        if recomputed > 0 || deliveries != deliveredBefore {
            counters.propagations += 1
            counters.lastRecomputations = recomputed
        }
    }

    /// Ends a change: collection inputs start a new record of edits, inputs forget the value
    /// their readers saw.
    private func endWindow() {
        changeWindow += 1
        forgetBases()
    }

    /// Inputs forget the value their readers saw, and the graph lets go of them.
    private func forgetBases() {
        guard !inputsWithBase.isEmpty else { return }
        for input in inputsWithBase { input._withUnsafeGuaranteedRef { $0.forgetBase() } }
        for input in inputsWithBase { input.release() }
        inputsWithBase.removeAll()
    }

    /// Runs `deliver` (an observer's first delivery) so that the writes it makes propagate
    /// when it returns, not inside it.
    func deliveringOutsidePropagation(_ deliver: () -> Void) {
        if isPropagating || isDelivering {
            deliver()
            return
        }
        isDelivering = true
        deliver()
        isDelivering = false
        propagate()
    }

    /// Brings `node` up to date now, then, if nothing else will, applies what closures wrote
    /// meanwhile and tells the observers of what the read changed: a `flatMap` that picked
    /// again invalidated the nodes its last run made, and theirs are told at once (waiting
    /// for the next propagation also kept those nodes, and so the graph, held meanwhile).
    ///
    /// `propagating` false leaves that to the caller: ``I/observe(_:)`` propagates after its
    /// first delivery, so that the new observer is not told the same value twice.
    func read(_ node: IncrementalNode, propagating: Bool = true) {
        flushDeferredPush()
        if !node.isCurrent { refresh(node) }
        if propagating, !deferredWrites.isEmpty || !queue.isEmpty || deferredPush != nil, recomputeDepth == 0,
            frames.isEmpty, !isPropagating
        {
            applyDeferredWrites()
            propagate()
        } else if propagating {
            checkInvariantsAfterOperation()
        }
    }

    // MARK: Releasing

    /// Releases the nodes of `edges` (retained by hand when the edges were made) without
    /// recursing: a node freed now hands its own edges back here instead of releasing them.
    func releaseLater(_ edges: RawList<Edge>) {
        for edge in edges { graveyard.append(edge.ref) }
        drainGraveyard()
    }

    /// Releases `node` (retained by hand) without recursing.
    func releaseLater(_ node: IncrementalNode) {
        graveyard.append(Unmanaged.passUnretained(node))
        drainGraveyard()
    }

    /// Releases the node `ref` names (retained by hand) without recursing, and without a
    /// strong reference in between.
    func releaseLater(_ ref: Unmanaged<IncrementalNode>) {
        graveyard.append(ref)
        drainGraveyard()
    }

    /// Takes `closure` from a node whose deinit is running, to release it after that deinit,
    /// without recursing. The node must let go of its own reference right after this call
    /// (see ``IncrementalNode/deinit``, which then releases what the graph took).
    func releaseAfterDeinit(_ closure: Any) {
        closureGraveyard.append(closure)
    }

    /// Releases what `releaseLater` and `releaseAfterDeinit` took, unless a release is
    /// already under way (which then releases it: one loop, no recursion).
    func drainGraveyard() {
        guard !isReleasing else { return }
        isReleasing = true
        withExtendedLifetime(self) {
            while true {
                if !graveyard.isEmpty {
                    graveyard.removeLast().release()
                } else if !closureGraveyard.isEmpty {
                    // Released at the end of this statement, inside the loop: nodes it frees
                    // hand their edges and closures back to the lists above.
                    _ = closureGraveyard.removeLast()
                } else {
                    break
                }
            }
        }
        isReleasing = false
    }
}

extension Graph {
    /// Counts of the work a graph has done.
    public struct Statistics: Equatable, Sendable {
        /// How many propagations ran: each brings observed nodes up to date after writes and
        /// notifies their observers. One that recomputed nothing and notified nobody (its
        /// writes were undone) is not counted.
        public var propagations = 0
        /// How many node recomputations ran, in all (in propagations and in reads).
        public var recomputations = 0
        /// How many node recomputations the last propagation ran.
        public var lastRecomputations = 0
        /// How many nodes were made, in all.
        public var nodesCreated = 0
        /// How many nodes exist now (``Graph/nodeCount``).
        public var nodesAlive = 0
        /// How many times a node took a new value: an input written with a value its readers
        /// had not seen (a write its batch later undid counts too), a recomputation that
        /// passed its cutoff, an invalidation.
        public var changes = 0
        /// How many nodes were invalidated (made in a `flatMap` whose left-hand side changed).
        public var invalidations = 0
        /// How many times a node became necessary (an observer, or a necessary reader, came).
        public var becameNecessary = 0
        /// How many times a node stopped being necessary.
        public var becameUnnecessary = 0
        /// How many effects ran (``Graph/effect(_:)``), first runs included.
        public var effectRuns = 0
    }
}

// MARK: - What nodes change in the graph's state

// Nodes change the graph's state only through these methods and the graph's own operations
// (Graph.swift, Refresh.swift, PushPlan.swift): no node writes a field of the graph itself,
// so each rule the fields keep (Documentation/Internals/Incremental.md) is kept here, in the
// graph's files. `LayoutTests` checks that no other file of the module writes them.
extension Graph {
    /// A node was made: counted, and adopted by the `flatMap` whose transform is running, if
    /// any (a node made there belongs to it).
    @inline(__always)
    func nodeCreated(_ node: IncrementalNode) {
        nodeCount += 1
        counters.nodesCreated += 1
        if let scope = currentScope { scope._withUnsafeGuaranteedRef { $0.adopt(node) } }
        #if INCREMENTAL_INTERNAL_CHECKS
            _liveNodes[ObjectIdentifier(node)] = Unmanaged.passUnretained(node)
        #endif
    }

    /// A node is being freed: no longer counted, and its name, if it had one, forgotten.
    @inline(__always)
    func nodeFreed(_ node: IncrementalNode, named: Bool, planned: Bool) {
        nodeCount -= 1
        #if INCREMENTAL_INTERNAL_CHECKS
            _liveNodes[ObjectIdentifier(node)] = nil
        #endif
        if named { debugNames[ObjectIdentifier(node)] = nil }
        if planned { setPushPlan(nil, of: node) }
    }

    /// Names `node` for ``dot(_:)``, or forgets its name.
    func setDebugName(_ name: String?, of node: IncrementalNode) {
        debugNames[ObjectIdentifier(node)] = name
    }

    /// Adds `cleanups` to those kept for the observer record at `record`.
    func keepCleanups(_ cleanups: [() -> Void], of record: UnsafeRawPointer) {
        observerCleanups[record, default: []] += cleanups
    }

    /// Takes the cleanups kept for the observer record at `record` (none if there are none).
    func takeCleanups(of record: UnsafeRawPointer) -> [() -> Void] {
        observerCleanups.removeValue(forKey: record) ?? []
    }

    /// `node`'s plan, which it has (``Flags/hasPushPlan``), unretained.
    @inline(__always)
    func pushPlan(of node: IncrementalNode) -> Unmanaged<PushPlan>? {
        let id = ObjectIdentifier(node)
        if let lastPlanned, lastPlanned.node == id { return lastPlanned.plan }
        return pushPlanLookedUp(id)
    }

    @inline(never)
    private func pushPlanLookedUp(_ id: ObjectIdentifier) -> Unmanaged<PushPlan>? {
        guard let plan = pushPlans[id] else { return nil }
        let unmanaged = Unmanaged.passUnretained(plan)
        lastPlanned = (id, unmanaged)
        return unmanaged
    }

    /// Gives `node` `plan` (nil: none); the node keeps its flag.
    func setPushPlan(_ plan: PushPlan?, of node: IncrementalNode) {
        let id = ObjectIdentifier(node)
        if lastPlanned?.node == id { lastPlanned = nil }
        pushPlans[id] = plan
    }

    /// Memory for a node's block or an observer's record, from the graph's arena.
    @inline(__always)
    func allocateBlock(size: Int, sizeClass: UInt8) -> UnsafeMutableRawPointer {
        blocks.allocate(size: size, sizeClass: sizeClass)
    }

    /// Gives memory from ``allocateBlock(size:sizeClass:)`` back to the arena.
    @inline(__always)
    func deallocateBlock(_ block: UnsafeMutableRawPointer, sizeClass: UInt8) {
        blocks.deallocate(block, sizeClass: sizeClass)
    }

    /// A recomputation returns `.needs`: `node` is to be brought up to date first.
    @inline(__always)
    func recomputeNeeds(_ node: IncrementalNode) {
        needed = Unmanaged.passUnretained(node)
    }

    /// ``recomputeNeeds(_:)`` for a node named by an unretained reference.
    @inline(__always)
    func recomputeNeeds(_ node: Unmanaged<IncrementalNode>) {
        needed = node
    }

    /// Runs `body` (a `flatMap`'s transform) with `scope` adopting the nodes made meanwhile.
    @inline(__always)
    func withScope<Result>(_ scope: IncrementalNode, _ body: () throws -> Result) rethrows -> Result {
        let outer = currentScope
        currentScope = Unmanaged.passUnretained(scope)
        defer { currentScope = outer }
        return try body()
    }

    /// Runs `body` with `scope` (a `flatMap`, or nil for none) adopting the nodes made
    /// meanwhile: a memoized function runs in the scope it was made in.
    func withScope<Result>(restoring scope: IncrementalNode?, _ body: () throws -> Result) rethrows -> Result {
        let outer = currentScope
        currentScope = scope.map { Unmanaged.passUnretained($0) }
        defer { currentScope = outer }
        return try body()
    }

    /// The `flatMap` whose transform is running, if any.
    var scopeNow: IncrementalNode? { currentScope?.takeUnretainedValue() }

    /// An observer is about to be told of a value (its old cleanups run first, and may
    /// disconnect it).
    @inline(__always)
    func countDelivery() {
        deliveries += 1
    }

    /// Marks `node` stale, as if an input of it changed: it recomputes when next needed, and
    /// every necessary node above it is pending (an expert node's `makeStale`). From inside a
    /// computation, applied after it, as writes are.
    func markStale(_ node: IncrementalNode) {
        if mustDeferWrites {
            deferWrite { [self] in markStale(node) }
            return
        }
        flushDeferredPush()
        epoch += 1
        node.checkedAt = -1
        if node.isNecessary && node.flags & Flags.pending == 0 {
            node.flags |= Flags.pending
            if node.flags & Flags.dynamic != 0 { pushReachedDynamic = true }
            if node.observerCount > 0 { enqueue(node) }
            pushOrder.append(Unmanaged.passUnretained(node))
            push(from: node, plan: nil)
        }
        propagate()
    }

    /// A node is being invalidated.
    func countInvalidation() {
        counters.invalidations += 1
    }

    /// An effect is about to run its body.
    func countEffectRun() {
        counters.effectRuns += 1
    }

    /// An observer is about to run: counts the observers running, and returns where the
    /// cleanups it registers will start.
    @inline(__always)
    func observerWillRun() -> Int {
        observerDepth += 1
        return cleanups.count
    }

    /// The observer that ``observerWillRun()`` announced has returned; returns the cleanups
    /// it registered (from `start`, what that call returned), taking them from the graph.
    @inline(__always)
    func observerDidRun(cleanupsFrom start: Int) -> [() -> Void]? {
        observerDepth -= 1
        guard cleanups.count > start else { return nil }
        return takeCleanups(from: start)
    }

    @inline(never)
    private func takeCleanups(from start: Int) -> [() -> Void] {
        let taken = Array(cleanups[start...])
        cleanups.removeSubrange(start...)
        return taken
    }

    /// `input`'s value was just moved into its base (its first change of this propagation):
    /// the graph keeps it, retained, until the propagation ends, and records the change.
    func inputMovedToBase(_ input: IncrementalNode) {
        inputsWithBase.append(Unmanaged.passUnretained(input).retain())
        inputChanged(input)
    }
}
