extension SourceType {
    /// A source that sends the values of the sources `transform` makes from each value,
    /// merged as they come: every inner source stays subscribed until the subscription
    /// disconnects.
    ///
    /// ```swift
    /// let messages = rooms.flatMap { room in room.messages }
    /// ```
    ///
    /// Glue's sources never end, so every inner source made stays subscribed; to keep only the
    /// latest, use ``flatMapLatest(_:)``. By ReactiveCore's `FlattenStateMachine`; values go
    /// out through a ``Signal`` of the subscription's own, so a sink is never nested.
    @inlinable
    public func flatMap<Inner: SourceType>(_ transform: @escaping (Value) -> Inner) -> FlattenedSource<Inner.Value> {
        FlattenedSource(base: self, policy: .merge(maximum: nil), transform: transform)
    }

    /// A source that sends the values of the source `transform` makes from the latest value
    /// only: a new value releases the inner source before it at once, and a value that source
    /// was still sending is dropped (`map` then `switchToLatest`, RxSwift's `flatMapLatest`).
    ///
    /// ```swift
    /// let results = queries.flatMapLatest { query in backend.results(for: query) }
    /// ```
    @inlinable
    public func flatMapLatest<Inner: SourceType>(
        _ transform: @escaping (Value) -> Inner
    ) -> FlattenedSource<Inner.Value> {
        FlattenedSource(base: self, policy: .latest, transform: transform)
    }
}

extension SourceType where Value: SourceType {
    /// A source that sends the values of the latest source this source sent: a new one
    /// releases the one before it at once (Combine's `switchToLatest`).
    @inlinable
    public func switchToLatest() -> FlattenedSource<Value.Value> {
        flatMapLatest { $0 }
    }
}

/// A source of the values of inner sources; made by ``SourceType/flatMap(_:)``,
/// ``SourceType/flatMapLatest(_:)`` and ``SourceType/switchToLatest()``.
public struct FlattenedSource<Value>: SourceType {
    @usableFromInline
    let subscribeImpl: (@escaping (Value) -> Void) -> Connection

    @inlinable
    init<Base: SourceType, Inner: SourceType>(
        base: Base, policy: FlattenStateMachine<Base.Value>.Policy, transform: @escaping (Base.Value) -> Inner
    ) where Inner.Value == Value {
        subscribeImpl = { sink in
            let link = FlattenLink<Base.Value, Inner>(policy: policy, sink: sink, transform: transform)
            return link.connect(base)
        }
    }

    /// Starts sending the inner sources' values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        subscribeImpl(sink)
    }
}

/// One subscription of a ``FlattenedSource``: the machine, and the inner subscriptions. Generic
/// over the inner sources' type, so that a switch subscribes to it directly, unboxed.
@usableFromInline final class FlattenLink<Outer, Inner: SourceType> {
    @usableFromInline var machine: FlattenStateMachine<Outer>
    @usableFromInline
    let transform: (Outer) -> Inner
    @usableFromInline
    let output = Signal<Inner.Value>()
    @usableFromInline
    let forwarding: Connection
    @usableFromInline
    var inners: [FlattenInnerID: Connection] = [:]

    @inlinable
    init(
        policy: FlattenStateMachine<Outer>.Policy, sink: @escaping (Inner.Value) -> Void,
        transform: @escaping (Outer) -> Inner
    ) {
        machine = FlattenStateMachine(policy)
        self.transform = transform
        forwarding = output.subscribe(sink)
    }

    @inlinable
    func connect(_ outer: some SourceType<Outer>) -> Connection {
        let upstream = outer.subscribe { value in
            guard case .subscribe(let value, let id, let releasing) = self.machine.outerSent(value) else { return }
            if let releasing { self.inners.removeValue(forKey: releasing)?.disconnect() }
            let connection = self.transform(value).subscribe { inner in
                if self.machine.innerMaySend(id) { self.output.send(inner) }
            }
            if self.machine.innerMaySend(id) { self.inners[id] = connection } else { connection.disconnect() }
        }
        return Connection(isolated: {
            upstream.disconnect()
            for id in self.machine.cancel() { self.inners.removeValue(forKey: id)?.disconnect() }
            self.forwarding.disconnect()
        })
    }
}
