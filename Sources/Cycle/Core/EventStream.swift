/// A stream of values in one isolation domain, which may finish: the wiring between a Cycle
/// program and its drivers.
///
/// The seed's streams were RxSwift observables. Cycle does not depend on RxSwift: a loop needs
/// streams delivered synchronously and in order, so that the order of events and models is
/// deterministic and testable on virtual time. Swift concurrency's `AsyncSequence` would make
/// every hop a suspension and the order a matter of scheduling; a synchronous stream keeps the
/// loop's order exact, and drivers that work on other threads enter the loop through an
/// ``Inbox``.
///
/// ```swift
/// let doubled = numbers.map { $0 * 2 }.filter { $0 > 10 }
/// ```
///
/// A stream sends values, then at most one completion, `.finished` (xstream's `complete`;
/// Cycle's streams do not fail), and nothing after it. A subscription ends with the
/// completion: its connection reports itself disconnected, and what the stream held for it
/// is released at once, before the completion is delivered. The loop and the drivers take values only; operators that need an end
/// (``last()``, ``reduce(_:_:)``, ``append(_:)``, ``collect()``) wait for it.
public struct EventStream<Value>: CompletableSubscribable {
    /// Cycle's streams finish and never fail.
    public typealias Failure = Never

    private let subscribeImpl: (@escaping (StreamEvent<Value, Never>) -> Void) -> Connection

    /// A stream that never finishes, whose subscriptions are made by `subscribe`.
    public init(subscribe: @escaping (@escaping (Value) -> Void) -> Connection) {
        subscribeImpl = { sink in subscribe { sink(.value($0)) } }
    }

    /// A stream whose subscriptions are made by `subscribeEvents`, which may finish.
    ///
    /// What `subscribeEvents` sends after a completion is dropped, and the connection it
    /// returned is disconnected when the completion comes, so the stream needs no bookkeeping
    /// of its own to keep those rules.
    ///
    /// ```swift
    /// let countdown = EventStream<Int>(subscribeEvents: { sink in
    ///     for value in [3, 2, 1] { sink(.value(value)) }
    ///     sink(.completion(.finished))
    ///     return Connection()
    /// })
    /// ```
    ///
    /// (A trailing closure, `EventStream { sink in ... }`, makes a stream of values with
    /// ``init(subscribe:)``: this initializer is named.)
    @_disfavoredOverload
    public init(subscribeEvents: @escaping (@escaping (StreamEvent<Value, Never>) -> Void) -> Connection) {
        subscribeImpl = subscribeEvents
    }

    /// Starts sending values and the completion to `sink` until the connection disconnects or
    /// the stream finishes. (A trailing closure, `subscribe { ... }`, subscribes to the values
    /// with ``subscribe(_:)``.)
    @_disfavoredOverload
    public func subscribe(events sink: @escaping (StreamEvent<Value, Never>) -> Void) -> Connection {
        let gate = CompletionGate()
        let connection = Connection(isolated: { gate.end() })
        gate.connection.set(connection)
        let upstream = subscribeImpl { event in
            guard !gate.isEnded else { return }
            // The end disconnects the subscriber's connection, which releases the upstream.
            if case .completion = event { gate.connection.take()?.disconnect() }
            sink(event)
        }
        gate.hold(upstream)
        return connection
    }

