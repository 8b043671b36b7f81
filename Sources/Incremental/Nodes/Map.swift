extension I {
    /// A value derived from this one by `transform`.
    ///
    /// `transform` runs when this value changed and the result is needed, never twice in
    /// one propagation, and always with current values. It may throw: the error becomes
    /// the node's state (see ``I/get()``), and the node recovers when `transform` next
    /// succeeds. It should be a function of its argument; a write it makes to an input is
    /// applied after the computation under way.
    @inlinable
    public func map<Output>(_ transform: @escaping (Value) throws -> Output) -> I<Output> {
        MapNode(self, equatable: false, transform: ErasedClosure(Transform1(call: transform))) {
            input, node, transform in
            try unsafeDowncast(node, to: I<Output>.self).store(
                transform.withTyped(Transform1<Value, Output>.self) {
                    try $0.call(
                        input.assumingMemoryBound(to: Value.self).pointee)
                })
        }
    }

    /// A value derived from this one by `transform`, with `==` as its cutoff.
    ///
    /// The same as the general `map`, chosen when the result is `Equatable`: the code that
    /// runs `transform` and compares its result is specialized for the two types where
    /// `map` is called, so a recomputation calls no generic code.
    @inlinable
    public func map<Output: Equatable>(_ transform: @escaping (Value) throws -> Output) -> I<Output> {
        MapNode(self, equatable: true, transform: ErasedClosure(Transform1(call: transform))) {
            input, node, transform in
            try unsafeDowncast(node, to: I<Output>.self).storeEquatable(
                transform.withTyped(Transform1<Value, Output>.self) {
                    try $0.call(
                        input.assumingMemoryBound(to: Value.self).pointee)
                })
        }
    }

    /// The value at `keyPath` of this value, as in `person[\.name]`.
    @inlinable
    public subscript<Output>(keyPath: KeyPath<Value, Output>) -> I<Output> {
        map { $0[keyPath: keyPath] }
    }

    /// The value at `keyPath` of this value, as in `person[\.name]`, with `==` as its cutoff.
    @inlinable
    public subscript<Output: Equatable>(keyPath: KeyPath<Value, Output>) -> I<Output> {
        map { $0[keyPath: keyPath] }
    }
}

/// A value derived from two others by `transform`.
///
/// If either holds an error, so does the result (the first one's, in argument order), and
/// `transform` does not run.
@inlinable
public func map2<A, B, Output>(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) throws -> Output) -> I<Output> {
    Map2Node(a, b, equatable: false, transform: ErasedClosure(Transform2(call: transform))) { a, b, node, transform in
        try unsafeDowncast(node, to: I<Output>.self).store(
            transform.withTyped(Transform2<A, B, Output>.self) {
                try $0.call(
                    a.assumingMemoryBound(to: A.self).pointee, b.assumingMemoryBound(to: B.self).pointee)
            })
    }
}

/// A value derived from two others by `transform`, with `==` as its cutoff: the general
/// `map2`, chosen when the result is `Equatable`, with the comparison specialized.
@inlinable
public func map2<A, B, Output: Equatable>(
    _ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) throws -> Output
) -> I<Output> {
    Map2Node(a, b, equatable: true, transform: ErasedClosure(Transform2(call: transform))) { a, b, node, transform in
        try unsafeDowncast(node, to: I<Output>.self).storeEquatable(
            transform.withTyped(Transform2<A, B, Output>.self) {
                try $0.call(
                    a.assumingMemoryBound(to: A.self).pointee, b.assumingMemoryBound(to: B.self).pointee)
            })
    }
}

/// A value derived from three others by `transform`.
@inlinable
public func map3<A, B, C, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) throws -> Output
) -> I<Output> {
    Map3Node(a, b, c, equatable: false, transform: ErasedClosure(Transform3(call: transform))) {
        a, b, c, node, transform in
        try unsafeDowncast(node, to: I<Output>.self).store(
            transform.withTyped(Transform3<A, B, C, Output>.self) {
                try $0.call(
                    a.assumingMemoryBound(to: A.self).pointee, b.assumingMemoryBound(to: B.self).pointee,
                    c.assumingMemoryBound(to: C.self).pointee)
            })
    }
}

