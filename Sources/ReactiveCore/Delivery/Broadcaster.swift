/// Delivers values to a list of sinks in one isolation domain: in order, one value at a time,
/// never nested. The delivery loop every single-threaded paradigm of this package shares.
///
/// ```swift
/// let broadcaster = Broadcaster<Int>()
/// let first = broadcaster.add { value in
///     print("first", value)
///     if value == 1 { broadcaster.send(2) }   // queued: delivered after 1 reaches everyone
/// }
/// let second = broadcaster.add { print("second", $0) }
/// broadcaster.send(1)   // first 1, second 1, first 2, second 2
/// broadcaster.remove(first)    // `first` captures the broadcaster: until it is
/// broadcaster.remove(second)   // removed, the two keep each other alive
/// ```
///
/// ## Delivery
///
/// - **In order.** Sinks receive each value in the order they were added.
/// - **Never nested, first in first out.** A value sent while a delivery is under way (from
///   a sink, or from code a sink calls) is queued, and delivered after the current value
///   has reached every sink, in the order sent.
/// - **Removed means removed.** A sink removed during a delivery receives nothing more: not
///   the rest of the value in flight, not the queued ones.
/// - **Added during a delivery:** the sink does not receive the value in flight, and does
///   receive the values queued after it. A sink added with `skippingQueued: true` does not
///   receive the values queued before it either: only those sent after it was added. That is
///   the rule for a broadcaster of changes to state its owner has already applied (an
///   observable's changes): the sink starts from the current state, which already holds
///   every change still waiting, and would apply them twice.
/// - Delivering a value allocates nothing; the delivery path is inlinable, so it is
///   specialized for the value type where `send` is called.
///
/// A broadcaster belongs to the isolation domain that uses it; it is not thread-safe.
public final class Broadcaster<Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline let key: Int
        @usableFromInline var sink: ((Value) -> Void)?
        /// The number of the last value this sink does not receive: values are numbered from
        /// 1 in the order they are delivered.
        @usableFromInline let since: Int

        @usableFromInline
        init(key: Int, sink: ((Value) -> Void)?, since: Int) {
            self.key = key
            self.sink = sink
            self.since = since
        }
    }

    // Unchecked exclusivity: no access to these is held across a call to a sink (a sink is
    // copied out of `entries` before it runs, and may then add, remove or send freely), so
    // accesses never overlap; the dynamic checks cost more than the delivery itself.
    @exclusivity(unchecked) @usableFromInline var entries: [Entry] = []
    @exclusivity(unchecked) private var nextKey = 0
    @exclusivity(unchecked) @usableFromInline var liveCount = 0
    @exclusivity(unchecked) @usableFromInline var needsCompaction = false
    /// How many values were accepted for delivery (delivered at once or queued), and how many
    /// of those were delivered. Every accepted value is delivered once, in the order accepted,
    /// so value number `n` is the `n`th accepted; `accepted - delivered` are waiting.
    @exclusivity(unchecked) @usableFromInline var accepted = 0
    @exclusivity(unchecked) @usableFromInline var delivered = 0
    /// The value being delivered and those sent meanwhile.
    @usableFromInline let deliveries = SerialQueue<Value>()

    /// A broadcaster with no sinks.
    public init() {}

    /// The number of sinks.
    public var count: Int { liveCount }

    /// Whether there are no sinks.
    public var isEmpty: Bool { liveCount == 0 }

    /// How many values were delivered (each to every sink there was), for inspection; values
    /// sent while no sink was there are not counted.
    public var deliveredCount: Int { delivered }

    /// Delivers `value` to every sink, or queues it if a delivery is under way.
    @inlinable
    public func send(_ value: Value) {
        guard liveCount > 0 || deliveries.isProcessing else { return }
        accepted += 1
        deliveries.submit(value) { deliver($0) }
        if needsCompaction && !deliveries.isProcessing { compact() }
        checkInvariantsAfterOperation()
    }

    /// Adds `sink` after the others; returns the key that removes it.
    ///
    /// Added during a delivery, the sink misses the value in flight; it receives the values
    /// queued behind it unless `skippingQueued` is `true`, in which case it receives only the
    /// values sent after this call.
    public func add(_ sink: @escaping (Value) -> Void, skippingQueued: Bool = false) -> Int {
        let key = nextKey
        nextKey += 1
        entries.append(Entry(key: key, sink: sink, since: skippingQueued ? accepted : delivered))
        liveCount += 1
        checkInvariantsAfterOperation()
        return key
    }

    /// Removes the sink added with `key`, if it is still there, and returns it; it receives
    /// nothing more, even during a delivery under way.
    ///
    /// The sink is returned rather than released here so that the caller can release it
    /// once its own state is consistent: a sink's captures may have deinitializers that
    /// reach back into the caller.
    @discardableResult
    public func remove(_ key: Int) -> ((Value) -> Void)? {
        guard let index = index(of: key), let sink = entries[index].sink else { return nil }
        if deliveries.isProcessing {
            entries[index].sink = nil
            needsCompaction = true
        } else {
            entries.remove(at: index)
        }
        liveCount -= 1
        checkInvariantsAfterOperation()
        return sink
    }

    @inlinable
    func deliver(_ value: Value) {
        // Sinks added during this delivery sit past `end` and miss the value in flight; a
        // sink removed during it has no closure any more; a sink added while this value
        // waited, skipping the queued ones, has a `since` of at least its number.
        delivered += 1
        let number = delivered
        let end = entries.count
        var index = 0
        while index < end {
            if entries[index].since < number, let sink = entries[index].sink { sink(value) }
            index += 1
        }
    }

    /// Entries are appended with increasing keys and compaction keeps their order, so they
    /// can be searched by bisection.
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
}

extension Broadcaster: Subscribable {
    /// Adds `sink` until the returned connection disconnects (or is released). While it is
    /// connected, the connection keeps the broadcaster alive, as `Subscribable` requires.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let key = add(sink)
        return Connection(isolated: {
            // The sink is released after `remove` returns, once the broadcaster is consistent.
            let removed = self.remove(key)
            _ = removed
        })
    }
}

// MARK: - Invariants (Documentation/Internals/ReactiveCore.md)

extension Broadcaster {
    /// Called after every public operation (a send that returns, an add, a remove).
    @inlinable @inline(__always)
    func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks B1, B2 and B5, stopping with a message that names the one broken. Does nothing
    /// unless the module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    @usableFromInline
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            let delivering = deliveries.isProcessing
            reactiveCoreCheck(
                delivered <= accepted, "B1", "\(delivered) values delivered of \(accepted) accepted")
            reactiveCoreCheck(
                delivering || delivered == accepted, "B1",
                "no delivery is under way, yet \(accepted - delivered) accepted values wait")
            var previousKey = Int.min
            var live = 0
            for entry in entries {
                reactiveCoreCheck(
                    entry.since <= accepted, "B2",
                    "a sink starts after value \(entry.since), but only \(accepted) were accepted")
                reactiveCoreCheck(
                    previousKey < entry.key, "B5", "sink keys out of order (\(previousKey), then \(entry.key))")
                previousKey = entry.key
                if entry.sink != nil { live += 1 }
            }
            reactiveCoreCheck(live == liveCount, "B5", "\(live) sinks present, but the count says \(liveCount)")
            reactiveCoreCheck(
                delivering || needsCompaction || live == entries.count, "B5",
                "a removed sink's entry remains with no compaction due")
            deliveries._checkInvariants()
        #endif
    }
}
