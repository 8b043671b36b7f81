/// A stream of values in one isolation domain: the wiring between a Cycle program and its
/// drivers.
///
/// The seed's streams were RxSwift observables. Cycle does not depend on RxSwift: a loop needs
/// only subscribe, map, filter and merge, delivered synchronously and in order, so that the
/// order of events and models is deterministic and testable on virtual time. Swift
/// concurrency's `AsyncSequence` would make every hop a suspension and the order a matter of
/// scheduling; a synchronous stream keeps the loop's order exact, and drivers that work on
/// other threads enter the loop through an ``Inbox``.
///
/// ```swift
/// let doubled = numbers.map { $0 * 2 }.filter { $0 > 10 }
/// ```
public struct EventStream<Value>: Subscribable {
    private let subscribeImpl: (@escaping (Value) -> Void) -> Connection

    /// A stream whose subscriptions are made by `subscribe`.
    public init(subscribe: @escaping (@escaping (Value) -> Void) -> Connection) {
        subscribeImpl = subscribe
    }

    /// Starts sending values to `sink` until the connection disconnects.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        subscribeImpl(sink)
    }

    /// The stream of `transform` of each value.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> EventStream<Output> {
        let subscribe = subscribeImpl
        return EventStream<Output> { sink in subscribe { sink(transform($0)) } }
    }

    /// The values for which `isIncluded` is true.
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> EventStream<Value> {
        let subscribe = subscribeImpl
        return EventStream { sink in subscribe { if isIncluded($0) { sink($0) } } }
    }

    /// The non-`nil` results of `transform`.
    public func compactMap<Output>(_ transform: @escaping (Value) -> Output?) -> EventStream<Output> {
        let subscribe = subscribeImpl
        return EventStream<Output> { sink in subscribe { if let output = transform($0) { sink(output) } } }
    }

    /// The values of all `streams`, as they come.
    public static func merge(_ streams: [EventStream<Value>]) -> EventStream<Value> {
        EventStream { sink in
            let connections = streams.map { $0.subscribe(sink) }
            return Connection(isolated: { for connection in connections { connection.disconnect() } })
        }
    }

    /// The values of all `streams`, as they come.
    public static func merge(_ streams: EventStream<Value>...) -> EventStream<Value> {
        merge(streams)
    }

    /// The values paced by `rule` on `scheduler`: a throttle or a debounce, as ReactiveCore's
    /// `PacingRule` defines them, with pauses of `pause`.
    ///
    /// ```swift
    /// let queries = typed.paced(.throttle(latest: true), pause: .milliseconds(300), scheduler: scheduler)
    /// let saves = edits.paced(.debounce, pause: .seconds(1), scheduler: scheduler)
    /// ```
    ///
    /// Each subscription paces on its own; the scheduler runs the pauses in the loop's domain
    /// (as a ``TimerDriver``'s ticks). Disconnecting drops a held value.
    ///
    /// - Precondition: `pause` is not negative (checked by ReactiveCore's `PacingStateMachine`
    ///   when the stream is subscribed).
    public func paced(_ rule: PacingRule, pause: Duration, scheduler: some Scheduler) -> EventStream<Value> {
        let subscribe = subscribeImpl
        return EventStream { sink in
            Pacer.connect(rule, pause: pause, scheduler: scheduler, subscribe: subscribe, output: sink)
        }
    }

    /// A stream that never sends anything.
    public static var empty: EventStream<Value> {
        EventStream { _ in Connection() }
    }
}

/// Sends values to the subscribers of its ``stream``, in the order they subscribed.
///
/// Delivery follows ReactiveCore's `Broadcaster`: a value sent while another is being
/// delivered (from a subscriber, or from code it calls) is queued and delivered after the
/// current one has reached every subscriber, in the order sent, never nested; a subscriber
/// disconnected during a delivery receives nothing more, not even the value in flight; one
/// that subscribes during a delivery misses the value in flight and receives the queued ones.
public final class EventSubject<Value> {
    private let broadcaster = Broadcaster<Value>()

    /// A subject with no subscribers.
    public init() {}

    /// The stream of what the subject sends.
    public var stream: EventStream<Value> {
        EventStream { [broadcaster] sink in broadcaster.subscribe(sink) }
    }

    /// Sends `value` to every subscriber, or queues it if a delivery is under way.
    public func send(_ value: Value) {
        broadcaster.send(value)
    }

    /// The number of subscribers.
    public var subscriberCount: Int { broadcaster.count }
}
