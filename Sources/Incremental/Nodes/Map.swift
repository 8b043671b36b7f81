extension I {
    /// A value derived from this one by `transform`.
    ///
    /// `transform` runs when this value changed and the result is needed, never twice in
    /// one propagation, and always with current values. It may throw: the error becomes
    /// the node's state (see ``I/get()``), and the node recovers when `transform` next
    /// succeeds. It should be a function of its argument; a write it makes to an input is
    /// applied after the computation under way.
    public func map<Output>(_ transform: @escaping (Value) throws -> Output) -> I<Output> {
        MapNode(self, transform)
    }

    /// The value at `keyPath` of this value, as in `person[\.name]`.
    public subscript<Output>(keyPath: KeyPath<Value, Output>) -> I<Output> {
        map { $0[keyPath: keyPath] }
    }
}

/// A value derived from two others by `transform`.
///
/// If either holds an error, so does the result (the first one's, in argument order), and
/// `transform` does not run.
public func map2<A, B, Output>(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) throws -> Output) -> I<Output> {
    Map2Node(a, b, transform)
}

/// A value derived from three others by `transform`.
public func map3<A, B, C, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) throws -> Output
) -> I<Output> {
    Map3Node(a, b, c, transform)
}

/// A value derived from four others by `transform`.
public func map4<A, B, C, D, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ d: I<D>, _ transform: @escaping (A, B, C, D) throws -> Output
) -> I<Output> {
    map2(map2(a, b) { ($0, $1) }.setCutoff(.alwaysPropagate), map2(c, d) { ($0, $1) }.setCutoff(.alwaysPropagate)) {
        try transform($0.0, $0.1, $1.0, $1.1)
    }
}

/// The pair of two values.
///
/// A pair propagates whenever either value does: tuples are not `Equatable`, so the pair
/// has no cutoff of its own.
public func zip<A, B>(_ a: I<A>, _ b: I<B>) -> I<(A, B)> {
    map2(a, b) { ($0, $1) }
}

/// A value derived from any number of values of one type by `transform`.
///
/// ```swift
/// let total = mapN(prices) { $0.reduce(0, +) }
/// ```
///
/// When some of the values change, `transform` runs once with all of them.
///
/// - Precondition: `nodes` is not empty.
public func mapN<Element, Output>(
    _ nodes: [I<Element>], _ transform: @escaping ([Element]) throws -> Output
) -> I<Output> {
    precondition(!nodes.isEmpty, "Incremental: mapN needs at least one node")
    return MapNNode(nodes, transform)
}

/// `then` when `condition` is true, `else` otherwise; only the chosen branch is needed, so
/// the other one is neither computed nor connected.
public func ifThenElse<Value>(_ condition: I<Bool>, then: I<Value>, else otherwise: I<Value>) -> I<Value> {
    condition.flatMap { $0 ? then : otherwise }
}

final class MapNode<Input, Value>: I<Value> {
    // Held strongly through the edge, whose release the graph defers, so that freeing a long
    // chain never recurses; see `IncrementalNode.edges`.
    unowned(unsafe) let input: I<Input>
    let transform: (Input) throws -> Value

    init(_ input: I<Input>, _ transform: @escaping (Input) throws -> Value) {
        self.input = input
        self.transform = transform
        super.init(graph: input.graph)
        appendEdge(to: input)
    }

    override func recompute() -> Step {
        edges[0].seen = input.version
        if let failure = input.failure { return fail(failure) }
        do {
            return update(to: try transform(input.current))
        } catch {
            return fail(error)
        }
    }
}

final class Map2Node<A, B, Value>: I<Value> {
    unowned(unsafe) let a: I<A>
    unowned(unsafe) let b: I<B>
    let transform: (A, B) throws -> Value

    init(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) throws -> Value) {
        precondition(a.graph === b.graph, "Incremental: map2 of values from two different graphs")
        self.a = a
        self.b = b
        self.transform = transform
        super.init(graph: a.graph)
        appendEdge(to: a)
        appendEdge(to: b)
    }

    override func recompute() -> Step {
        edges[0].seen = a.version
        edges[1].seen = b.version
        if let failure = a.failure ?? b.failure { return fail(failure) }
        do {
            return update(to: try transform(a.current, b.current))
        } catch {
            return fail(error)
        }
    }
}

final class Map3Node<A, B, C, Value>: I<Value> {
    unowned(unsafe) let a: I<A>
    unowned(unsafe) let b: I<B>
    unowned(unsafe) let c: I<C>
    let transform: (A, B, C) throws -> Value

    init(_ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) throws -> Value) {
        precondition(
            a.graph === b.graph && b.graph === c.graph, "Incremental: map3 of values from different graphs")
        self.a = a
        self.b = b
        self.c = c
        self.transform = transform
        super.init(graph: a.graph)
        appendEdge(to: a)
        appendEdge(to: b)
        appendEdge(to: c)
    }

    override func recompute() -> Step {
        edges[0].seen = a.version
        edges[1].seen = b.version
        edges[2].seen = c.version
        if let failure = a.failure ?? b.failure ?? c.failure { return fail(failure) }
        do {
            return update(to: try transform(a.current, b.current, c.current))
        } catch {
            return fail(error)
        }
    }
}

final class MapNNode<Element, Value>: I<Value> {
    let transform: ([Element]) throws -> Value

    init(_ nodes: [I<Element>], _ transform: @escaping ([Element]) throws -> Value) {
        let graph = nodes[0].graph
        precondition(nodes.allSatisfy { $0.graph === graph }, "Incremental: mapN of values from different graphs")
        self.transform = transform
        super.init(graph: graph)
        for node in nodes { appendEdge(to: node) }
    }

    override func recompute() -> Step {
        for index in edges.indices { edges[index].seen = edges[index].node.version }
        for edge in edges {
            if let failure = edge.node.failure { return fail(failure) }
        }
        let values = edges.map { unsafeDowncast($0.node, to: I<Element>.self).current }
        do {
            return update(to: try transform(values))
        } catch {
            return fail(error)
        }
    }
}
