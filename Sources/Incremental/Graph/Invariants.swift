// The engine's invariants, checked in code when the module is built with
// `INCREMENTAL_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/Incremental.md
// states each one (I1, I2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag, `checkInvariantsAfterOperation()` is an empty inline function and the
// graph and its nodes carry no extra field: the checks cost nothing.

extension Graph {
    /// Whether this build of the module checks the engine's invariants after every public
    /// operation and propagation round (`INCREMENTAL_INTERNAL_CHECKS`).
    package static var _isCheckingInvariants: Bool {
        #if INCREMENTAL_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }

    /// Called after every public operation that changes the graph (a write, a batch's end, a
    /// propagation round, a read, an observer removed). With the checks on, checks every
    /// invariant that holds at that point: after every operation in a graph of up to
    /// ``invariantCheckFullSize`` nodes; in a larger one, once every `nodeCount` operations,
    /// so that the checks cost about one node's visit per operation and a test that builds a
    /// million nodes still ends.
    @inline(__always)
    func checkInvariantsAfterOperation() {
        #if INCREMENTAL_INTERNAL_CHECKS
            _checksSkipped += 1
            if nodeCount <= Self.invariantCheckFullSize || _checksSkipped >= nodeCount {
                _checksSkipped = 0
                _checkInvariants()
            }
        #endif
    }

    /// The largest graph checked after every operation; larger ones are checked less often.
    static var invariantCheckFullSize: Int { 2_000 }

    /// Checks every invariant that holds in the graph's present phase, stopping with a
    /// message that names the invariant broken. Does nothing unless the module is built with
    /// `INCREMENTAL_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if INCREMENTAL_INTERNAL_CHECKS
            InvariantChecker(graph: self).check()
        #endif
    }
}