    /// Starts sending values to `sink` until the connection disconnects or the stream
    /// finishes.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        subscribe(events: { if case .value(let value) = $0 { sink(value) } })
    }

    /// Starts sending values to `sink`, and calls `onCompleted` when the stream finishes.
    ///
    /// ```swift
    /// let connection = countdown.subscribe({ print($0) }, onCompleted: { print("lift-off") })
    /// ```
    public func subscribe(_ sink: @escaping (Value) -> Void, onCompleted: @escaping () -> Void) -> Connection {
        subscribe(events: { event in
            switch event {
            case .value(let value): sink(value)
            case .completion: onCompleted()
            }
        })
    }

    /// The stream of `transform` of each value.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> EventStream<Output> {
        EventStream<Output>(subscribeEvents: { sink in subscribe(events: { sink($0.map(transform)) }) })
    }

    /// The values for which `isIncluded` is true.
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            subscribe(events: { event in
                if case .value(let value) = event, !isIncluded(value) { return }
                sink(event)
            })
        })
    }

    /// The non-`nil` results of `transform`.
    public func compactMap<Output>(_ transform: @escaping (Value) -> Output?) -> EventStream<Output> {
        EventStream<Output>(subscribeEvents: { sink in
            subscribe(events: { event in
                switch event {
                case .value(let value): if let output = transform(value) { sink(.value(output)) }
                case .completion(let completion): sink(.completion(completion))
                }
            })
        })
    }

    /// The values of all `streams`, as they come; finishes when every one has finished.
    public static func merge(_ streams: [EventStream<Value>]) -> EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            var running = streams.count
            if running == 0 { sink(.completion(.finished)) }
            let connections = streams.map { stream in
                stream.subscribe(events: { event in
                    switch event {
                    case .value: sink(event)
                    case .completion:
                        running -= 1
                        if running == 0 { sink(event) }
                    }
                })
            }
            return Connection(isolated: { for connection in connections { connection.disconnect() } })
        })
    }

    /// The values of all `streams`, as they come; finishes when every one has finished.
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
    /// (as a ``TimerDriver``'s ticks). When the stream finishes, a value held for the end of
    /// a pause is sent at once, then the completion (as RxSwift's `debounce` does).
    /// Disconnecting drops a held value.
    ///
    /// - Precondition: `pause` is not negative (checked by ReactiveCore's `PacingStateMachine`
    ///   when the stream is subscribed).
    public func paced(_ rule: PacingRule, pause: Duration, scheduler: some Scheduler) -> EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            let pacer = Pacer<Value>(rule, pause: pause, scheduler: scheduler) { sink(.value($0)) }
            let upstream = subscribe(events: { event in
                switch event {
                case .value(let value):
                    pacer.send(value)
                case .completion:
                    let held = pacer.held
                    pacer.cancel()
                    if let held { sink(.value(held)) }
                    sink(event)
                }
            })
            return Connection(isolated: {
                upstream.disconnect()
                pacer.cancel()
            })
        })
    }

    /// The values throttled on the edges chosen, in RxJS's terms (`throttleTime` with
    /// `leading` and `trailing`): ``paced(_:pause:scheduler:)`` with ReactiveCore's
    /// `PacingRule.throttle(leading:trailing:)`. A value that arrives while no pause is
    /// running starts one, and passes at once if `leading`; if `trailing`, the latest value
    /// of a pause (or the one that started it, if not `leading`) passes when it ends.
    ///
    /// ```swift
    /// let saves = edits.throttle(pause: .seconds(1), leading: false, trailing: true, scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `pause` is not negative, and `leading` or `trailing` is true.
    public func throttle(pause: Duration, leading: Bool, trailing: Bool, scheduler: some Scheduler) -> EventStream<
        Value
    > {
        paced(.throttle(leading: leading, trailing: trailing), pause: pause, scheduler: scheduler)
    }

    /// A stream that finishes at once, sending nothing (xstream's `empty`).
    public static var empty: EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            sink(.completion(.finished))
            return Connection()
        })
    }

    /// A stream that never sends anything and never finishes (xstream's `never`).
    public static var never: EventStream<Value> {
        EventStream(subscribe: { _ in Connection() })
    }

    /// A stream that sends `values` to each subscriber as it subscribes, then finishes
    /// (xstream's `of` and `fromArray`).
    ///
    /// ```swift
    /// let steps = EventStream.of(1, 2, 3)
    /// ```
    public static func of(_ values: Value...) -> EventStream<Value> {
        from(values)
    }

    /// A stream that sends the elements of `values` to each subscriber as it subscribes, then
    /// finishes.
    public static func from(_ values: some Sequence<Value>) -> EventStream<Value> {
        let values = Array(values)
        return EventStream(subscribeEvents: { sink in
            for value in values { sink(.value(value)) }
            sink(.completion(.finished))
            return Connection()
        })
    }
}

/// One subscription's end: whether the completion came (or the subscriber disconnected), and
/// the connection to release then.
final class CompletionGate {
    private(set) var isEnded = false
    private var upstream: Connection?
    /// The subscriber's connection, disconnected by the completion so that it reports the
    /// end. Its action (``end()``) releases it first.
    var connection = SelfConnection()

    /// Keeps `connection` to release at the end, or releases it now if the end already came
    /// (a stream that finished while being subscribed).
    func hold(_ connection: Connection) {
        if isEnded { connection.disconnect() } else { upstream = connection }
    }

    func end() {
        connection.release()
        guard !isEnded else { return }
        isEnded = true
        let connection = upstream
        upstream = nil
        connection?.disconnect()
    }
}

/// Sends values, and at most one completion, to the subscribers of its ``stream``, in the
/// order they subscribed.
///
/// Delivery follows ReactiveCore's `Broadcaster`: a value sent while another is being
/// delivered (from a subscriber, or from code it calls) is queued and delivered after the
/// current one has reached every subscriber, in the order sent, never nested; a subscriber
/// disconnected during a delivery receives nothing more, not even the value in flight; one
/// that subscribes during a delivery misses the value in flight and receives the queued ones.
///
/// ``finish()`` ends the subject: its subscribers receive the completion, later subscribers
/// receive it at once, and later values are dropped (an RxSwift subject's rule).
public final class EventSubject<Value> {
    private let broadcaster = Broadcaster<StreamEvent<Value, Never>>()
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false

    /// A subject with no subscribers.
    public init() {}

    /// The stream of what the subject sends.
    public var stream: EventStream<Value> {
        EventStream(subscribeEvents: { [self] sink in
            if isFinished {
                sink(.completion(.finished))
                return Connection()
            }
            return broadcaster.subscribe(sink)
        })
    }

    /// Sends `value` to every subscriber, or queues it if a delivery is under way; does
    /// nothing once the subject has finished.
    public func send(_ value: Value) {
        guard !isFinished else { return }
        broadcaster.send(.value(value))
    }

    /// Finishes the subject: every subscriber receives the completion, after the values
    /// queued before it; nothing is sent after it. Finishing twice does nothing.
    public func finish() {
        guard !isFinished else { return }
        isFinished = true
        broadcaster.send(.completion(.finished))
    }

    /// Sends `event`: a value, or the completion.
    public func send(event: StreamEvent<Value, Never>) {
        switch event {
        case .value(let value): send(value)
        case .completion: finish()
        }
    }

    /// The number of subscribers.
    public var subscriberCount: Int { broadcaster.count }
}