/// A value derived from three others by `transform`, with `==` as its cutoff: the general
/// `map3`, chosen when the result is `Equatable`, with the comparison specialized.
@inlinable
public func map3<A, B, C, Output: Equatable>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) throws -> Output
) -> I<Output> {
    Map3Node(a, b, c, equatable: true, transform: ErasedClosure(Transform3(call: transform))) {
        a, b, c, node, transform in
        try unsafeDowncast(node, to: I<Output>.self).storeEquatable(
            transform.withTyped(Transform3<A, B, C, Output>.self) {
                try $0.call(
                    a.assumingMemoryBound(to: A.self).pointee, b.assumingMemoryBound(to: B.self).pointee,
                    c.assumingMemoryBound(to: C.self).pointee)
            })
    }
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
@inlinable
public func mapN<Element, Output>(
    _ nodes: [I<Element>], _ transform: @escaping ([Element]) throws -> Output
) -> I<Output> {
    precondition(!nodes.isEmpty, "Incremental: mapN needs at least one node")
    let buffer = MapNBuffer<Element>(capacity: nodes.count)
    return MapNNode(nodes, cutoff: .default) { node in
        try unsafeDowncast(node, to: I<Output>.self).store(transform(buffer.fill(from: node)))
    }
}

/// A value derived from any number of values of one type by `transform`, with `==` as its
/// cutoff: the general `mapN`, chosen when the result is `Equatable`, with the comparison
/// specialized.
@inlinable
public func mapN<Element, Output: Equatable>(
    _ nodes: [I<Element>], _ transform: @escaping ([Element]) throws -> Output
) -> I<Output> {
    precondition(!nodes.isEmpty, "Incremental: mapN needs at least one node")
    let buffer = MapNBuffer<Element>(capacity: nodes.count)
    return MapNNode(nodes, cutoff: nil) { node in
        try unsafeDowncast(node, to: I<Output>.self).storeEquatable(transform(buffer.fill(from: node)))
    }
}

/// The values a `mapN` hands its transform, refilled in place on each recomputation: unless
/// the transform keeps the array, recomputing allocates nothing. Made where `mapN` is called,
/// so that filling it is specialized for the element type.
@usableFromInline
final class MapNBuffer<Element> {
    // Unchecked: filled and read only by its node's recomputation, which does not nest.
    @exclusivity(unchecked) @usableFromInline var values: [Element] = []

    @usableFromInline
    init(capacity: Int) {
        values.reserveCapacity(capacity)
    }

    /// The values of `node`'s edges, in order (each holds a value: the node checked them).
    @inlinable
    func fill(from node: IncrementalNode) -> [Element] {
        values.removeAll(keepingCapacity: true)
        for index in 0..<node.edgeCount {
            values.append(node.edgeValueAddress(at: index).assumingMemoryBound(to: Element.self).pointee)
        }
        return values
    }
}

/// `then` when `condition` is true, `else` otherwise; only the chosen branch is needed, so
/// the other one is neither computed nor connected.
public func ifThenElse<Value>(_ condition: I<Bool>, then: I<Value>, else otherwise: I<Value>) -> I<Value> {
    condition.flatMap { $0 ? then : otherwise }
}

// A map node runs a kernel: a closure made where `map` is called (the functions above are
// inlinable), so specialized for the concrete types, that reads the inputs' values at their
// addresses, runs the transform and stores the result with the node's cutoff. The node
// itself is generic only in its value, and its recomputation calls no generic code.
//
// The kernel captures nothing: the node holds the transform, type-erased
// (``ErasedClosure``), and hands it to the kernel, which knows its type. Specialized, the
// kernel then has no context, and a node costs no allocation for it: capturing the
// transform instead cost one allocation and about six reference counts per node.

/// A closure held by code that does not know its type: a map node's transform, or an
/// observer's sink when its record is freed.
///
/// A closure is two words, its function and its context, whatever its type; wrapped in a
/// struct with one field (``Transform1`` and its siblings, ``Sink``), a closure of a generic
/// type is stored with the same abstraction wherever the struct is made, so reinterpreting
/// the struct as this one and back is the identity on those words. Only code made with the
/// same types as the struct's maker calls it (the kernel made in the same `map` call, through
/// `withTyped`); as this type it is only moved, checked for a context and destroyed, which
/// releases the context whatever the closure's type.
@usableFromInline
struct ErasedClosure {
    private let body: () -> Void

    /// `typed` erased; `Typed` is one of the ``Transform1`` family.
    @inlinable @inline(__always)
    init<Typed>(_ typed: Typed) {
        self = unsafeBitCast(typed, to: ErasedClosure.self)
    }

    /// A transform that captures nothing and is never called, left in a freed node's place.
    static var none: ErasedClosure { ErasedClosure(body: {}) }

    private init(body: @escaping () -> Void) {
        self.body = body
    }

    /// Whether the closure has a context: one that captures nothing has none, and releasing
    /// it frees nothing.
    @inline(__always)
    var hasContext: Bool {
        unsafeBitCast(self, to: (UInt, UInt).self).1 != 0
    }
}

/// A one-argument transform, wrapped for ``ErasedClosure``.
@usableFromInline
struct Transform1<A, Output> {
    @usableFromInline let call: (A) throws -> Output

    @inlinable
    init(call: @escaping (A) throws -> Output) {
        self.call = call
    }
}

/// A two-argument transform, wrapped for ``ErasedClosure``.
@usableFromInline
struct Transform2<A, B, Output> {
    @usableFromInline let call: (A, B) throws -> Output

    @inlinable
    init(call: @escaping (A, B) throws -> Output) {
        self.call = call
    }
}

/// A three-argument transform, wrapped for ``ErasedClosure``.
@usableFromInline
struct Transform3<A, B, C, Output> {
    @usableFromInline let call: (A, B, C) throws -> Output

    @inlinable
    init(call: @escaping (A, B, C) throws -> Output) {
        self.call = call
    }
}

extension UnsafeMutablePointer where Pointee == ErasedClosure {
    /// Calls `body` with the transform stored here as its own type, which must be the one it
    /// was erased from, in place: `inout`, so that calling it copies nothing and retains
    /// nothing (its node writes the transform only when it is made and when it is freed).
    @inlinable @inline(__always)
    func withTyped<Typed, Result>(_: Typed.Type, _ body: (inout Typed) throws -> Result) rethrows -> Result {
        try withMemoryRebound(to: Typed.self, capacity: 1) { try body(&$0.pointee) }
    }
}

extension IncrementalNode {
    /// From a freed map node's deinit: hands its transform to the graph, to release after the
    /// node without recursing (see `Graph`'s `releaseAfterDeinit`), and leaves one that
    /// captures nothing in its place. A transform without a context needs neither, and the
    /// graph is not touched (a deinit that reads it retains it).
    @inline(__always)
    final func releaseAfterDeinit(_ transform: inout ErasedClosure) {
        guard transform.hasContext else { return }
        graph.releaseAfterDeinit(transform as Any)
        transform = .none
    }
}

/// A value derived from one other.
@usableFromInline
final class MapNode<Value>: I<Value> {
    @usableFromInline typealias Kernel = (UnsafeRawPointer, IncrementalNode, UnsafeMutablePointer<ErasedClosure>)
        throws -> Bool
    private let kernel: Kernel
    @exclusivity(unchecked) private var transform: ErasedClosure

    @usableFromInline
    init(
        _ input: borrowing IncrementalNode, equatable: Bool, transform: ErasedClosure, kernel: @escaping Kernel
    ) {
        self.kernel = kernel
        self.transform = transform
        super.init(
            graph: Unmanaged.passUnretained(input.graph), cutoff: equatable ? nil : .default, edgeCapacity: 1,
            first: .passUnretained(input))
    }

    deinit {
        // The kernel captures no node; the transform may.
        releaseAfterDeinit(&transform)
    }

    override func recompute() -> Step {
        guard let input = readEdge(0) else { return fail(edgeFailure(0)) }
        do {
            return try withUnsafeMutablePointer(to: &transform) { try kernel(input, self, $0) } ? .changed : .unchanged
        } catch {
            return fail(error)
        }
    }
}

/// A value derived from two others.
@usableFromInline
final class Map2Node<Value>: I<Value> {
    @usableFromInline typealias Kernel = (
        UnsafeRawPointer, UnsafeRawPointer, IncrementalNode, UnsafeMutablePointer<ErasedClosure>
    ) throws -> Bool
    private let kernel: Kernel
    @exclusivity(unchecked) private var transform: ErasedClosure

    deinit {
        releaseAfterDeinit(&transform)
    }

    @usableFromInline
    init(
        _ a: borrowing IncrementalNode, _ b: borrowing IncrementalNode, equatable: Bool,
        transform: ErasedClosure, kernel: @escaping Kernel
    ) {
        precondition(a.graph === b.graph, "Incremental: map2 of values from two different graphs")
        self.kernel = kernel
        self.transform = transform
        super.init(
            graph: Unmanaged.passUnretained(a.graph), cutoff: equatable ? nil : .default, edgeCapacity: 2,
            first: .passUnretained(a), second: .passUnretained(b))
    }

    override func recompute() -> Step {
        let a = readEdge(0)
        let b = readEdge(1)
        guard let a, let b else { return fail(edgeFailure(a == nil ? 0 : 1)) }
        do {
            return try withUnsafeMutablePointer(to: &transform) { try kernel(a, b, self, $0) } ? .changed : .unchanged
        } catch {
            return fail(error)
        }
    }
}

/// A value derived from three others.
@usableFromInline
final class Map3Node<Value>: I<Value> {
    @usableFromInline typealias Kernel = (
        UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, IncrementalNode,
        UnsafeMutablePointer<ErasedClosure>
    ) throws -> Bool
    private let kernel: Kernel
    @exclusivity(unchecked) private var transform: ErasedClosure

    deinit {
        releaseAfterDeinit(&transform)
    }

    @usableFromInline
    init(
        _ a: borrowing IncrementalNode, _ b: borrowing IncrementalNode, _ c: borrowing IncrementalNode,
        equatable: Bool, transform: ErasedClosure, kernel: @escaping Kernel
    ) {
        precondition(
            a.graph === b.graph && b.graph === c.graph, "Incremental: map3 of values from different graphs")
        self.kernel = kernel
        self.transform = transform
        super.init(
            graph: Unmanaged.passUnretained(a.graph), cutoff: equatable ? nil : .default, edgeCapacity: 3,
            first: .passUnretained(a), second: .passUnretained(b), third: .passUnretained(c))
    }

    override func recompute() -> Step {
        let a = readEdge(0)
        let b = readEdge(1)
        let c = readEdge(2)
        guard let a, let b, let c else { return fail(edgeFailure(a == nil ? 0 : b == nil ? 1 : 2)) }
        do {
            return try withUnsafeMutablePointer(to: &transform) { try kernel(a, b, c, self, $0) }
                ? .changed : .unchanged
        } catch {
            return fail(error)
        }
    }
}

extension IncrementalNode {
    /// Reads the node of edge `index`: records its version as the one seen, and returns the
    /// address of its value, or nil if it holds an error (see ``edgeFailure(_:)``).
    @inline(__always)
    final func readEdge(_ index: Int) -> UnsafeRawPointer? {
        let (version, flags, address) = edges[index].ref._withUnsafeGuaranteedRef {
            ($0.version, $0.flags, $0.valueAddress)
        }
        edges[index].seen = version
        return flags & Flags.failed == 0 ? UnsafeRawPointer(address) : nil
    }

    /// The error the node of edge `index` holds.
    final func edgeFailure(_ index: Int) -> any Error {
        edges[index].node.failure ?? InvalidatedNode()
    }
}

/// A value derived from the values of any number of edges; its kernel, made where `mapN` (or
/// the `map` of a parameter pack) is called, gathers them and runs the transform.
@usableFromInline
final class MapNNode<Value>: I<Value> {
    @usableFromInline typealias Kernel = (IncrementalNode) throws -> Bool
    private var kernel: Kernel

    @usableFromInline
    convenience init<Element>(_ nodes: [I<Element>], cutoff: Cutoff<Value>?, kernel: @escaping Kernel) {
        let graph = nodes[0].graph
        precondition(nodes.allSatisfy { $0.graph === graph }, "Incremental: mapN of values from different graphs")
        self.init(edgesTo: nodes, cutoff: cutoff, kernel: kernel)
    }

    /// A node reading `nodes` (at least one, all of one graph), in order; the `map` of a
    /// parameter pack makes one too.
    init(edgesTo nodes: [IncrementalNode], cutoff: Cutoff<Value>?, kernel: @escaping Kernel) {
        self.kernel = kernel
        super.init(graph: Unmanaged.passUnretained(nodes[0].graph), cutoff: cutoff, edgeCapacity: nodes.count)
        for node in nodes { appendEdge(to: node) }
    }

    deinit {
        // The graph releases the closure after this node, without recursing (see `Graph`'s
        // `releaseAfterDeinit`); the closure left in its place captures nothing.
        graph.releaseAfterDeinit(kernel)
        kernel = { _ in false }
    }

    override func recompute() -> Step {
        var failed: Int?
        for index in edges.indices where readEdge(index) == nil && failed == nil { failed = index }
        if let failed { return fail(edgeFailure(failed)) }
        do {
            return try kernel(self) ? .changed : .unchanged
        } catch {
            return fail(error)
        }
    }
}
