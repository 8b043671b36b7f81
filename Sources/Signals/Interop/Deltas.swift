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

extension Property: DeltaSource {
    /// Sends the value as one transaction, at once, then each value written, one transaction
    /// per write: what the conformance to `DeltaSource` uses.
    ///
    /// The deltas are sent inline on the thread that writes the property (as
    /// `didSet.subscribe` delivers), and a bridge applies them there. To drive a
    /// single-threaded paradigm, write the property from that paradigm's domain, or bridge
    /// from a chain dispatched to it: `ValueDeltas(property.didSet.dispatch(to: .main))`
    /// delivers on the main queue.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Value>) -> Void) -> Connection {
        ValueDeltas(didSet).subscribeDeltas(sink)
    }

    /// The property, the object a bridge into it names as its target: so that two properties
    /// that drive each other stop where a change began (see `drive(_:)`).
    public var bridgeIdentity: ObjectIdentifier? { ObjectIdentifier(self) }
}
