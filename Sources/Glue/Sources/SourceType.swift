/// Something you can subscribe to, to receive a stream of values.
///
/// ```swift
/// let connection = midnight.subscribe { notification in print("Ding dong!") }
/// ```
///
/// The subscription, and the source, stay alive until the returned `Connection`
/// disconnects or is released: active connections hold their source and sink strongly.
///
/// Sources are used in one isolation domain (see <doc:Semantics>). Operators such as
/// ``SourceType/map(_:)`` and ``SourceType/filter(_:)`` build new sources from old ones;
/// ``Source`` is the type-erased form.
public protocol SourceType<Value>: Subscribable {
    /// The type of the values the source sends.
    associatedtype Value

    /// Starts sending values to `sink` until the returned connection disconnects.
    func subscribe(_ sink: @escaping (Value) -> Void) -> Connection
}

/// Something that receives values: the other end of a subscription.
///
/// ``Signal`` and ``Variable`` are sinks, so one source can feed another:
///
/// ```swift
/// let connection = clicks.subscribe(counter)   // each click is sent to `counter`
/// ```
public protocol SinkType<Value> {
    /// The type of the values the sink receives.
    associatedtype Value

    /// Receives one value.
    func receive(_ value: Value)
}

extension SourceType {
    /// Sends every value of this source to `sink` until the connection disconnects.
    public func subscribe<Sink: SinkType>(_ sink: Sink) -> Connection where Sink.Value == Value {
        subscribe { sink.receive($0) }
    }

    /// This source, type-erased.
    public var source: Source<Value> {
        Source(self)
    }
}
