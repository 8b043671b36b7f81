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
    /// The plan of `input` for the graph's links as they are now, or nil when the input has
    /// not been written before with these links (the caller then walks the readers).
    @inline(__always)
    func currentPlan(of input: IncrementalNode) -> PushPlan? {
        guard let plan = input.pushPlan else {
            input.pushPlan = PushPlan(structure: structureVersion)
            return nil
        }
        if plan.structure != structureVersion {
            plan.structure = structureVersion
            plan.isBuilt = false
            return nil
        }
        if !plan.isBuilt { build(plan, from: input) }
        return plan
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
        for node in plan.order { node._withUnsafeGuaranteedRef { $0.flags &= ~Flags.visited } }
        plan.isBuilt = true
    }
}
