import ReactiveCore

/// An observer of a node: a link of the node's list of observers, and what its connection
/// disconnects.
///
/// One object per observer holds the sink, the bookkeeping and the list links, and the
/// connection calls it directly (``Connection/init(source:token:)``): observing allocates
/// the observer and the connection, nothing else. The node's generic code hands the value
/// by address to a kernel made where `observe` was called (specialized for the value's
/// type), which copies it and calls the sink.
@usableFromInline
class NodeObserver: ConnectionSource {
    // Unchecked exclusivity: an observer lives in its graph's isolation domain, and no access
    // to these is held across a call that could reach them again (as for the engine's
    // bookkeeping on `IncrementalNode`).

    /// The node observed, retained by hand for the observer's whole life: an observer that
    /// can still be disconnected keeps its node alive, and reaching the node counts no
    /// reference. Released in `deinit`.
    final let node: Unmanaged<IncrementalNode>
    /// The next observer of the node, in the order added. A removed observer keeps it while
    /// a delivery loop may stand on it.
    @exclusivity(unchecked) final var next: NodeObserver?
    @exclusivity(unchecked) final var previous: Unmanaged<NodeObserver>?
    /// The node's version this observer last received.
    @exclusivity(unchecked) final var seen = -1
    /// Cleanups registered with `Graph.onCleanup` during its last run.
    @exclusivity(unchecked) final var cleanups: [() -> Void] = []
    /// False once disconnected.
    @exclusivity(unchecked) final var isActive = true

    init(node: borrowing IncrementalNode) {
        self.node = Unmanaged.passRetained(copy node)
    }

    deinit {
        node.release()
    }

    /// Runs the sink with the value at `address` (of the node's type).
    func receive(_ address: UnsafeRawPointer) {}

    /// Runs the sink with the error the node holds.
    func receive(_ error: any Error) {}

    package final func disconnect(token: Int) {
        node._withUnsafeGuaranteedRef { $0.remove(self) }
    }
}

/// An observer that receives values.
@usableFromInline
final class ValueObserver<Value>: NodeObserver {
    private let sink: (Value) -> Void

    @usableFromInline
    init(node: borrowing I<Value>, sink: @escaping (Value) -> Void) {
        self.sink = sink
        super.init(node: node)
    }

    override func receive(_ address: UnsafeRawPointer) {
        // Copied out of the slot before the sink runs, so a write the sink makes does not
        // change the value it holds.
        let value = address.assumingMemoryBound(to: Value.self).pointee
        sink(value)
    }
}

/// An observer that receives values and errors.
@usableFromInline
final class ResultObserver<Value>: NodeObserver {
    private let sink: (Result<Value, any Error>) -> Void

    @usableFromInline
    init(node: borrowing I<Value>, sink: @escaping (Result<Value, any Error>) -> Void) {
        self.sink = sink
        super.init(node: node)
    }

    override func receive(_ address: UnsafeRawPointer) {
        let value = address.assumingMemoryBound(to: Value.self).pointee
        sink(.success(value))
    }

    override func receive(_ error: any Error) {
        sink(.failure(error))
    }
}
