import ReactiveCore

/// An observer of a node: a link of the node's list of observers, and what its connection
/// disconnects.
///
/// One object per observer holds the sink, the bookkeeping and the list links, and the
/// connection calls it directly (``Connection/init(source:token:)``): observing allocates
/// the observer and the connection, nothing else. The sink takes the node's value by
/// address, so the node's generic code delivers without knowing the sink's kind.
///
/// The sink is a constant, so calling it counts no reference. It goes with the observer,
/// which its connection lets go of when it disconnects and its node unlinks at once.
@usableFromInline
class NodeObserver: ConnectionSource {
    // Unchecked exclusivity: an observer lives in its graph's isolation domain, and no access
    // to these is held across a call that could reach them again (as for the engine's
    // bookkeeping on `IncrementalNode`).

    /// The node observed; held strongly while connected (an active connection keeps its
    /// node alive), nil once removed.
    @exclusivity(unchecked) final var node: IncrementalNode?
    /// The next observer of the node, in the order added.
    @exclusivity(unchecked) final var next: NodeObserver?
    /// The previous observer; unowned: the list holds its observers through `next`.
    @exclusivity(unchecked) final unowned(unsafe) var previous: NodeObserver?
    /// The node's version this observer last received.
    @exclusivity(unchecked) final var seen = -1
    /// What to run before the observer runs again, or when it is disconnected.
    @exclusivity(unchecked) final var cleanups: [() -> Void] = []
    @exclusivity(unchecked) final var isActive = true

    init(node: IncrementalNode) {
        self.node = node
    }

    /// Runs the sink with the value at `address` (a copy of it).
    func receive(_ address: UnsafeRawPointer) {}

    /// Runs the sink with the error the node holds.
    func receive(_ error: any Error) {}

    package final func disconnect(token: Int) {
        node?.remove(self)
    }
}

/// An observer of values: `observe(_:)`.
@usableFromInline
final class ValueObserver<Value>: NodeObserver {
    private let sink: (Value) -> Void

    @usableFromInline
    init(node: I<Value>, sink: @escaping (Value) -> Void) {
        self.sink = sink
        super.init(node: node)
    }

    override func receive(_ address: UnsafeRawPointer) {
        let value = address.assumingMemoryBound(to: Value.self).pointee
        sink(value)
    }
}

/// An observer of values and errors: `observeResult(_:)`.
@usableFromInline
final class ResultObserver<Value>: NodeObserver {
    private let sink: (Result<Value, any Error>) -> Void

    @usableFromInline
    init(node: I<Value>, sink: @escaping (Result<Value, any Error>) -> Void) {
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
