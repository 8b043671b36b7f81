extension ObservableValueType {
    /// An `Observable` view of this value for Observation and SwiftUI: it starts from the
    /// current value and follows every transaction that changes it, telling a view only
    /// about the members the view read. See `ObservedValue` in ReactiveCore for the rules.
    ///
    /// ```swift
    /// let name = person.name.observed()
    /// withObservationTracking { print(name.value) } onChange: { print("renamed") }
    /// ```
    ///
    /// Call it where the value is used (the main actor, for SwiftUI); it is updated there.
    public func observed() -> ObservedValue<Value> {
        ObservedValue(self, initial: value)
    }
}

extension Signal {
    /// Sends every element of `sequence` through the signal, in order, until the sequence
    /// ends or the returned connection disconnects.
    ///
    /// ```swift
    /// let feeding = messages.feed(from: socket.incomingMessages)
    /// ```
    ///
    /// The elements are sent on a task isolated to the caller's actor (the compiler rejects
    /// a call from code that is not on an actor), the domain a Glue signal lives in. After
    /// the connection disconnects, nothing more is sent; releasing it disconnects too.
    /// `finished` runs once when the sequence ends on its own: with `nil`, or with the error
    /// it threw.
    public func feed<Elements: AsyncSequence>(
        from sequence: sending Elements,
        isolation: isolated (any Actor) = #isolation,
        finished: @escaping (Elements.Failure?) -> Void = { _ in }
    ) -> Connection where Elements.Element == Value {
        feedIsolated(sequence, isolation: isolation, receive: { [self] in send($0) }, finished: finished)
    }
}

extension Variable: CustomDebugStringConvertible {
    /// The type and the current value, for the debugger and logs.
    public var debugDescription: String {
        "Variable<\(Value.self)>(\(value))"
    }
}

extension Signal: CustomDebugStringConvertible {
    /// The type and the number of subscribers, for the debugger and logs.
    public var debugDescription: String {
        "Signal<\(Value.self)>(\(subscriberCount) subscriber\(subscriberCount == 1 ? "" : "s"))"
    }
}