#if INCREMENTAL_INTERNAL_CHECKS
    /// The phase the graph is in, which decides what holds.
    private enum Phase {
        /// Nothing under way: no batch, propagation, delivery or computation.
        case quiescent
        /// Inside a batch (or a write deferred until one ends), nothing else under way.
        case batch
        /// A propagation, a first delivery or a computation is under way: only the shape of
        /// the graph is checked.
        case working
    }

    /// One run of the checks over a graph.
    private struct InvariantChecker {
        let graph: Graph
        let nodes: [IncrementalNode]
        let ids: Set<ObjectIdentifier>

        init(graph: Graph) {
            self.graph = graph
            nodes = graph._liveNodes.values.map { $0.takeUnretainedValue() }
            ids = Set(graph._liveNodes.keys)
        }

        var phase: Phase {
            if graph.isPropagating || graph.isDelivering || graph.recomputeDepth > 0 || !graph.frames.isEmpty
                || graph.isReleasing || graph.observerDepth > 0
            {
                return .working
            }
            return graph.batchDepth > 0 ? .batch : .quiescent
        }

        func fail(_ invariant: String, _ message: String, _ node: IncrementalNode? = nil) -> Never {
            let named = node.map { " (node \(ObjectIdentifier($0)): \($0))" } ?? ""
            preconditionFailure("Incremental internal check \(invariant) failed: \(message)\(named)")
        }

        func check() {
            let phase = phase
            checkRegistry()
            checkLinks()
            checkNecessity()
            checkHeights()
            checkFlags(phase)
            checkObservers()
            checkArena()
            checkPlans()
            if phase != .working { checkMarks(phase) }
        }

        /// I1: the registry holds exactly the nodes that exist, and every reference the engine
        /// keeps (edges, readers, queue, lists) points at one of them.
        func checkRegistry() {
            if graph.nodeCount != nodes.count {
                fail("I1", "nodeCount is \(graph.nodeCount) but \(nodes.count) nodes exist")
            }
            for node in nodes {
                if node.graph !== graph { fail("I1", "a node of another graph is registered", node) }
                for edge in node.edges where !ids.contains(ObjectIdentifier(edge.node)) {
                    fail("I1", "an edge points at a freed node", node)
                }
                for sub in node.subs where !ids.contains(ObjectIdentifier(sub.node)) {
                    fail("I1", "a reader is a freed node", node)
                }
            }
            for ref in graph.queue where !ids.contains(ObjectIdentifier(ref.takeUnretainedValue())) {
                fail("I1", "the queue lists a freed node")
            }
            for ref in graph.inputsWithBase where !ids.contains(ObjectIdentifier(ref.takeUnretainedValue())) {
                fail("I1", "the inputs holding a base list a freed node")
            }
        }

        /// I2: edges and readers mirror each other. A necessary node's every edge is linked: its
        /// slot names the reader entry in the node it reads, which names the edge back. An
        /// unnecessary node's edges are not linked. Every reader entry belongs to such an edge.
        func checkLinks() {
            for node in nodes {
                let necessary = node.isNecessary && node.flags & Flags.invalid == 0
                for index in 0..<node.edges.count {
                    let edge = node.edges[index]
                    if !necessary {
                        if edge.slot != -1 { fail("I2", "an edge of an unnecessary node is linked", node) }
                        continue
                    }
                    let input = edge.node
                    guard edge.slot >= 0, edge.slot < input.subs.count else {
                        fail("I2", "an edge of a necessary node is not linked (slot \(edge.slot))", node)
                    }
                    let sub = input.subs[edge.slot]
                    if sub.node !== node || sub.edge != index {
                        fail("I2", "edge \(index)'s reader entry names another edge", node)
                    }
                }
                for slot in 0..<node.subs.count {
                    let sub = node.subs[slot]
                    let reader = sub.node
                    guard sub.edge < reader.edges.count, reader.edges[sub.edge].node === node,
                        reader.edges[sub.edge].slot == slot
                    else { fail("I2", "reader entry \(slot) has no matching edge", node) }
                }
            }
        }

        /// I3: a node is necessary exactly when an observer reaches it through edges: the
        /// necessary nodes are the observed ones and everything they read, directly or not.
        /// Invalid nodes read nothing.
        func checkNecessity() {
            var reached = Set<ObjectIdentifier>()
            var stack = nodes.filter { $0.observerCount > 0 }
            for node in stack { reached.insert(ObjectIdentifier(node)) }
            while let node = stack.popLast() {
                for edge in node.edges where reached.insert(ObjectIdentifier(edge.node)).inserted {
                    stack.append(edge.node)
                }
            }
            for node in nodes {
                if node.observerCount < 0 { fail("I3", "a negative observer count", node) }
                let isReached = reached.contains(ObjectIdentifier(node))
                if node.isNecessary != isReached {
                    fail(
                        "I3",
                        node.isNecessary
                            ? "a necessary node that no observer reaches"
                            : "an unnecessary node that an observer reaches",
                        node)
                }
                if node.flags & Flags.invalid != 0, !node.edges.isEmpty {
                    fail("I3", "an invalid node still reads nodes", node)
                }
                if node.flags & Flags.source != 0, !node.edges.isEmpty {
                    fail("I3", "an input or constant reads nodes", node)
                }
            }
        }

        /// I4: heights strictly increase along every edge: the edges form no cycle. (The
        /// engine keeps no heights; the walk that computes them here is the proof.)
        func checkHeights() {
            var height: [ObjectIdentifier: Int] = [:]
            var onPath = Set<ObjectIdentifier>()
            for root in nodes where height[ObjectIdentifier(root)] == nil {
                // An explicit stack: a chain of any depth.
                var stack: [(node: IncrementalNode, next: Int)] = [(root, 0)]
                onPath.insert(ObjectIdentifier(root))
                while let (node, next) = stack.last {
                    if next < node.edges.count {
                        stack[stack.count - 1].next = next + 1
                        let input = node.edges[next].node
                        let id = ObjectIdentifier(input)
                        if onPath.contains(id) { fail("I4", "the edges form a cycle", node) }
                        if height[id] == nil {
                            onPath.insert(id)
                            stack.append((input, 0))
                        }
                    } else {
                        stack.removeLast()
                        onPath.remove(ObjectIdentifier(node))
                        var own = 0
                        for edge in node.edges {
                            own = max(own, height[ObjectIdentifier(edge.node)]! + 1)
                        }
                        height[ObjectIdentifier(node)] = own
                    }
                }
            }
        }

        /// I5: the flags agree with the state they summarize, and the bits of a walk are clear
        /// when no walk is under way.
        func checkFlags(_ phase: Phase) {
            for node in nodes {
                let flags = node.flags
                if (flags & Flags.failed != 0) != (node.failure != nil) {
                    fail("I5", "the failed flag disagrees with the node's error", node)
                }
                if flags & Flags.visited != 0 { fail("I5", "a plan's walk left its mark", node) }
                if flags & Flags.pending != 0, !node.isNecessary || flags & (Flags.source | Flags.invalid) != 0 {
                    fail("I5", "an unnecessary node, an input or an invalid node is marked pending", node)
                }
                if (flags & Flags.named != 0) != (graph.debugNames[ObjectIdentifier(node)] != nil) {
                    fail("I5", "the named flag disagrees with the graph's names", node)
                }
                if (flags & Flags.hasPushPlan != 0) != (graph.pushPlans[ObjectIdentifier(node)] != nil) {
                    fail("I5", "the push-plan flag disagrees with the graph's plans", node)
                }
                if node.version > graph.versionClock {
                    fail("I5", "a version the clock has not given yet", node)
                }
                for edge in node.edges where edge.seen > graph.versionClock {
                    fail("I5", "an edge saw a version the clock has not given yet", node)
                }
                if phase != .working, flags & Flags.onStack != 0 {
                    fail("I5", "a node is on the refresh stack while none is walked", node)
                }
                if flags & Flags.hasBase != 0,
                    !graph.inputsWithBase.contains(where: { $0.takeUnretainedValue() === node })
                {
                    fail("I5", "an input holds a base the graph does not list", node)
                }
            }
            if graph.demandStack.count != 0 { fail("I5", "the demand walk's stack is not empty") }
            if graph.pushPlans.count > nodes.count { fail("I5", "the graph keeps plans of freed nodes") }
            if let last = graph.lastPlanned, graph.pushPlans[last.node] !== last.plan.takeUnretainedValue() {
                fail("I5", "the plan remembered last is not the node's plan")
            }
        }

        /// I6: a node's observers form a list, in order, with consistent links, as long as its
        /// observer count; the arena accounts for every record; the graph keeps cleanups for
        /// exactly the listed records that say they have some.
        func checkObservers() {
            var withCleanups = 0
            for node in nodes {
                var count: Int32 = 0
                var previous: UnsafeMutablePointer<ObserverRecord>?
                var record = node.firstObserver
                while let current = record {
                    if current.pointee.previous != previous { fail("I6", "an observer's back link is wrong", node) }
                    if !current.pointee.isActive { fail("I6", "a disconnected observer is still listed", node) }
                    if current.pointee.hasCleanups != (graph.observerCleanups[UnsafeRawPointer(current)] != nil) {
                        fail("I6", "an observer's cleanups flag disagrees with the graph's cleanups", node)
                    }
                    if current.pointee.hasCleanups { withCleanups += 1 }
                    count += 1
                    previous = current
                    record = current.pointee.next
                }
                // An effect's node stands for its own demand: it counts one observer and lists none.
                count += node.unlistedObserversForChecks
                if count != node.observerCount {
                    fail("I6", "\(count) observers listed but the count is \(node.observerCount)", node)
                }
                if previous != node.lastObserverForChecks {
                    fail("I6", "the last observer is not the list's end", node)
                }
            }
            if withCleanups != graph.observerCleanups.count {
                fail("I6", "the graph keeps cleanups of records no node lists")
            }
        }

        /// I7: the arena's memory is exactly its free blocks, its unused end and the blocks in
        /// use (nodes' blocks, observers' records); no free block is in use, none is listed
        /// twice, and each lies inside a chunk.
        func checkArena() {
            var inUse: [UnsafeMutableRawPointer: UInt8] = [:]
            for node in nodes {
                if node.blockClass != 0, inUse.updateValue(node.blockClass, forKey: node.block) != nil {
                    fail("I7", "two nodes share a block", node)
                }
                for record in node.observerRecordsForChecks()
                where inUse.updateValue(ObserverRecord.sizeClass, forKey: UnsafeMutableRawPointer(record)) != nil {
                    fail("I7", "an observer record is used twice", node)
                }
            }
            graph.blocks._checkInvariants(inUse: inUse) { fail("I7", $0) }
        }

        /// I8: an input's plan, while it is built for the graph's links as they are, lists
        /// exactly the necessary nodes above the input, each once and after every node it
        /// reads.
        func checkPlans() {
            for node in nodes {
                guard let plan = node.pushPlan, plan.isBuilt, plan.structure == graph.structureVersion else { continue }
                var above = Set<ObjectIdentifier>()
                var stack = [node]
                while let current = stack.popLast() {
                    for sub in current.subs where above.insert(ObjectIdentifier(sub.node)).inserted {
                        stack.append(sub.node)
                    }
                }
                var placed = Set<ObjectIdentifier>()
                for ref in plan.order {
                    let member = ref.takeUnretainedValue()
                    if !placed.insert(ObjectIdentifier(member)).inserted {
                        fail("I8", "a plan lists a node twice", node)
                    }
                    for edge in member.edges where above.contains(ObjectIdentifier(edge.node)) {
                        if !placed.contains(ObjectIdentifier(edge.node)) {
                            fail("I8", "a plan lists a node before a node it reads", member)
                        }
                    }
                }
                if placed != above {
                    fail("I8", "a plan lists other nodes than the necessary ones above its input", node)
                }
            }
        }

        /// I9 (between operations): every necessary node whose inputs changed since it read
        /// them, directly or below, is marked pending or on the recorded plan of a write; a
        /// pending node's readers are pending too; an observed pending node is queued; the
        /// queue lists each queued node once. Outside a batch, nothing is stale, pending or
        /// queued, and no input holds a base.
        ///
        /// Staleness is evaluated here from the edges' versions alone, independently of the
        /// flags the engine keeps.
        func checkMarks(_ phase: Phase) {
            var stale: [ObjectIdentifier: Bool] = [:]
            func isStale(_ root: IncrementalNode) -> Bool {
                if let known = stale[ObjectIdentifier(root)] { return known }
                // Post-order over the edges, without recursion.
                var stack: [IncrementalNode] = [root]
                while let node = stack.last {
                    let id = ObjectIdentifier(node)
                    if stale[id] != nil {
                        stack.removeLast()
                        continue
                    }
                    if node.flags & (Flags.source | Flags.invalid) != 0 {
                        stale[id] = false
                        stack.removeLast()
                        continue
                    }
                    // A flatMap reads its node only if its left-hand side stayed.
                    let relevant = node.flags & Flags.dynamic != 0 ? Swift.min(1, node.edges.count) : node.edges.count
                    var waiting = false
                    for index in 0..<relevant where stale[ObjectIdentifier(node.edges[index].node)] == nil {
                        stack.append(node.edges[index].node)
                        waiting = true
                    }
                    if waiting { continue }
                    var result = !node.hasComputed
                    for index in 0..<relevant {
                        let edge = node.edges[index]
                        if edge.seen != edge.node.version || stale[ObjectIdentifier(edge.node)]! { result = true }
                    }
                    if node.flags & Flags.dynamic != 0, !result, node.edges.count == 2 {
                        let edge = node.edges[1]
                        guard let rhsIsStale = stale[ObjectIdentifier(edge.node)] else {
                            stack.append(edge.node)
                            continue
                        }
                        result = edge.seen != edge.node.version || rhsIsStale
                    }
                    stale[id] = result
                    stack.removeLast()
                }
                return stale[ObjectIdentifier(root)]!
            }
            var planned = Set<ObjectIdentifier>()
            if let plan = graph.deferredPush?.takeUnretainedValue() {
                for ref in plan.order { planned.insert(ObjectIdentifier(ref.takeUnretainedValue())) }
            }
            var queued = Set<ObjectIdentifier>()
            for ref in graph.queue {
                let node = ref.takeUnretainedValue()
                if !queued.insert(ObjectIdentifier(node)).inserted { fail("I9", "the queue lists a node twice", node) }
                if node.flags & Flags.queued == 0 { fail("I9", "the queue lists a node not flagged queued", node) }
            }
            for node in nodes {
                let id = ObjectIdentifier(node)
                let flags = node.flags
                if flags & Flags.queued != 0, !queued.contains(id) {
                    fail("I9", "a node flagged queued is not in the queue", node)
                }
                guard node.isNecessary, flags & (Flags.source | Flags.invalid) == 0 else { continue }
                let pending = flags & Flags.pending != 0
                if isStale(node), !pending, !planned.contains(id) {
                    fail("I9", "a necessary node whose inputs changed is neither pending nor planned", node)
                }
                if pending {
                    for sub in node.subs
                    where sub.node.flags & Flags.pending == 0 && !planned.contains(ObjectIdentifier(sub.node)) {
                        fail("I9", "a pending node's reader is not pending", sub.node)
                    }
                    if node.observerCount > 0, !queued.contains(id) {
                        fail("I9", "an observed pending node is not queued", node)
                    }
                }
            }
            guard phase == .quiescent else { return }
            if !queued.isEmpty { fail("I9", "the queue is not empty between operations") }
            if graph.deferredPush != nil { fail("I9", "a write's plan is recorded between operations") }
            if !graph.inputsWithBase.isEmpty { fail("I9", "inputs hold a base between operations") }
            if !graph.keptAlive.isEmpty { fail("I9", "nodes are kept alive between operations") }
            for node in nodes where node.isNecessary && node.flags & Flags.pending != 0 {
                fail("I9", "a node is pending between operations", node)
            }
        }
    }

#endif
