extension I {
    /// A value derived from this one by `transform`.
    ///
    /// `transform` runs when this value changes (and the result is observed), never twice
    /// in one propagation. It must not write inputs or observe nodes.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> I<Output> {
        MapNode(self, transform)
    }

    /// The value at `keyPath` of this value, as in `person[\.name]`.
    public subscript<Output>(keyPath: KeyPath<Value, Output>) -> I<Output> {
        map { $0[keyPath: keyPath] }
    }
}

/// A value derived from two others by `transform`.
public func map2<A, B, Output>(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) -> Output) -> I<Output> {
    Map2Node(a, b, transform)
}

/// A value derived from three others by `transform`.
public func map3<A, B, C, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) -> Output
) -> I<Output> {
    Map3Node(a, b, c, transform)
}

/// A value derived from four others by `transform`.
public func map4<A, B, C, D, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ d: I<D>, _ transform: @escaping (A, B, C, D) -> Output
) -> I<Output> {
    map2(map2(a, b) { ($0, $1) }.setCutoff(.alwaysPropagate), map2(c, d) { ($0, $1) }.setCutoff(.alwaysPropagate)) {
        transform($0.0, $0.1, $1.0, $1.1)
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
public func mapN<Element, Output>(_ nodes: [I<Element>], _ transform: @escaping ([Element]) -> Output) -> I<Output> {
    precondition(!nodes.isEmpty, "Incremental: mapN needs at least one node")
    return MapNNode(nodes, transform)
}

/// `then` when `condition` is true, `else` otherwise; only the chosen branch is needed, so
/// the other one is neither computed nor connected.
public func ifThenElse<Value>(_ condition: I<Bool>, then: I<Value>, else otherwise: I<Value>) -> I<Value> {
    condition.flatMap { $0 ? then : otherwise }
}

final class MapNode<Input, Value>: I<Value> {
    let input: I<Input>
    let transform: (Input) -> Value

    init(_ input: I<Input>, _ transform: @escaping (Input) -> Value) {
        self.input = input
        self.transform = transform
        super.init(graph: input.graph)
    }

    override var inputs: [IncrementalNode] { [input] }

    override func recompute() -> RecomputeResult {
        update(to: transform(input.current))
    }
}

final class Map2Node<A, B, Value>: I<Value> {
    let a: I<A>
    let b: I<B>
    let transform: (A, B) -> Value

    init(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) -> Value) {
        precondition(a.graph === b.graph, "Incremental: map2 of values from two different graphs")
        self.a = a
        self.b = b
        self.transform = transform
        super.init(graph: a.graph)
    }

    override var inputs: [IncrementalNode] { [a, b] }

    override func recompute() -> RecomputeResult {
        update(to: transform(a.current, b.current))
    }
}

final class Map3Node<A, B, C, Value>: I<Value> {
    let a: I<A>
    let b: I<B>
    let c: I<C>
    let transform: (A, B, C) -> Value

    init(_ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) -> Value) {
        precondition(
            a.graph === b.graph && b.graph === c.graph, "Incremental: map3 of values from different graphs")
        self.a = a
        self.b = b
        self.c = c
        self.transform = transform
        super.init(graph: a.graph)
    }

    override var inputs: [IncrementalNode] { [a, b, c] }

    override func recompute() -> RecomputeResult {
        update(to: transform(a.current, b.current, c.current))
    }
}

final class MapNNode<Element, Value>: I<Value> {
    let nodes: [I<Element>]
    let transform: ([Element]) -> Value

    init(_ nodes: [I<Element>], _ transform: @escaping ([Element]) -> Value) {
        let graph = nodes[0].graph
        precondition(nodes.allSatisfy { $0.graph === graph }, "Incremental: mapN of values from different graphs")
        self.nodes = nodes
        self.transform = transform
        super.init(graph: graph)
    }

    override var inputs: [IncrementalNode] { nodes }

    override func recompute() -> RecomputeResult {
        update(to: transform(nodes.map { $0.current }))
    }
}
