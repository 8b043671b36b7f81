import Dispatch

extension Property {
    /// An `Observable` view of this property for Observation and SwiftUI: it starts from the
    /// current value, follows every change, and tells a view only about the members the view
    /// read. See `ObservedValue` in ReactiveCore for the rules.
    ///
    /// ```swift
    /// let temperature = sensor.reading.observed()
    /// withObservationTracking { print(temperature.value) } onChange: { print("changes") }
    /// ```
    ///
    /// The observed value is updated on the thread that changes the property (it is
    /// `Sendable`, and safe to read anywhere). SwiftUI expects changes on the main thread:
    /// change the property there, or observe a chain dispatched to the main queue with
    /// `ObservedValue(_:initial:)`.
    public func observed() -> ObservedValue<Value> {
        ObservedValue(didSet, initial: value)
    }
}

extension Signal {
    /// Fires the signal with every element of `sequence`, in order, until the sequence ends
    /// or the returned connection disconnects.
    ///
    /// ```swift
    /// let feeding = readings.feed(from: sensor.readings)
    /// ```
    ///
    /// The elements are fired from a task of their own, off any actor, as any thread may
    /// fire a signal. After the connection disconnects nothing more is fired, except an
    /// element whose firing had already begun; releasing the connection disconnects too.
    /// `finished` runs once when the sequence ends on its own: with `nil`, or with the error
    /// it threw.
    public func feed<Elements: AsyncSequence & Sendable>(
        from sequence: Elements,
        finished: @escaping @Sendable (Elements.Failure?) -> Void = { _ in }
    ) -> Connection where Elements.Element == Message {
        feedConcurrently(sequence, receive: { [self] in fire(with: $0) }, finished: finished)
    }
}

extension MessageSource: CustomDebugStringConvertible {
    /// The message type, the last message (if any) and the number of connected chains.
    public var debugDescription: String {
        let last = lastMessage.map { "last: \($0)" } ?? "no message yet"
        return "\(type(of: self))(\(last), connected: \(connectedCount))"
    }
}

extension Property: CustomDebugStringConvertible {
    /// The value type, the current value and the number of chains connected to ``didSet``.
    public var debugDescription: String {
        "Property<\(Value.self)>(\(value), connected: \(didSet.connectedCount))"
    }
}

extension Signal: CustomDebugStringConvertible {
    /// The message type, the last message (if any) and the number of chains connected to
    /// ``fired``.
    public var debugDescription: String {
        let last = fired.lastMessage.map { "last: \($0)" } ?? "no message yet"
        return "Signal<\(Message.self)>(\(last), connected: \(fired.connectedCount))"
    }
}

extension Property {
    /// An `Observable` view of this property that is updated on `queue`: what a SwiftUI view
    /// should use (`observed(on: .main)`) when the property changes on other threads.
    ///
    /// ```swift
    /// let reading = sensor.reading.observed(on: .main)
    /// ```
    ///
    /// It starts from the current value and takes each change when `queue` runs it, in the
    /// order the property changed.
    public func observed(on queue: DispatchQueue) -> ObservedValue<Value> {
        ObservedValue(didSet.dispatch(to: queue), initial: value)
    }
}
