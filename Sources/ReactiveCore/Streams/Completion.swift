/// How a stream ended: the vocabulary every paradigm with ending streams shares.
///
/// A stream sends any number of values, then at most one completion, and nothing after it.
/// Which endings a paradigm sends is part of its semantics:
///
/// | paradigm | ``finished`` | ``failed(_:)`` | ``interrupted`` |
/// | --- | --- | --- | --- |
/// | Glue sources | never: sources are values-only; an ending operator stops delivering and releases its input | never | never |
/// | Cycle's `EventStream` | yes | never (`Failure` is `Never`) | never |
/// | Signals' chains | yes | yes (`any Error`) | when a chain is removed before its end, or a source is interrupted |
///
/// ```swift
/// switch completion {
/// case .finished: print("done")
/// case .failed(let error): print("failed: \(error)")
/// case .interrupted: print("stopped before its end")
/// }
/// ```
public enum Completion<Failure: Error> {
    /// The stream sent everything it had to send.
    case finished
    /// The stream stopped because of `error`.
    case failed(Failure)
    /// The stream was stopped from outside before it could finish or fail (ReactiveSwift's
    /// interruption: its producer was disposed while it still ran).
    case interrupted
}

extension Completion: Sendable where Failure: Sendable {}
extension Completion: Equatable where Failure: Equatable {}
extension Completion: Hashable where Failure: Hashable {}

extension Completion {
    /// The same ending with its error transformed.
    public func mapFailure<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Completion<NewFailure> {
        switch self {
        case .finished: .finished
        case .failed(let error): .failed(transform(error))
        case .interrupted: .interrupted
        }
    }
}

extension Completion where Failure == Never {
    /// This ending, as one of a stream that may fail with `NewFailure`.
    public func promoted<NewFailure: Error>(to _: NewFailure.Type = NewFailure.self) -> Completion<NewFailure> {
        switch self {
        case .finished: .finished
        case .interrupted: .interrupted
        }
    }
}

/// One thing a stream delivers: a value, or its completion (always last).
///
/// ```swift
/// let connection = stream.subscribe(events: { event in
///     switch event {
///     case .value(let value): print(value)
///     case .completion(let completion): print("ended: \(completion)")
///     }
/// })
/// ```
public enum StreamEvent<Value, Failure: Error> {
    /// A value.
    case value(Value)
    /// The end of the stream: nothing follows it.
    case completion(Completion<Failure>)

    /// The value, if this event is one.
    public var value: Value? {
        if case .value(let value) = self { value } else { nil }
    }

    /// The completion, if this event is one.
    public var completion: Completion<Failure>? {
        if case .completion(let completion) = self { completion } else { nil }
    }

    /// The same event with its value transformed.
    public func map<Output>(_ transform: (Value) -> Output) -> StreamEvent<Output, Failure> {
        switch self {
        case .value(let value): .value(transform(value))
        case .completion(let completion): .completion(completion)
        }
    }
}

extension StreamEvent: Sendable where Value: Sendable, Failure: Sendable {}
extension StreamEvent: Equatable where Value: Equatable, Failure: Equatable {}
extension StreamEvent: Hashable where Value: Hashable, Failure: Hashable {}

/// A ``Subscribable`` whose streams can end: each subscriber receives values, then at most
/// one ``Completion``.
///
/// ```swift
/// func printAll(_ stream: some CompletableSubscribable<Int, Never>) -> Connection {
///     stream.subscribe(events: { print($0) })
/// }
/// ```
///
/// ``Subscribable/subscribe(_:)`` on such a stream delivers the values only. After the
/// completion, the subscription is over: its connection reports itself disconnected, and
/// disconnecting it does nothing more.
public protocol CompletableSubscribable<Value, Failure>: Subscribable {
    /// The type of the values delivered to sinks.
    associatedtype Value
    /// The error a stream can fail with; `Never` for streams that only finish.
    associatedtype Failure: Error

    /// Starts delivering values and the completion to `sink` until the returned connection
    /// disconnects or the stream ends.
    func subscribe(events sink: @escaping @Sendable (StreamEvent<Value, Failure>) -> Void) -> Connection
}
