extension SourceType {
    /// A source that shares one subscription to this source among all its subscribers.
    ///
    /// Operators such as ``map(_:)`` subscribe to their base once per subscriber, running
    /// the transform once per subscriber. A buffered source subscribes once, when its first
    /// subscriber arrives, delivers each value to every subscriber through a ``Signal``, and
    /// unsubscribes when the last one leaves.
    ///
    /// ```swift
    /// let parsed = lines.map(expensiveParse).buffered()   // parses each line once
    /// ```
    public func buffered() -> BufferedSource<Value> {
        BufferedSource(Source(self))
    }
}

/// A source that multicasts one subscription to its base; made by
/// ``SourceType/buffered()``.
///
/// Delivery follows ``Signal``: subscribers in order, reentrant values queued.
public final class BufferedSource<Value>: SourceType {
    private let base: Source<Value>
    private let signal = Signal<Value>()
    private var upstream: Connection?

    init(_ base: Source<Value>) {
        self.base = base
        signal.owner = self
        signal.activation = { [unowned self] active in
            if active {
                upstream = base.subscribe(signal)
            } else {
                let connection = upstream
                upstream = nil
                connection?.disconnect()
            }
        }
    }

    /// Whether the source is subscribed to its base (it has subscribers).
    public var isConnected: Bool { upstream != nil }

    /// Starts sending the base's values to `sink`.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        signal.subscribe(sink)
    }
}
