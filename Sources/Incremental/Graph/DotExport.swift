extension Graph {
    /// The graph below `roots` in Graphviz's `dot` language, for debugging: one box per
    /// node with its name (``IncrementalNode/debugName``, or its kind), value, height,
    /// version (its last change), and whether it is necessary, observed, pending or
    /// invalid; one arrow from each node to each node that read it.
    ///
    /// ```swift
    /// print(graph.dot([total]))   // paste into `dot -Tsvg`
    /// ```
    ///
    /// Reading it computes nothing. Edges are those of each node's last computation.
    public func dot(_ roots: [IncrementalNode]) -> String {
        flushDeferredPush()
        let heights = heights(from: roots)
        var order: [IncrementalNode] = []
        var seen: Set<ObjectIdentifier> = []
        var stack = roots
        while let node = stack.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            order.append(node)
            for edge in node.edges.reversed() { stack.append(edge.node) }
        }
        var ids: [ObjectIdentifier: Int] = [:]
        for (index, node) in order.enumerated() { ids[ObjectIdentifier(node)] = index }
        var lines = ["digraph incremental {", "  rankdir=BT;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for (index, node) in order.enumerated() {
            var facts = ["h \(heights[ObjectIdentifier(node)] ?? 0)", "v \(node.version)"]
            if node.observerCount > 0 { facts.append("observed ×\(node.observerCount)") }
            facts.append(node.isNecessary ? "necessary" : "unnecessary")
            if node.flags & Flags.pending != 0 { facts.append("pending") }
            if node.isInvalid { facts.append("invalid") }
            if let failure = node.failure, !node.isInvalid { facts.append("error: \(failure)") }
            let name = node.debugName ?? node.kindName
            let label = "\(name) = \(node.valueDescription)\\n\(facts.joined(separator: ", "))"
            let style = node.isNecessary ? "" : ", style=dashed"
            lines.append("  n\(index) [label=\"\(escape(label))\"\(style)];")
        }
        for (index, node) in order.enumerated() {
            for edge in node.edges {
                guard let input = ids[ObjectIdentifier(edge.node)] else { continue }
                let style = edge.slot >= 0 ? "" : " [style=dashed]"
                lines.append("  n\(input) -> n\(index)\(style);")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The height of every node below `roots`, without recursion.
    func heights(from roots: [IncrementalNode]) -> [ObjectIdentifier: Int] {
        var heights: [ObjectIdentifier: Int] = [:]
        var inProgress: Set<ObjectIdentifier> = []
        var stack: [(node: IncrementalNode, next: Int)] = roots.map { ($0, 0) }
        while let (node, next) = stack.last {
            let id = ObjectIdentifier(node)
            if next == 0 {
                if heights[id] != nil {
                    stack.removeLast()
                    continue
                }
                inProgress.insert(id)
            }
            if next < node.edges.count {
                stack[stack.count - 1].next += 1
                let input = node.edges[next].node
                let inputID = ObjectIdentifier(input)
                if heights[inputID] == nil && !inProgress.contains(inputID) { stack.append((input, 0)) }
                continue
            }
            var height = 0
            for edge in node.edges { height = max(height, (heights[ObjectIdentifier(edge.node)] ?? 0) + 1) }
            heights[id] = height
            inProgress.remove(id)
            stack.removeLast()
        }
        return heights
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\"" { escaped += "\\" }
            escaped.append(character)
        }
        return escaped
    }
}

extension IncrementalNode {
    /// The kind of node, for ``Graph/dot(_:)``: `Input<Int>`, `Map<Int, String>`, …
    var kindName: String {
        let name = String(describing: type(of: self))
        guard let open = name.firstIndex(of: "<") else { return name }
        let kind = name[..<open]
        return (kind.hasSuffix("Node") ? String(kind.dropLast(4)) : String(kind)) + name[open...]
    }
}

extension Graph {
    /// The graph below `roots` as an `Inspection`: one node per node of the graph, with its
    /// kind (`input`, `map`, `flatMap`, ...), debug name, value (if computed) and, as details,
    /// its height, version, observer count and whether it is necessary; one edge from each
    /// node to each node that read it in its last computation.
    ///
    /// The statistics are the graph's (``Statistics``): `propagations`, `recomputations`,
    /// `changes`, `invalidations`, `nodesCreated`, `nodesAlive`, `becameNecessary`,
    /// `becameUnnecessary`, `effectRuns`, and `observers`, the observers of the nodes found.
    /// Reading it computes nothing.
    public func inspect(_ roots: [IncrementalNode]) -> Inspection {
        flushDeferredPush()
        let heights = heights(from: roots)
        var builder = InspectionBuilder(paradigm: "Incremental")
        var order: [IncrementalNode] = []
        var stack = roots
        while let node = stack.popLast() {
            let (_, isNew) = builder.node(
                for: node, kind: node.kindName, name: node.debugName,
                value: node.hasComputed || node.isInvalid ? node.valueDescription : nil,
                details: [
                    "height": "\(heights[ObjectIdentifier(node)] ?? 0)", "version": "\(node.version)",
                    "observers": "\(node.observerCount)", "necessary": "\(node.isNecessary)",
                ])
            guard isNew else { continue }
            order.append(node)
            builder.count("observers", Int(node.observerCount))
            for edge in node.edges.reversed() { stack.append(edge.node) }
        }
        for node in order {
            guard let reader = builder.id(of: node) else { continue }
            for edge in node.edges {
                if let input = builder.id(of: edge.node) { builder.edge(from: input, to: reader) }
            }
        }
        let statistics = statistics
        builder.statistics["propagations"] = statistics.propagations
        builder.statistics["recomputations"] = statistics.recomputations
        builder.statistics["changes"] = statistics.changes
        builder.statistics["invalidations"] = statistics.invalidations
        builder.statistics["nodesCreated"] = statistics.nodesCreated
        builder.statistics["nodesAlive"] = statistics.nodesAlive
        builder.statistics["becameNecessary"] = statistics.becameNecessary
        builder.statistics["becameUnnecessary"] = statistics.becameUnnecessary
        builder.statistics["effectRuns"] = statistics.effectRuns
        builder.statistics["observers", default: 0] += 0
        return builder.build()
    }
}

extension I: Inspectable {
    /// The graph below this node: see ``Graph/inspect(_:)``.
    public func inspect() -> Inspection {
        graph.inspect([self])
    }
}
