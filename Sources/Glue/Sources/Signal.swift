/// A source you send values through by hand.
///
/// ```swift
/// let signal = Signal<Int>()
/// signal.send(42)                    // does nothing: no subscribers
/// let connection = signal.subscribe { print("Got \($0)!") }
/// signal.send(23)                    // prints "Got 23!"
/// signal.send(7)                     // prints "Got 7!"
/// connection.disconnect()
/// ```
///
/// Keep the signal private and expose its read-only ``SourceType/source``, so that only its
/// owner can send.
///
/// ## Delivery
///
/// Sinks receive each value in the order they subscribed. A value sent while the signal
/// is delivering another (from a sink, or from code a sink calls) is queued and delivered
/// after the current delivery finishes, in the order sent: sinks are never nested. A sink
/// added during a delivery does not receive the value in flight, but does receive the
/// queued ones; a sink removed during a delivery receives nothing more. Delivering a
/// value allocates nothing.
public final class Signal<Value>: SourceType, SinkType {
    // The delivery path is inlinable so that it is specialized for the value type in the
    // caller's module: unspecialized generic code costs several times more per value.
    @usableFromInline
    struct Entry {
        @usableFromInline let key: Int
        @usableFromInline var sink: ((Value) -> Void)?

        @usableFromInline
        init(key: Int, sink: ((Value) -> Void)?) {
            self.key = key
            self.sink = sink
        }
    }

    @usableFromInline var entries: [Entry] = []
    private var nextKey = 0
    @usableFromInline var liveCount = 0
    @usableFromInline var isDelivering = false
    @usableFromInline var needsCompaction = false
    @usableFromInline var pending: [Value] = []
    @usableFromInline var pendingHead = 0

    /// Called with `true` when the first sink subscribes and with `false` when the last one
    /// leaves; derived sources use it to connect to their inputs only while observed.
    var activation: ((Bool) -> Void)?

    /// Kept strongly while the signal has subscribers, so that a connection keeps the
    /// signal's owner (a `Variable`, say) alive, not just the signal.
    private var retainedOwner: AnyObject?
    /// The object to retain while the signal has subscribers.
    weak var owner: AnyObject?

    /// Creates a signal with no subscribers.
    public init() {}

    /// Whether any sink is subscribed.
    public var isConnected: Bool { liveCount > 0 }

    /// The number of sinks subscribed.
    public var subscriberCount: Int { liveCount }

    /// Sends `value` to every subscribed sink, or queues it if a delivery is under way.
    @inlinable
    public func send(_ value: Value) {
        if isDelivering {
            pending.append(value)
            return
        }
        guard liveCount > 0 else { return }
        isDelivering = true
        deliver(value)
        if pendingHead < pending.count { drainPending() }
        isDelivering = false
        if needsCompaction { compact() }
    }

    /// Sends `value`; the same as ``send(_:)``, so that a signal can be a sink.
    @inlinable
    public func receive(_ value: Value) {
        send(value)
    }

    /// Starts sending values to `sink` until the returned connection disconnects.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let key = nextKey
        nextKey += 1
        entries.append(Entry(key: key, sink: sink))
        liveCount += 1
        if liveCount == 1 { setActive(true) }
        return Connection(isolated: { self.remove(key) })
    }

    @inlinable
    func deliver(_ value: Value) {
        // Sinks added during this delivery sit past `end` and miss the value in flight.
        let end = entries.count
        var index = 0
        while index < end {
            if let sink = entries[index].sink { sink(value) }
            index += 1
        }
    }

    @usableFromInline
    func drainPending() {
        while pendingHead < pending.count {
            let value = pending[pendingHead]
            pendingHead += 1
            deliver(value)
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
    }

    private func remove(_ key: Int) {
        guard let index = index(of: key), entries[index].sink != nil else { return }
        // The sink is released at the end of this method, after the signal is consistent:
        // its captures may have deinits that reach back into the signal.
        let removed = entries[index].sink
        if isDelivering {
            entries[index].sink = nil
            needsCompaction = true
        } else {
            entries.remove(at: index)
        }
        liveCount -= 1
        if liveCount == 0 { setActive(false) }
        _ = removed
    }

    /// Entries are appended with increasing keys and compaction keeps their order, so
    /// they can be searched by bisection.
    private func index(of key: Int) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].key == key ? low : nil
    }

    @usableFromInline
    func compact() {
        entries.removeAll { $0.sink == nil }
        needsCompaction = false
    }

    private func setActive(_ active: Bool) {
        if active {
            retainedOwner = owner
            activation?(true)
        } else {
            // The owner may be kept alive only by `retainedOwner`: let it deactivate first.
            activation?(false)
            retainedOwner = nil
        }
    }
}

extension Signal where Value == Void {
    /// Sends an empty value: for signals that only say that something happened.
    public func send() {
        send(())
    }
}
