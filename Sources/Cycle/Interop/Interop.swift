extension Inbox {
    /// Posts every element of `sequence` to the inbox, in order, until the sequence ends or
    /// the returned connection disconnects: the way an `AsyncSequence` (a socket's messages,
    /// a file's lines, notifications) becomes events of a loop.
    ///
    /// ```swift
    /// let feeding = inbox.feed(from: socket.messages)
    /// ```
    ///
    /// The elements are posted from a task of their own; the inbox hands them to its handler
    /// in the loop's domain, in order, as ``post(_:)`` does. After the connection
    /// disconnects nothing more is posted, except an element whose posting had already
    /// begun; releasing the connection disconnects too. `finished` runs once when the
    /// sequence ends on its own: with `nil`, or with the error it threw.
    public func feed<Elements: AsyncSequence & Sendable>(
        from sequence: Elements,
        finished: @escaping @Sendable (Elements.Failure?) -> Void = { _ in }
    ) -> Connection where Elements.Element == Message {
        feedConcurrently(sequence, receive: { [self] in post($0) }, finished: finished)
    }
}

extension CycleLoop {
    /// An `Observable` view of the loop's models for Observation and SwiftUI: it starts from
    /// ``currentModels``, follows the models after each event, and tells a view only about
    /// the members the view read. See `ObservedValue` in ReactiveCore for the rules.
    ///
    /// ```swift
    /// let models = loop.observedModels()
    /// withObservationTracking { print(models.screen) } onChange: { print("screen changes") }
    /// ```
    ///
    /// The observed value does not keep the loop alive, and stops changing when the loop is
    /// disposed. Call it in the loop's isolation domain (the main actor, for SwiftUI).
    public func observedModels() -> ObservedValue<Program.DriverModels> {
        ObservedValue(modelChanges, initial: currentModels)
    }
}

extension CycleLoop: CustomDebugStringConvertible {
    /// The program type, the number of events processed, and whether the loop is disposed.
    public var debugDescription: String {
        "CycleLoop<\(Program.self)>(processed events: \(processedEvents)\(isDisposed ? ", disposed" : ""))"
    }
}

extension EventSubject: CustomDebugStringConvertible {
    /// The value type and the number of subscribers.
    public var debugDescription: String {
        "EventSubject<\(Value.self)>(subscribers: \(subscriberCount))"
    }
}
