#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Auto-tracking: the graph's half of `computed` and `effect`.
///
/// A tracked node (a ``TrackedNode`` or an ``EffectNode``) does not name its inputs: its run
/// records them. While it runs, the graph's `tracker` is the node and `trackCursor` the index
/// of the next read among its edges. Each read of a node's value (``I/value``, ``I/get()``,
/// ``I/result``, an input's `value`) brings that node up to date with the tracker cleared, so
/// that closures run meanwhile record nothing into it, and then records it:
///
/// - the read matches the edge at the cursor (the usual case: the run reads what the last one
///   read, in the same order): only the version seen is updated;
/// - it repeats the read just before: the same;
/// - otherwise a new edge is inserted at the cursor, and linked if the node is necessary.
///
/// When the run ends, the edges past the cursor (what the last run read and this one did
/// not) are unlinked and released. So a branch not taken is not an input, and a node only it
/// read stops being necessary, and is freed once nothing else holds it.
///
/// A tracked node is `Flags.dynamic`: to bring it up to date, the pull walk looks at its
/// edges in order and recomputes at the first input that changed, without bringing the
/// later ones up to date first (the run may no longer read them).
extension Graph {
    /// Runs `body` as a run of `node` that records the nodes it reads; afterwards the
    /// edges it did not read again are dropped.
    @inline(__always)
    func tracking<Result>(_ node: IncrementalNode, _ body: () throws -> Result) rethrows -> Result {
        let outerTracker = tracker
        let outerCursor = trackCursor
        let outerThread = TrackingThread.graph
        setTracker(Unmanaged.passUnretained(node))
        trackCursor = 0
        defer {
            trimEdges(of: node, to: trackCursor)
            tracker = outerTracker
            TrackingThread.graph = outerThread
            trackCursor = outerCursor
        }
        return try body()
    }

