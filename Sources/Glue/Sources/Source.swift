/// A type-erased source of values.
///
/// Working with associated types is awkward, so Glue generally passes sources around as
/// `Source<Value>`. Wrap any ``SourceType`` with ``init(_:)`` or its ``SourceType/source``
/// property, or build one from a subscribe function with ``init(subscribe:)``.
///
/// ```swift
/// final class Button {
///     private let activationSignal = Signal<Void>()
///     var activationSource: Source<Void> { activationSignal.source }
/// }
/// ```
public struct Source<Value>: SourceType {
    private let subscribeImpl: (@escaping (Value) -> Void) -> Connection

    /// Wraps `base`.
    public init<Base: SourceType>(_ base: Base) where Base.Value == Value {
        if let base = base as? Source<Value> {
            self = base
        } else {
            subscribeImpl = { base.subscribe($0) }
        }
    }

    /// A source whose subscriptions are made by `subscribe`.
    ///
    /// The closure must return a connection that stops the sink when it disconnects, and
    /// keep what the subscription needs alive until then.
    public init(subscribe: @escaping (@escaping (Value) -> Void) -> Connection) {
        subscribeImpl = subscribe
    }

    /// Starts sending values to `sink` until the returned connection disconnects.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        subscribeImpl(sink)
    }

    /// A source that never sends anything.
    public static var empty: Source<Value> {
        Source { _ in Connection() }
    }

    /// A source that sends `value` to each new subscriber at once, and nothing more.
    public static func just(_ value: Value) -> Source<Value> {
        Source { sink in
            sink(value)
            return Connection()
        }
    }
}
