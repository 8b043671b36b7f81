import Dispatch

extension SourceType where Value: Sendable {
    /// A source that delivers this source's values on `queue`: the way out of Glue's
    /// isolation domain.
    ///
    /// Glue's types live in one isolation domain. To hand values to code on another queue
    /// or thread, dispatch them; the sink then runs on `queue`, so it must be `@Sendable`.
    ///
    /// ```swift
    /// let connection = results.dispatch(on: .global()).subscribe { result in store(result) }
    /// ```
    ///
    /// Values arrive on `queue` in the order this source sent them (on a serial queue, one
    /// at a time). After the connection disconnects, values still waiting on the queue are
    /// dropped. Subscribe and disconnect in the source's domain.
    public func dispatch(on queue: DispatchQueue) -> DispatchedSource<Self> {
        DispatchedSource(base: self, queue: queue)
    }
}

/// A source whose values are delivered on a queue; made by ``SourceType/dispatch(on:)``.
///
/// It is a `Subscribable` rather than a ``SourceType``: its sinks run on
/// another queue, so they must be `@Sendable`.
public struct DispatchedSource<Base: SourceType>: Subscribable where Base.Value: Sendable {
    let base: Base
    /// The queue sinks run on.
    public let queue: DispatchQueue

    /// Starts delivering the base's values to `sink` on ``queue``.
    public func subscribe(_ sink: @escaping @Sendable (Base.Value) -> Void) -> Connection {
        let gate = DeliveryGate()
        let queue = queue
        let connection = base.subscribe { value in
            queue.async {
                if gate.isOpen { sink(value) }
            }
        }
        connection.onDisconnect { gate.close() }
        return connection
    }
}

/// Lets values through until closed; closed when the subscription ends.
final class DeliveryGate: Sendable {
    private let state = LockedState(true)

    var isOpen: Bool { state.withLock { $0 } }

    func close() {
        state.withLock { $0 = false }
    }
}
