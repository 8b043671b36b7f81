/// Bringing a node up to date: the pull half of the engine.
///
/// A node is current when nothing it read changed since it last computed. To make a node
/// current, the graph looks at the nodes it read, in the order its last computation read
/// them: each is made current first, then its version is compared with the one this node
/// saw. At the first that differs, the node recomputes (after making the remaining inputs
/// current, so its closure never sees a mix of old and new values); if none differs, the
/// node is current without recomputing. A `flatMap` looks only at its left-hand side first:
/// when that changed, it picks its node again before reading it, so a node only the old
/// choice read is never brought up to date.
///
/// The walk uses an explicit stack: a chain of any depth is made current without
/// recursion, and each node is visited once per change (a node made current is recognised
/// as such: necessary nodes by their pending flag, others by the graph's write epoch).
extension Graph {
    /// Makes `root` current.
    func refresh(_ root: IncrementalNode) {
        flushDeferredPush()
        if isCurrent(root) { return }
        if refreshDirectly(root) { return }
        let base = frames.count
        begin(Unmanaged.passUnretained(root))
        while frames.count > base {
            let top = frames.count - 1
            if let input = frames[top].ref._withUnsafeGuaranteedRef({ advance($0, frame: top) }) {
                begin(input)
            }
        }
        if base == 0 && !deferredTrims.isEmpty { trimDeferred() }
    }

    /// Makes `node` current without the stack when every node it reads is current already
    /// (a node observed or read right after the nodes below it, the usual case): compares
    /// their versions with the ones it saw and recomputes if one differs. Returns false,
    /// having done nothing, for a `flatMap` (it decides what to read from its first input), a
    /// node being computed (a cycle: the general walk stops with its message), or a node
    /// with an input that is not current.
    @inline(__always)
    private func refreshDirectly(_ node: IncrementalNode) -> Bool {
        let flags = node.flags
        guard flags & (Flags.dynamic | Flags.onStack) == 0 else { return false }
        var changed = flags & (Flags.hasValue | Flags.failed) == 0
        for index in 0..<node.edges.count {
            let (inputIsCurrent, version) = node.edges[index].ref._withUnsafeGuaranteedRef {
                (isCurrent($0), $0.version)
            }
            if !inputIsCurrent { return false }
            if version != node.edges[index].seen { changed = true }
        }
        if changed {
            // On the stack while it computes: a closure that reads this node, or a node
            // reading it, stops with the cycle message.
            node.flags = flags | Flags.onStack
            recomputeDepth += 1
            let step = node.recompute()
            recomputeDepth -= 1
            if step == .changed {
                versionClock += 1
                node.version = versionClock
            }
            counters.recomputations += 1
        }
        node.flags &= ~(Flags.onStack | Flags.pending)
        node.checkedAt = epoch
        return true
    }

    /// Takes the node of frame `top` one step: returns an input to bring up to date first,
    /// or, having made the node current (and removed its frame), nil.
    @inline(__always)
    private func advance(_ node: IncrementalNode, frame top: Int) -> Unmanaged<IncrementalNode>? {
        var mode = frames[top].mode
        if node.flags & Flags.expert != 0 {
            // An expert node brings up to date only the edges it lists (those a push reached
            // it through, or all of them), then decides in its recomputation.
            var position = frames[top].index
            let count = node.expertCheckCount
            while position < count {
                let input = node.edges[node.expertCheckEdge(at: position)].ref
                if !input._withUnsafeGuaranteedRef({ isCurrent($0) }) {
                    frames[top].index = position
                    return input
                }
                position += 1
            }
            mode = .resume
        }
        if mode != .resume {
            let isDynamic = node.flags & Flags.dynamic != 0
            let limit = mode == .prepare && isDynamic ? min(1, node.edges.count) : node.edges.count
            var index = frames[top].index
            while index < limit {
                let input = node.edges[index].ref
                let (inputIsCurrent, version) = input._withUnsafeGuaranteedRef { (isCurrent($0), $0.version) }
                if !inputIsCurrent {
                    frames[top].index = index
                    frames[top].mode = mode
                    return input
                }
                if mode == .check && version != node.edges[index].seen {
                    mode = .prepare
                    // A flatMap decides what to read next from what changed.
                    if isDynamic { break }
                }
                index += 1
            }
            if mode == .check {
                end(node)
                return nil
            }
        }
        recomputeDepth += 1
        let step = node.recompute()
        recomputeDepth -= 1
        switch step {
        case .needs:
            frames[top].mode = .resume
            let input = needed!
            needed = nil
            return input
        case .changed:
            versionClock += 1
            node.version = versionClock
        case .unchanged:
            break
        }
        counters.recomputations += 1
        end(node)
        return nil
    }

