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
    // The delivery rules are ReactiveCore's `Broadcaster`, shared with the other
    // single-threaded paradigms; its delivery path is inlinable, so it is specialized for
    // the value type in the caller's module.
    @usableFromInline let broadcaster = Broadcaster<Value>()

    /// Called with `true` when the first sink subscribes and with `false` when the last one
    /// leaves; derived sources use it to connect to their inputs only while observed.
    var activation: ((Bool) -> Void)?

    /// Kept strongly while the signal has subscribers, so that a connection keeps the
    /// signal's owner (a `Variable`, say) alive, not just the signal.
    private var retainedOwner: AnyObject?
    /// The object to retain while the signal has subscribers.
    weak var owner: AnyObject?
    /// Whether the signal reports changes its owner has already applied to its value (an
    /// observable's updates): a sink added during a delivery then starts from that value,
    /// which already holds every update still queued, so it skips them instead of applying
    /// them twice.
    private let reportsAppliedChanges: Bool

    /// Creates a signal with no subscribers.
    public init() {
        reportsAppliedChanges = false
    }

    /// Creates the signal of an observable's updates, whose value runs ahead of them.
    static func reportingAppliedChanges<Change>() -> Signal where Value == Update<Change> {
        let signal = Signal(reportsAppliedChanges: true)
        #if GLUE_INTERNAL_CHECKS
            var wire = TransactionWire()
            signal._checkSent = { wire.note($0) }
        #endif
        return signal
    }

    #if GLUE_INTERNAL_CHECKS
        /// Checks each value sent (an observable's updates: G1).
        @usableFromInline var _checkSent: ((Value) -> Void)?
    #endif

    private init(reportsAppliedChanges: Bool) {
        self.reportsAppliedChanges = reportsAppliedChanges
    }

    /// Whether any sink is subscribed.
    public var isConnected: Bool { !broadcaster.isEmpty }

    /// The number of sinks subscribed.
    public var subscriberCount: Int { broadcaster.count }

    /// Sends `value` to every subscribed sink, or queues it if a delivery is under way.
    @inlinable
    public func send(_ value: Value) {
        #if GLUE_INTERNAL_CHECKS
            _checkSent?(value)
        #endif
        broadcaster.send(value)
    }

    /// Sends `value`; the same as ``send(_:)``, so that a signal can be a sink.
    @inlinable
    public func receive(_ value: Value) {
        send(value)
    }

    /// Starts sending values to `sink` until the returned connection disconnects.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let key = broadcaster.add(sink, skippingQueued: reportsAppliedChanges)
        if broadcaster.count == 1 { setActive(true) }
        checkInvariantsAfterOperation()
        return Connection(isolated: { self.remove(key) })
    }

    private func remove(_ key: Int) {
        // The sink is released at the end of this method, after the signal is consistent:
        // its captures may have deinits that reach back into the signal.
        guard let removed = broadcaster.remove(key) else { return }
        if broadcaster.isEmpty { setActive(false) }
        checkInvariantsAfterOperation()
        _ = removed
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

// MARK: - Invariants (Documentation/Internals/Glue.md)

extension Signal {
    @inline(__always)
    private func checkInvariantsAfterOperation() {
        #if GLUE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks G5, stopping with a message that names it when broken. Does nothing unless the
    /// module is built with `GLUE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if GLUE_INTERNAL_CHECKS
            if broadcaster.isEmpty {
                glueCheck(retainedOwner == nil, "G5", "a signal with no subscriber keeps its owner")
            } else {
                glueCheck(retainedOwner === owner, "G5", "a subscribed signal does not keep its owner")
            }
        #endif
    }
}

extension Signal where Value == Void {
    /// Sends an empty value: for signals that only say that something happened.
    public func send() {
        send(())
    }
}
