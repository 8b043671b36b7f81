extension EventStream {
    /// The first `maxLength` values, then the end (xstream's `take`).
    ///
    /// ```swift
    /// let firstThree = clicks.prefix(3)
    /// ```
    ///
    /// The subscription to this stream is released with the end, once the last value has
    /// been delivered. `prefix(0)` finishes at once, without subscribing to this stream.
    ///
    /// - Precondition: `maxLength` is not negative.
    public func prefix(_ maxLength: Int) -> EventStream<Value> {
        limited(.prefix(maxLength), trigger: nil)
    }

    /// The same as ``prefix(_:)``: xstream's spelling.
    public func take(_ count: Int) -> EventStream<Value> {
        prefix(count)
    }

    /// The same as ``prefix(_:)``: RxSwift's spelling.
    public func take(first count: Int) -> EventStream<Value> {
        prefix(count)
    }

    /// The values while `predicate` holds; the first that fails it ends the stream, unsent,
    /// or, if `inclusive` is true, sent before the end (RxJS's `takeWhile(predicate, true)`).
    ///
    /// ```swift
    /// let untilDone = progress.prefix(while: { $0 < 100 }, inclusive: true)   // ends with 100
    /// ```
    public func prefix(while predicate: @escaping (Value) -> Bool, inclusive: Bool = false) -> EventStream<Value> {
        limited(.prefixWhile(predicate, inclusive: inclusive), trigger: nil)
    }

    /// The values until `trigger` sends, then the end (xstream's `endWhen`).
    ///
    /// ```swift
    /// let untilCancelled = progress.prefix(untilOutputFrom: cancelTaps)
    /// ```
    ///
    /// The trigger is subscribed first: a trigger that sends as it is subscribed ends the
    /// stream before this stream is subscribed. A trigger that finishes without sending
    /// changes nothing.
    public func prefix<Trigger>(untilOutputFrom trigger: EventStream<Trigger>) -> EventStream<Value> {
        limited(.prefixUntilTrigger, trigger: trigger.map { _ in })
    }

    /// The same as ``prefix(untilOutputFrom:)``: xstream's spelling.
    public func endWhen<Trigger>(_ trigger: EventStream<Trigger>) -> EventStream<Value> {
        prefix(untilOutputFrom: trigger)
    }

    /// The same as ``prefix(untilOutputFrom:)``: RxSwift's spelling.
    public func take<Trigger>(until trigger: EventStream<Trigger>) -> EventStream<Value> {
        prefix(untilOutputFrom: trigger)
    }

    /// The first value, then the end.
    public func first() -> EventStream<Value> {
        prefix(1)
    }

    /// The first value that satisfies `predicate`, then the end.
    public func first(where predicate: @escaping (Value) -> Bool) -> EventStream<Value> {
        limited(.first(where: predicate), trigger: nil)
    }

    /// The values after the first `count` (xstream's `drop`).
    ///
    /// - Precondition: `count` is not negative.
    public func dropFirst(_ count: Int = 1) -> EventStream<Value> {
        limited(.dropFirst(count), trigger: nil)
    }

    /// The same as ``dropFirst(_:)``: xstream's spelling.
    public func drop(_ count: Int) -> EventStream<Value> {
        dropFirst(count)
    }

    /// The values from the first that fails `predicate` on.
    public func drop(while predicate: @escaping (Value) -> Bool) -> EventStream<Value> {
        limited(.dropWhile(predicate), trigger: nil)
    }

    /// The values from when `trigger` first sends on; the trigger is released then.
    public func drop<Trigger>(untilOutputFrom trigger: EventStream<Trigger>) -> EventStream<Value> {
        limited(.dropUntilTrigger, trigger: trigger.map { _ in })
    }

    /// The stream limited by ReactiveCore's `LimitStateMachine`, one machine per subscription.
    private func limited(_ rule: LimitStateMachine<Value>.Rule, trigger: EventStream<Void>?) -> EventStream<Value> {
        // Checks the count where the operator is written, not at the first subscription.
        _ = LimitStateMachine<Value>(rule)
        return EventStream(subscribeEvents: { sink in
            let link = LimitLink(LimitStateMachine(rule), sink: sink)
            return link.connect(self, trigger: trigger)
        })
    }
}

/// One subscription of a limited stream.
private final class LimitLink<Value> {
    private var machine: LimitStateMachine<Value>
    private let sink: (StreamEvent<Value, Never>) -> Void
    private var triggerConnection: Connection?
    private var completed = false

    init(_ machine: LimitStateMachine<Value>, sink: @escaping (StreamEvent<Value, Never>) -> Void) {
        self.machine = machine
        self.sink = sink
    }

    /// Subscribes to the trigger, then to the base, unless the stream already ended; the
    /// connection returned releases both (the stream's gate disconnects it at the end).
    func connect(_ base: EventStream<Value>, trigger: EventStream<Void>?) -> Connection {
        if let trigger, machine.watchesTrigger {
            let connection = trigger.subscribe { self.triggerFired() }
            if machine.watchesTrigger { triggerConnection = connection } else { connection.disconnect() }
        }
        guard !machine.isFinished else {
            complete()
            return Connection()
        }
        let upstream = base.subscribe(events: { self.receive($0) })
        return Connection(isolated: {
            upstream.disconnect()
            self.releaseTrigger()
        })
    }

    private func receive(_ event: StreamEvent<Value, Never>) {
        guard case .value(let value) = event else {
            machine.finish()
            complete()
            return
        }
        switch machine.receive(value) {
        case .pass(let value):
            sink(.value(value))
        case .passAndFinish(let value):
            sink(.value(value))
            complete()
        case .drop:
            break
        case .finish:
            complete()
        }
    }

    private func triggerFired() {
        switch machine.triggerFired() {
        case .finish:
            releaseTrigger()
            complete()
        case .releaseTrigger:
            releaseTrigger()
        case .none:
            break
        }
    }

    /// Sends the completion, once.
    private func complete() {
        guard !completed else { return }
        completed = true
        sink(.completion(.finished))
    }

    private func releaseTrigger() {
        let connection = triggerConnection
        triggerConnection = nil
        connection?.disconnect()
    }
}
