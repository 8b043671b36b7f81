extension SourceType {
    /// A source that sends the first `maxLength` values of this source, then stops and
    /// releases its subscription to this source.
    ///
    /// ```swift
    /// let firstThree = clicks.prefix(3)
    /// ```
    ///
    /// Glue's sources have no completion: "stops" means the subscription delivers nothing
    /// more and lets go of its input at once, in the delivery of the last value it passes
    /// (see <doc:StreamOperators>). `prefix(0)` never subscribes to this source.
    ///
    /// - Precondition: `maxLength` is not negative.
    public func prefix(_ maxLength: Int) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .prefix(maxLength))
    }

    /// The same as ``prefix(_:)``: RxSwift's spelling.
    public func take(first count: Int) -> LimitedSource<Self> {
        prefix(count)
    }

    /// A source that sends this source's values while `predicate` holds, and stops at the
    /// first value that fails it, which it sends too if `inclusive` is true (RxJS's
    /// `takeWhile(predicate, true)`).
    ///
    /// ```swift
    /// let untilDone = progress.prefix(while: { $0 < 100 }, inclusive: true)   // ends with 100
    /// ```
    public func prefix(while predicate: @escaping (Value) -> Bool, inclusive: Bool = false) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .prefixWhile(predicate, inclusive: inclusive))
    }

    /// A source that sends this source's values until `trigger` sends, then stops.
    ///
    /// ```swift
    /// let untilCancelled = progress.prefix(untilOutputFrom: cancelTaps)
    /// ```
    ///
    /// The trigger is subscribed first: a trigger that sends as it is subscribed stops the
    /// source before this source is subscribed.
    public func prefix<Trigger: SourceType>(untilOutputFrom trigger: Trigger) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .prefixUntilTrigger, trigger: trigger)
    }

    /// The same as ``prefix(untilOutputFrom:)``: RxSwift's spelling.
    public func take<Trigger: SourceType>(until trigger: Trigger) -> LimitedSource<Self> {
        prefix(untilOutputFrom: trigger)
    }

    /// A source that sends this source's first value, then stops.
    public func first() -> LimitedSource<Self> {
        prefix(1)
    }

    /// A source that sends the first value of this source that satisfies `predicate`, then
    /// stops.
    public func first(where predicate: @escaping (Value) -> Bool) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .first(where: predicate))
    }

    /// A source that skips the first `count` values of this source and sends the rest.
    ///
    /// - Precondition: `count` is not negative.
    public func dropFirst(_ count: Int = 1) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .dropFirst(count))
    }

    /// A source that skips this source's values while `predicate` holds, then sends every
    /// value from the first that fails it.
    public func drop(while predicate: @escaping (Value) -> Bool) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .dropWhile(predicate))
    }

    /// A source that skips this source's values until `trigger` sends, then sends every
    /// value; it lets go of the trigger once it has sent.
    public func drop<Trigger: SourceType>(untilOutputFrom trigger: Trigger) -> LimitedSource<Self> {
        LimitedSource(base: self, rule: .dropUntilTrigger, trigger: trigger)
    }
}

/// A source that passes a limited part of its base's values; made by ``SourceType/prefix(_:)``,
/// ``SourceType/dropFirst(_:)``, ``SourceType/first()`` and their relatives.
///
/// Each subscription limits on its own, by ReactiveCore's `LimitStateMachine`. When the
/// rule says the values are over, the subscription disconnects from the base (and from the
/// trigger) at once, before it passes the last value on, and sends nothing more; its
/// connection then reports itself disconnected.
public struct LimitedSource<Base: SourceType>: SourceType {
    let base: Base
    let rule: LimitStateMachine<Base.Value>.Rule
    let trigger: Source<Void>?

    init(base: Base, rule: LimitStateMachine<Base.Value>.Rule) {
        self.base = base
        self.rule = rule
        self.trigger = nil
        // Checks the count now, where the operator is written, not at the first subscription.
        _ = LimitStateMachine<Base.Value>(rule)
    }

    init<Trigger: SourceType>(base: Base, rule: LimitStateMachine<Base.Value>.Rule, trigger: Trigger) {
        self.base = base
        self.rule = rule
        self.trigger = trigger.map { _ in }.source
    }

    /// Starts sending the limited values to `sink`.
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        let link = LimitLink(LimitStateMachine(rule), sink: sink)
        let connection = Connection(isolated: { link.end() })
        link.connection.set(connection)
        link.connect(base: base, trigger: trigger)
        return connection
    }
}

/// One subscription of a ``LimitedSource``: the machine, and the connections it lets go of
/// when the values are over.
final class LimitLink<Value> {
    private var machine: LimitStateMachine<Value>
    private let sink: (Value) -> Void
    private var upstream: Connection?
    private var triggerConnection: Connection?
    /// The subscriber's connection, disconnected when the values are over so that it reports
    /// the stop. Its action (``end()``) releases it first.
    var connection = SelfConnection()

    init(_ machine: LimitStateMachine<Value>, sink: @escaping (Value) -> Void) {
        self.machine = machine
        self.sink = sink
    }

    /// Subscribes to the trigger, then to the base, unless the values are already over. The
    /// connections capture the link strongly; ``end()`` breaks those cycles.
    func connect(base: some SourceType<Value>, trigger: Source<Void>?) {
        if let trigger, machine.watchesTrigger {
            let connection = trigger.subscribe { self.triggerFired() }
            if machine.watchesTrigger { triggerConnection = connection } else { connection.disconnect() }
        }
        guard !machine.isFinished else { return }
        let connection = base.subscribe { self.receive($0) }
        if machine.isFinished { connection.disconnect() } else { upstream = connection }
    }

    private func receive(_ value: Value) {
        switch machine.receive(value) {
        case .pass(let value):
            sink(value)
        case .passAndFinish(let value):
            stop()
            sink(value)
        case .drop:
            break
        case .finish:
            stop()
        }
    }

    private func triggerFired() {
        switch machine.triggerFired() {
        case .finish:
            stop()
        case .releaseTrigger:
            releaseTrigger()
        case .none:
            break
        }
    }

    /// The values are over: disconnects the subscriber's connection, which ends the link.
    private func stop() {
        if let connection = connection.take() { connection.disconnect() } else { end() }
    }

    /// Ends: the values are over, or the subscription was disconnected.
    func end() {
        connection.release()
        machine.finish()
        releaseTrigger()
        let connection = upstream
        upstream = nil
        connection?.disconnect()
    }

    private func releaseTrigger() {
        let connection = triggerConnection
        triggerConnection = nil
        connection?.disconnect()
    }
}