    /// Makes the pending nodes of `order` current, in that order: when each finds its
    /// inputs current (the order usually sees to it), without the stack of ``refresh(_:)``.
    /// Stops if a node stops being necessary meanwhile (it may have been freed).
    ///
    /// The whole pass counts as one computation for ``recomputeDepth`` (only closures run
    /// inside it), and counts its recomputations once at the end.
    func refreshInOrder(_ order: RawList<Unmanaged<IncrementalNode>>) {
        recomputeDepth += 1
        var recomputed = 0
        for ref in order {
            if hintsAreStale { break }
            ref._withUnsafeGuaranteedRef { node in
                let flags = node.flags
                if flags & Flags.pending == 0 { return }
                // A flatMap decides what to read from its first input: the general walk.
                if flags & Flags.dynamic != 0 { return refresh(node) }
                updateInOrder(node, queueIfChanged: false, recomputed: &recomputed)
            }
        }
        recomputeDepth -= 1
        counters.recomputations += recomputed
    }

    /// Makes `node`, necessary and not a `flatMap`, current, expecting the nodes it reads to
    /// be current already (an order puts them first): compares their versions with the ones
    /// it saw and recomputes if one differs; falls back to ``refresh(_:)`` if one is not
    /// current. With `queueIfChanged`, queues the node if it is observed and changed (a
    /// walk that marked nothing, so queued nothing, before).
    @inline(__always)
    func updateInOrder(_ node: IncrementalNode, queueIfChanged: Bool, recomputed: inout Int) {
        let flags = node.flags
        var changed = flags & (Flags.hasValue | Flags.failed) == 0
        for index in 0..<node.edges.count {
            // The node is necessary, so the nodes it reads are too: current unless pending.
            let (inputIsCurrent, version) = node.edges[index].ref._withUnsafeGuaranteedRef {
                ($0.flags & Flags.pending == 0 || $0.flags & (Flags.source | Flags.invalid) != 0, $0.version)
            }
            if !inputIsCurrent {
                node.flags |= Flags.pending
                return refresh(node)
            }
            if version != node.edges[index].seen { changed = true }
        }
        if changed {
            // Pending and on the stack while it computes: a closure that reads this node, or
            // a node reading it, stops with the cycle message.
            node.flags = flags | Flags.onStack | Flags.pending
            if node.recompute() == .changed {
                versionClock += 1
                node.version = versionClock
                if queueIfChanged && node.observerCount > 0 { enqueueOutOfLine(node) }
            }
            recomputed += 1
        }
        // A necessary node is current unless pending: `checkedAt` matters only once it stops
        // being necessary, and `deactivate` sets it then.
        node.flags &= ~(Flags.onStack | Flags.pending)
    }

    /// Whether reading `node` now would compute nothing: inputs, constants and invalid nodes
    /// always; a necessary node unless a write marked it pending; another node if it was
    /// checked since the last write.
    @inline(__always)
    func isCurrent(_ node: IncrementalNode) -> Bool {
        let flags = node.flags
        if flags & (Flags.source | Flags.invalid) != 0 { return true }
        if node.observerCount > 0 || !node.subs.isEmpty { return flags & Flags.pending == 0 }
        return node.checkedAt == epoch
    }

    private func begin(_ ref: Unmanaged<IncrementalNode>) {
        let mode = ref._withUnsafeGuaranteedRef { node -> Frame.Mode in
            precondition(
                node.flags & Flags.onStack == 0,
                "Incremental: a cycle: a node reads its own value, directly or through others (a flatMap returned a node that reads the flatMap, or a closure read a node that reads it)"
            )
            node.flags |= Flags.onStack
            return node.hasComputed ? .check : .prepare
        }
        frames.append(Frame(ref: ref, index: 0, mode: mode))
    }

    /// Marks `node` current and removes its frame, the top one.
    @inline(__always)
    private func end(_ node: IncrementalNode) {
        node.flags &= ~(Flags.onStack | Flags.pending)
        node.checkedAt = epoch
        frames.removeLast()
    }
}

/// A node on the stack of ``Graph/refresh(_:)``.
struct Frame {
    let ref: Unmanaged<IncrementalNode>
    /// The next edge to look at.
    var index: Int
    var mode: Mode

    enum Mode: UInt8 {
        /// Looking for an input that changed.
        case check
        /// An input changed (or the node never computed): making the rest current, then
        /// recomputing.
        case prepare
        /// Recomputing again after the node asked for an input to be made current.
        case resume
    }
}

