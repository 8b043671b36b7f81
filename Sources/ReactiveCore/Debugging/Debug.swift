extension Subscribable {
    /// The same source, logging what happens to each subscription: when it starts, every
    /// value it delivers, and when it disconnects.
    ///
    /// ```swift
    /// let connection = counter.debug("counter").subscribe(isolated: { _ in })
    /// // counter: subscribed
    /// // counter: value 0
    /// connection.disconnect()
    /// // counter: disconnected
    /// ```
    ///
    /// Each subscription is numbered when there is more than one (`counter #2: value 3`),
    /// so interleaved subscriptions can be told apart. Values are delivered to the sink
    /// after they are logged, on the same thread, in the same order: `debug` changes
    /// nothing else.
    ///
    /// - Parameters:
    ///   - label: What each line starts with.
    ///   - log: Where lines go; `print` by default.
    public func debug(
        _ label: String = "\(Self.self)", log: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> DebugSubscribable<Self> {
        DebugSubscribable(base: self, label: label, log: log)
    }
}

/// A ``Subscribable`` that logs each subscription's start, values and disconnection; made
/// by ``Subscribable/debug(_:log:)``.
public struct DebugSubscribable<Base: Subscribable>: Subscribable {
    /// The values of the source.
    public typealias Value = Base.Value

    let base: Base
    let label: String
    let log: @Sendable (String) -> Void
    private let counter = SubscriptionCounter()

    init(base: Base, label: String, log: @escaping @Sendable (String) -> Void) {
        self.base = base
        self.label = label
        self.log = log
    }

    /// Subscribes to the source, logging the subscription, each value and the
    /// disconnection.
    public func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> Connection {
        let number = counter.next()
        let name = number == 1 ? "\(label):" : "\(label) #\(number):"
        let log = log
        log("\(name) subscribed")
        let connection = base.subscribe { value in
            log("\(name) value \(value)")
            sink(value)
        }
        connection.onDisconnect { log("\(name) disconnected") }
        return connection
    }

    /// Subscribes with a sink that is not `Sendable`, for single-threaded sources: the sink
    /// runs where the source delivers, which for a single-threaded paradigm is the isolation
    /// domain that subscribed. Do not use it with a source that delivers on other threads.
    public func subscribe(isolated sink: @escaping (Value) -> Void) -> Connection {
        let sink = IsolatedSink(sink)
        let forward: @Sendable (Value) -> Void = { sink($0) }
        return subscribe(forward)
    }
}

/// Numbers the subscriptions of one `debug` source.
private final class SubscriptionCounter: Sendable {
    private let count = LockedState(0)

    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}
