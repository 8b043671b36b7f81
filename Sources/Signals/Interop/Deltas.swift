import Dispatch
import ReactiveCore

extension Property: DeltaTarget {
    /// Sets the property to the last value of the source's transaction: one message on
    /// `didSet` per transaction.
    ///
    /// A property is thread-safe, so any paradigm may drive it from its own domain; the
    /// property's chains then deliver on their executors, as for any write (the main queue by
    /// default, a `dispatch(to:)` queue, or inline on the bridge's thread after
    /// `noDispatch()`).
    ///
    /// ```swift
    /// let temperature = Property(value: 0)
    /// let bridge = reading.drive(temperature)   // `reading`: an Incremental node
    /// ```
    public func apply(_ deltas: [Value]) {
        if let last = deltas.last { value = last }
    }
}

extension Property {
    /// Makes `target` follow the property: its value at once, then each value written, one
    /// transaction per write (see ReactiveCore's `drive(_:)`).
    ///
    /// The values are delivered on the thread that writes the property, so only a target that
    /// is `Sendable` (another `Property`, a target that locks) is taken here: a
    /// single-threaded target (a Resin store, an Incremental input, a Glue variable, a
    /// SignalGraph storage) does not compile, because a write from another thread would call
    /// it there. Give such a target a hop with ``drive(_:on:)``, the queue it lives on:
    ///
    /// ```swift
    /// let mirror = Property(value: false)
    /// let bridge = monitor.isOnline.drive(mirror)                      // Sendable: any thread
    /// let toStore = monitor.isOnline.drive(store.actionTarget { IsOnline($0) }, on: .main)
    /// ```
    public func drive<Target: DeltaTarget & Sendable>(_ target: Target) -> Connection
    where Target.IncomingDelta == Value {
        PropertyDeltas(property: self, messages: didSet).drive(target)
    }

    /// Makes `target`, which lives on `queue` (the main queue, for the main actor), follow the
    /// property: each value written, on any thread, is delivered to the target on `queue`.
    ///
    /// The value at the time of the call arrives first, on `queue` too: the target is touched
    /// only there, and a bridge disconnected from another thread ends the target's transaction
    /// there.
    public func drive<Target: DeltaTarget>(_ target: Target, on queue: DispatchQueue) -> Connection
    where Target.IncomingDelta == Value {
        PropertyDeltas(property: self, messages: didSet.dispatch(to: queue)).drive(target)
    }

    /// Makes `target` follow the property with no hop: each value is delivered to the target on
    /// the thread that writes the property, at once.
    ///
    /// Only for a program that writes the property from the target's isolation domain alone
    /// (a single-threaded program, a test): a write from another thread would call the target
    /// there, a data race the compiler cannot see. Otherwise use ``drive(_:on:)``.
    public func driveOnWritingThread<Target: DeltaTarget>(_ target: Target) -> Connection
    where Target.IncomingDelta == Value {
        PropertyDeltas(property: self, messages: didSet).drive(target)
    }
}

/// A property's values as deltas, through `messages` (its `didSet`, perhaps dispatched): what
/// the property's `drive` methods bridge from. Named by the property, so that a ring of
/// bridges through it stops where a change began.
struct PropertyDeltas<Value: Sendable, Messages: Subscribable>: DeltaSource where Messages.Value == Value {
    let property: Property<Value>
    let messages: Messages

    func subscribeDeltas(_ sink: @escaping (DeltaEvent<Value>) -> Void) -> Connection {
        ValueDeltas(messages).subscribeDeltas(sink)
    }

    var bridgeIdentity: ObjectIdentifier? { ObjectIdentifier(property) }
}
