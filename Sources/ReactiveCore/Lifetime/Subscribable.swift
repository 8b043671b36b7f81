/// The uniform view of anything you can observe: subscribe with a closure, get a
/// ``Connection``.
///
/// Every paradigm's observable things conform: Glue's sources and observables,
/// Incremental's observed values, SignalGraph's emitters, Resin's stores, Cycle's streams
/// and Signals' endpoints. Code written against `Subscribable` (the shared test suite,
/// the example programs, the `AsyncSequence` bridge ``values``) treats them all alike.
///
/// ```swift
/// func printAll(_ source: some Subscribable<Int>) -> Connection {
///     source.subscribe { print($0) }
/// }
/// ```
///
/// The requirement takes a `@Sendable` sink so that thread-safe paradigms can conform
/// soundly. A single-threaded paradigm satisfies it with its own `subscribe(_:)` that
/// accepts any closure, so its users are not asked for `@Sendable` closures when they
/// call it directly.
///
/// What a conforming type delivers on subscription (the current value, the last value, or
/// nothing until the next change), in which order, and on which thread, is part of each
/// paradigm's documented semantics.
public protocol Subscribable<Value> {
    /// The type of the values delivered to sinks.
    associatedtype Value

    /// Starts delivering values to `sink` until the returned connection disconnects.
    ///
    /// The connection keeps the subscription (and, while it is active, the source and the
    /// sink) alive; releasing it disconnects.
    func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> Connection
}