    /// Runs `body` with no tracker: what it reads is no input of the run under way.
    @inline(__always)
    func withoutTracking<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard tracker != nil else { return try body() }
        let outerTracker = tracker
        let outerThread = TrackingThread.graph
        setTracker(nil)
        defer {
            tracker = outerTracker
            TrackingThread.graph = outerThread
        }
        return try body()
    }

    /// Makes `newTracker` the node recording reads, and tells the thread which graph is
    /// tracking (see ``TrackingThread``); the callers restore both as they found them.
    @inline(__always)
    private func setTracker(_ newTracker: Unmanaged<IncrementalNode>?) {
        tracker = newTracker
        TrackingThread.graph = newTracker == nil ? nil : Unmanaged.passUnretained(self).toOpaque()
    }

    /// Brings `node` up to date for a read of its value, and, inside a tracked run, records
    /// it as an input of that run.
    @inline(__always)
    func readValue(of node: IncrementalNode) {
        if tracker == nil {
            checkNoOtherGraphTracks()
            return read(node)
        }
        trackedRead(node)
    }

    /// Stops with a precondition failure if a computed value or effect of another graph is
    /// running on this thread and recording reads: it read a node of this graph, which it
    /// cannot depend on.
    @inline(__always)
    func checkNoOtherGraphTracks() {
        if let tracking = TrackingThread.graph, tracking != Unmanaged.passUnretained(self).toOpaque() {
            readFromAnotherGraph()
        }
    }

    @inline(never)
    private func readFromAnotherGraph() -> Never {
        preconditionFailure(
            "Incremental: a computed value or effect read a node of another graph; each graph propagates on its own")
    }

    /// A read inside a tracked run: `node` is brought up to date with no tracker (closures
    /// run meanwhile belong to their own nodes), then recorded.
    @inline(never)
    func trackedRead(_ node: IncrementalNode) {
        guard let reader = tracker else { return read(node) }
        precondition(
            node.flags & Flags.onStack == 0,
            "Incremental: a cycle: a computed value reads its own value, directly or through the values it reads")
        let outerThread = TrackingThread.graph
        setTracker(nil)
        read(node)
        tracker = reader
        TrackingThread.graph = outerThread
        reader._withUnsafeGuaranteedRef { record(node, by: $0) }
    }

    /// Records `node`, just read and current, as the next input of `reader`'s run.
    private func record(_ node: IncrementalNode, by reader: IncrementalNode) {
        let index = trackCursor
        let ref = Unmanaged.passUnretained(node).toOpaque()
        if index < reader.edges.count && reader.edges[index].ref.toOpaque() == ref {
            reader.edges[index].seen = node.version
            trackCursor = index + 1
            return
        }
        if index > 0 && reader.edges[index - 1].ref.toOpaque() == ref {
            reader.edges[index - 1].seen = node.version
            return
        }
        insertEdge(of: reader, at: index, to: node)
        reader.edges[index].seen = node.version
        trackCursor = index + 1
    }

    /// Inserts an edge from `reader` to `node` at `index`, moving the later edges up one
    /// (and their reader entries with them), and links it if `reader` is necessary.
    private func insertEdge(of reader: IncrementalNode, at index: Int, to node: IncrementalNode) {
        reader.edges.append(Edge(ref: Unmanaged.passRetained(node), seen: -1, slot: -1))
        var position = reader.edges.count - 1
        while position > index {
            let moved = reader.edges[position - 1]
            reader.edges[position - 1] = reader.edges[position]
            reader.edges[position] = moved
            if moved.slot >= 0 { moved.ref._withUnsafeGuaranteedRef { $0.subs[moved.slot].edge = position } }
            position -= 1
        }
        if reader.isNecessary { link(reader, edge: index) }
    }

    /// Drops the edges of `node` from `count` on: each is unlinked (its node deactivated if
    /// nothing else needs it) and released.
    ///
    /// Safe while `node` is on the pull walk's stack only as the node whose recomputation is
    /// running: the walk indexes its edges before `recompute`, never after.
    func trimEdges(of node: IncrementalNode, to count: Int) {
        while node.edges.count > count {
            let edge = node.edges.removeLast()
            if edge.slot >= 0 {
                edge.ref._withUnsafeGuaranteedRef { input in
                    removeSub(of: input, at: edge.slot)
                    if !input.isNecessary { deactivate(input) }
                }
            }
            releaseLater(edge.node)
        }
    }

    /// Removes edge `index` of `node` in O(1): unlinked (its node deactivated if nothing else
    /// needs it) and released; the last edge takes its place, its reader entry following it.
    /// Not while `node` is on the pull walk's stack (the walk indexes its edges).
    func removeEdge(of node: IncrementalNode, at index: Int) {
        let removed = node.edges[index]
        if removed.slot >= 0 {
            removed.ref._withUnsafeGuaranteedRef { input in
                removeSub(of: input, at: removed.slot)
                if !input.isNecessary { deactivate(input) }
            }
        }
        let last = node.edges.count - 1
        if index != last {
            let moved = node.edges[last]
            node.edges[index] = moved
            if moved.slot >= 0 { moved.ref._withUnsafeGuaranteedRef { $0.subs[moved.slot].edge = index } }
        }
        node.edges.removeLast()
        releaseLater(removed.node)
    }

    /// Drops every edge of `node` (a disposed effect) now, or, while a pull walk stands on
    /// it, when the outermost walk ends: its edges must not change under the walk, and left
    /// in place they would hold what the effect read (and, through closures that hold the
    /// effect, the effect itself) for good.
    func trimWhenOffStack(_ node: IncrementalNode) {
        if node.flags & Flags.onStack == 0 {
            trimEdges(of: node, to: 0)
        } else {
            deferredTrims.append(node)
        }
    }

    /// Drops the edges of the disposed effects a walk stood on; called when the outermost
    /// walk has ended.
    @inline(never)
    func trimDeferred() {
        while let node = deferredTrims.popLast() {
            if node.flags & Flags.onStack != 0 || node.isNecessary {
                // Still under a walk (or needed again): dropped at the next walk's end.
                deferredTrims.insert(node, at: 0)
                return
            }
            trimEdges(of: node, to: 0)
        }
    }

    /// Runs `body` with `ownership` receiving the effects and scopes made meanwhile.
    @inline(__always)
    func owning<Result>(_ ownership: EffectOwnership, _ body: () throws -> Result) rethrows -> Result {
        let outer = currentOwnership
        currentOwnership = ownership
        defer { currentOwnership = outer }
        return try body()
    }

    /// What an effect or scope made now belongs to.
    var ownershipForNewMember: EffectOwnership { currentOwnership ?? rootOwnership }
}

/// The graph whose computed value or effect is recording reads on the current thread, if
/// any: a read of another graph's node checks it, so that a computed value that reads a node
/// of another graph (which cannot become its input) stops with a clear message instead of
/// silently not depending on it. Kept in a thread-local slot, mirroring the tracking graph's
/// `tracker`: set and cleared with it, on the thread the graph is used on.
enum TrackingThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Incremental: no thread-local slot is left for auto-tracking")
        return key
    }()

    /// The tracking graph's address, or nil.
    static var graph: UnsafeMutableRawPointer? {
        @inline(__always) get { pthread_getspecific(key) }
        set { pthread_setspecific(key, newValue) }
    }
}
