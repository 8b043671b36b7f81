/// A value derived from any number of values, of any types, by `transform`.
///
/// ```swift
/// let label = map(name, age, isMember) { name, age, isMember in
///     "\(name), \(age)\(isMember ? " ★" : "")"
/// }
/// ```
///
/// The same rules as ``I/map(_:)-9v9p7``: `transform` runs when one of the values changed and
/// the result is needed, at most once per propagation, with every value current. If a value
/// holds an error, so does the result (the first one's, in argument order), and `transform`
/// does not run. The result has the ``Cutoff/default`` cutoff.
///
/// - Precondition: At least one value, all of one graph.
public func map<each Input, Output>(
    _ inputs: repeat I<each Input>, transform: @escaping (repeat each Input) throws -> Output
) -> I<Output> {
    let nodes = nodeList(repeat each inputs)
    return MapNNode(edgesTo: nodes, cutoff: .default) { node in
        var reader = EdgeReader(node: node)
        return try unsafeDowncast(node, to: I<Output>.self).store(transform(repeat reader.next((each Input).self)))
    }
}

/// A value derived from any number of values, of any types, by `transform`, with `==` as its
/// cutoff: the general `map` of many values, chosen when the result is `Equatable`.
public func map<each Input, Output: Equatable>(
    _ inputs: repeat I<each Input>, transform: @escaping (repeat each Input) throws -> Output
) -> I<Output> {
    let nodes = nodeList(repeat each inputs)
    return MapNNode(edgesTo: nodes, cutoff: nil) { node in
        var reader = EdgeReader(node: node)
        return try unsafeDowncast(node, to: I<Output>.self).storeEquatable(
            transform(repeat reader.next((each Input).self)))
    }
}

/// A value read from a node that `transform` picks from any number of values (Jane Street's
/// `bind2`, `bind3`, `bind4` and beyond).
///
/// ```swift
/// let shown = flatMap(useMetric, precision) { metric, digits in
///     (metric ? celsius : fahrenheit).map { String(format: "%.\(digits)f", $0) }
/// }
/// ```
///
/// `transform` runs when one of the values changes; the rules of ``I/flatMap(_:)`` apply
/// (the nodes a run makes are invalidated when the values change again).
///
/// - Precondition: At least one value, all of one graph.
public func flatMap<each Input, Output>(
    _ inputs: repeat I<each Input>, transform: @escaping (repeat each Input) throws -> I<Output>
) -> I<Output> {
    let values = map(repeat each inputs) { (values: repeat each Input) in (repeat each values) }
    values.setCutoff(.alwaysPropagate)
    return values.flatMap { values in try transform(repeat each values) }
}

/// The nodes of a pack, checked to be at least one and of one graph.
private func nodeList<each Input>(_ inputs: repeat I<each Input>) -> [IncrementalNode] {
    var nodes: [IncrementalNode] = []
    for input in repeat each inputs { nodes.append(input) }
    precondition(!nodes.isEmpty, "Incremental: map needs at least one node")
    let graph = nodes[0].graph
    precondition(nodes.allSatisfy { $0.graph === graph }, "Incremental: map of values from different graphs")
    return nodes
}

/// Reads the values of a node's edges in order, each as the type its position in the pack
/// names. The edges were made from the pack's nodes in that order, so the types agree.
private struct EdgeReader {
    let node: IncrementalNode
    var index = 0

    mutating func next<Value>(_: Value.Type) -> Value {
        defer { index += 1 }
        return node.edges[index].ref._withUnsafeGuaranteedRef {
            $0.valueAddress.assumingMemoryBound(to: Value.self).pointee
        }
    }
}