// MARK: - Demand

extension Graph {
    /// Links edge `index` of `node` into the readers of the node it reads, and makes that
    /// node necessary if it was not.
    func link(_ node: IncrementalNode, edge index: Int) {
        flushDeferredPush()
        structureVersion &+= 1
        node.edges[index].ref._withUnsafeGuaranteedRef { input in
            let wasNecessary = input.isNecessary
            node.edges[index].slot = input.subs.count
            input.subs.append(Sub(ref: Unmanaged.passUnretained(node), edge: index))
            if !wasNecessary { activate(input) }
        }
    }

    /// Removes edge `index` of `node` from the readers of the node it reads (in O(1): the
    /// last reader takes its place). Does not deactivate that node.
    func unlink(_ node: IncrementalNode, edge index: Int) {
        let slot = node.edges[index].slot
        node.edges[index].slot = -1
        node.edges[index].ref._withUnsafeGuaranteedRef { removeSub(of: $0, at: slot) }
    }

    /// Removes the reader at `slot` of `input`; the last reader takes its place.
    func removeSub(of input: IncrementalNode, at slot: Int) {
        flushDeferredPush()
        structureVersion &+= 1
        let last = input.subs.count - 1
        if slot != last {
            let moved = input.subs[last]
            input.subs[slot] = moved
            moved.ref._withUnsafeGuaranteedRef { $0.edges[moved.edge].slot = slot }
        }
        input.subs.removeLast()
    }

    /// Called when `root` became necessary: links it, and the nodes it reads that become
    /// necessary in turn, to their inputs. A node not known to be current is marked pending,
    /// so the next refresh checks it, and so are the necessary nodes that read it.
    func activate(_ root: IncrementalNode) {
        flushDeferredPush()
        structureVersion &+= 1
        let base = demandStack.count
        demandStack.append(Unmanaged.passUnretained(root))
        while demandStack.count > base {
            demandStack.removeLast()._withUnsafeGuaranteedRef { node in
                counters.becameNecessary += 1
                if node.flags & Flags.expert != 0 { node.didBecomeNecessary() }
                if node.flags & (Flags.source | Flags.invalid) == 0, node.checkedAt != epoch || !node.hasComputed {
                    node.flags |= Flags.pending
                    // Its readers were linked first, and may have been judged current: one
                    // checked in this epoch can have an input last checked in an earlier one
                    // (a flatMap that invalidated its last run's nodes, which counts as a
                    // change, while it computed). A write that finds a node pending stops
                    // there, so a reader of a pending node must be pending too: marked as a
                    // write to this node would mark them.
                    push(from: node, plan: nil)
                }
                let reader = Unmanaged.passUnretained(node)
                for index in 0..<node.edges.count {
                    node.edges[index].ref._withUnsafeGuaranteedRef { input in
                        let wasNecessary = input.isNecessary
                        node.edges[index].slot = input.subs.count
                        input.subs.append(Sub(ref: reader, edge: index))
                        if !wasNecessary { demandStack.append(Unmanaged.passUnretained(input)) }
                    }
                }
            }
        }
    }

    /// Called when `root` stopped being necessary: unlinks it, and the nodes it reads that
    /// stop being necessary in turn, from their inputs.
    func deactivate(_ root: IncrementalNode) {
        flushDeferredPush()
        hintsAreStale = true
        let base = demandStack.count
        demandStack.append(Unmanaged.passUnretained(root))
        while demandStack.count > base {
            demandStack.removeLast()._withUnsafeGuaranteedRef { node in
                counters.becameUnnecessary += 1
                if node.flags & Flags.pending == 0 { node.checkedAt = epoch }
                node.flags &= ~Flags.pending
                for index in 0..<node.edges.count where node.edges[index].slot >= 0 {
                    unlink(node, edge: index)
                    let input = node.edges[index].ref
                    if !input._withUnsafeGuaranteedRef({ $0.isNecessary }) { demandStack.append(input) }
                }
                if node.flags & Flags.expert != 0 { node.didBecomeUnnecessary() }
            }
        }
    }

    /// Adds an observer's demand to `node`.
    func addObserver(to node: IncrementalNode) {
        node.observerCount += 1
        if node.observerCount == 1 && node.subs.isEmpty { activate(node) }
    }

    /// Removes an observer's demand from `node`.
    func removeObserver(from node: IncrementalNode) {
        node.observerCount -= 1
        if node.observerCount == 0 { keepAliveIfListed(node) }
        if !node.isNecessary { deactivate(node) }
    }
}
