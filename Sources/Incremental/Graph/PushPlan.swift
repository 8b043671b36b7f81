/// The necessary nodes above an input, each after every node it reads: the order in which
/// a write to the input marks them pending, kept while the graph's links stay as they are.
///
/// Marking pending by walking the readers is a chain of dependent loads (a node, its list
/// of readers, the next node); walking a list in memory is not. An input builds its plan on
/// its second write with the same links (a graph whose links change at every write, a
/// `flatMap` switching back and forth, never pays for plans it would not reuse), and uses it
/// until any link in the graph changes. Because the plan puts every node after the nodes it
/// reads, a round that follows one write finds each node's inputs current when it reaches it.
final class PushPlan {
    /// The nodes, each after the nodes it reads; not retained: while ``structure`` is the
    /// graph's, every node in it is necessary, and so kept alive by its readers or observers.
    @exclusivity(unchecked) var order = RawList<Unmanaged<IncrementalNode>>()
    /// The graph's ``Graph/structureVersion`` when the plan was last built or asked for.
    @exclusivity(unchecked) var structure: Int
    /// Whether `order` holds the plan for `structure` (false until the second write).
    @exclusivity(unchecked) var isBuilt = false
    /// Whether `order` holds a `flatMap`, whose reads only a pull decides.
    @exclusivity(unchecked) var hasDynamic = false
    /// Whether `order` holds an expert node, which a write must reach through its readers.
    @exclusivity(unchecked) var hasExpert = false

    init(structure: Int) {
        self.structure = structure
    }

    deinit {
        order.deallocate()
    }
}

/// A step of the walk that builds a plan: a node and the next of its readers to visit.
private struct PlanFrame {
    let ref: Unmanaged<IncrementalNode>
    var next: Int
}

extension Graph {
    /// Marks `reader` pending (unless it is already) and queues it if observed, as a write
    /// does to each necessary node above it; with `recordingOrder`, adds it to the round's
    /// push order.
    @inline(__always)
    func markPending(_ reader: Unmanaged<IncrementalNode>, recordingOrder: Bool) {
        reader._withUnsafeGuaranteedRef { node in
            if node.flags & Flags.pending != 0 { return }
            node.flags |= Flags.pending
            if node.flags & Flags.dynamic != 0 { pushReachedDynamic = true }
            if node.observerCount > 0 { enqueue(node) }
            if recordingOrder { pushOrder.append(reader) }
        }
    }

    /// The plan of `input` for the graph's links as they are now, or nil when the input has
    /// not been written before with these links (the caller then walks the readers).
    @inline(__always)
    func currentPlan(of input: IncrementalNode) -> Unmanaged<PushPlan>? {
        // Unretained: the input holds its plan, and this is asked once per write (a retain
        // and a release per write were a few percent of a deep chain's propagation).
        guard let plan = input.unmanagedPushPlan() else {
            input.setPushPlan(PushPlan(structure: structureVersion))
            return nil
        }
        let isCurrent = plan._withUnsafeGuaranteedRef { plan -> Bool in
            if plan.structure != structureVersion {
                plan.structure = structureVersion
                plan.isBuilt = false
                return false
            }
            if !plan.isBuilt { build(plan, from: input) }
            return true
        }
        return isCurrent ? plan : nil
    }

    /// Fills `plan` with the necessary nodes above `start` in reverse post-order of a depth-
    /// first walk of the readers: every node comes after the nodes it reads.
    private func build(_ plan: PushPlan, from start: IncrementalNode) {
        plan.order.removeAll()
        var stack = RawList<PlanFrame>()
        defer { stack.deallocate() }
        stack.append(PlanFrame(ref: Unmanaged.passUnretained(start), next: 0))
        while !stack.isEmpty {
            let top = stack.count - 1
            let frame = stack[top]
            let reader = frame.ref._withUnsafeGuaranteedRef { node -> Unmanaged<IncrementalNode>? in
                frame.next < node.subs.count ? node.subs[frame.next].ref : nil
            }
            if let reader {
                stack[top].next = frame.next + 1
                let isNew = reader._withUnsafeGuaranteedRef { reader in
                    if reader.flags & Flags.visited != 0 { return false }
                    reader.flags |= Flags.visited
                    return true
                }
                if isNew { stack.append(PlanFrame(ref: reader, next: 0)) }
            } else {
                stack.removeLast()
                if top > 0 { plan.order.append(frame.ref) }
            }
        }
        plan.order.reverse()
        plan.hasDynamic = false
        plan.hasExpert = false
        for node in plan.order {
            node._withUnsafeGuaranteedRef {
                $0.flags &= ~Flags.visited
                if $0.flags & Flags.dynamic != 0 { plan.hasDynamic = true }
                if $0.flags & Flags.expert != 0 { plan.hasExpert = true }
            }
        }
        plan.isBuilt = true
    }
}

// MARK: - A write marked lazily

// A round after a single write whose plan has no `flatMap` needs no marking at all: going
// through the plan in order, each node finds its inputs current, and compares their versions
// with the ones it saw. So such a write only records its plan (`deferredPush`), and the
// round walks it once, marking nothing. Everything else that relies on the pending marks
// (a read, a refresh, a change of links, another write) first marks the nodes of the
// recorded plan, as the write would have (`flushDeferredPush`); during the round's walk, only
// the nodes it has not reached yet.

extension Graph {
    /// Marks the nodes of the recorded plan pending, as its write would have: all of them,
    /// or during the round's walk the ones it has not reached.
    @inline(__always)
    func flushDeferredPush() {
        if deferredPush != nil { markDeferredPlan() }
    }

    private func markDeferredPlan() {
        guard let plan = deferredPush else { return }
        deferredPush = nil
        let order = plan._withUnsafeGuaranteedRef { $0.order }
        let walking = fusedIndex >= 0
        for index in (walking ? fusedIndex : 0)..<order.count {
            // The walk goes on over the rest; otherwise the round takes them from the order.
            markPending(order[index], recordingOrder: !walking)
        }
    }

    /// The round's walk over the recorded plan: each node in order compares the versions of
    /// its inputs with the ones it saw and recomputes if one differs; observed nodes that
    /// changed are queued. If something marks the rest meanwhile (a closure read a node), the
    /// rest is brought up to date by their marks, as after any other write.
    func walkDeferredPlan() {
        guard let plan = deferredPush else { return }
        let order = plan._withUnsafeGuaranteedRef { $0.order }
        recomputeDepth += 1
        var recomputed = 0
        var index = 0
        while index < order.count, deferredPush != nil {
            let ref = order[index]
            index += 1
            fusedIndex = index
            ref._withUnsafeGuaranteedRef { updateInOrder($0, queueIfChanged: true, recomputed: &recomputed) }
        }
        fusedIndex = -1
        recomputeDepth -= 1
        counters.recomputations += recomputed
        if deferredPush != nil {
            deferredPush = nil
        } else if !hintsAreStale {
            // Marked meanwhile: the rest of the plan is pending; bring it up to date in order.
            var rest = RawList<Unmanaged<IncrementalNode>>()
            for position in index..<order.count { rest.append(order[position]) }
            refreshInOrder(rest)
            rest.deallocate()
        }
    }
}
