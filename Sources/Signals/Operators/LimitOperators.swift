extension MessageSource {
    /// The first `maxLength` messages, then the end (Combine's `prefix`).
    ///
    /// ```swift
    /// taps.fired.prefix(3).then { print("tap \($0)") }.append(to: observables)
    /// ```
    ///
    /// The chain is detached from its input with the end, once the last message has passed.
    /// `prefix(0)` ends at once, without connecting.
    ///
    /// - Precondition: `maxLength` is not negative.
    public func prefix(_ maxLength: Int) -> StreamModifier<Message, Message> {
        limited(.prefix(maxLength))
    }

    /// The same as ``prefix(_:)``: RxSwift's spelling.
    public func take(first count: Int) -> StreamModifier<Message, Message> {
        prefix(count)
    }

    /// The messages while `predicate` holds; the first that fails it ends the chain, unsent,
    /// or, if `inclusive` is true, passed before the end (RxJS's `takeWhile(predicate, true)`).
    ///
    /// ```swift
    /// progress.didSet.prefix(while: { $0 < 100 }, inclusive: true).then { show($0) }.append(to: observables)
    /// ```
    public func prefix(
        while predicate: @escaping @Sendable (Message) -> Bool, inclusive: Bool = false
    ) -> StreamModifier<Message, Message> {
        limited(.prefixWhile(predicate, inclusive: inclusive))
    }

    /// The messages until `trigger` sends, then the end.
    ///
    /// ```swift
    /// progress.fired.prefix(untilOutputFrom: cancel.fired).then { show($0) }.append(to: observables)
    /// ```
    ///
    /// The trigger connects first: a trigger that has a last message (a `Property`, a
    /// `Signal(value:)`) ends the chain at once. A trigger that ends without sending changes
    /// nothing.
    public func prefix<Trigger: Sendable>(
        untilOutputFrom trigger: MessageSource<Trigger>
    ) -> StreamModifier<Message, Message> {
        limited(.prefixUntilTrigger, trigger: trigger)
    }

    /// The same as ``prefix(untilOutputFrom:)``: RxSwift's spelling.
    public func take<Trigger: Sendable>(until trigger: MessageSource<Trigger>) -> StreamModifier<Message, Message> {
        prefix(untilOutputFrom: trigger)
    }

    /// The first message, then the end.
    public func first() -> StreamModifier<Message, Message> {
        prefix(1)
    }

    /// The first message that satisfies `predicate`, then the end.
    public func first(where predicate: @escaping @Sendable (Message) -> Bool) -> StreamModifier<Message, Message> {
        limited(.first(where: predicate))
    }

    /// The messages after the first `count` (a replayed message counts), and the end.
    ///
    /// Unlike ``discard(first:)``, it passes the end on.
    ///
    /// - Precondition: `count` is not negative.
    public func dropFirst(_ count: Int = 1) -> StreamModifier<Message, Message> {
        limited(.dropFirst(count))
    }

    /// The messages from the first that fails `predicate` on.
    public func drop(while predicate: @escaping @Sendable (Message) -> Bool) -> StreamModifier<Message, Message> {
        limited(.dropWhile(predicate))
    }

    /// The messages from when `trigger` first sends on; the trigger is released then.
    public func drop<Trigger: Sendable>(
        untilOutputFrom trigger: MessageSource<Trigger>
    ) -> StreamModifier<Message, Message> {
        limited(.dropUntilTrigger, trigger: trigger)
    }

    /// The chain limited by ReactiveCore's `LimitStateMachine`.
    private func limited(_ rule: LimitStateMachine<Message>.Rule) -> StreamModifier<Message, Message> {
        StreamModifier(upstream: self, core: LimitCore(upstream: self, machine: LimitStateMachine(rule)))
    }

    /// The chain limited by ReactiveCore's `LimitStateMachine`, watching `trigger` (connected
    /// first) while the machine does.
    private func limited<Trigger: Sendable>(
        _ rule: LimitStateMachine<Message>.Rule, trigger: MessageSource<Trigger>
    ) -> StreamModifier<Message, Message> {
        let core = LimitCore(upstream: self, machine: LimitStateMachine(rule))
        core.addSide(trigger, key: 0, first: true) { [unowned core] machine, event, outbox in
            guard case .value = event else { return }
            switch machine.triggerFired() {
            case .finish: outbox.end()
            case .releaseTrigger: outbox.run { core.releaseSide(key: 0) }
            case .none: break
            }
        }
        return StreamModifier(upstream: self, core: core)
    }
}

/// The work of the limiting operators.
final class LimitCore<Message: Sendable>: StreamCore<Message, Message, LimitStateMachine<Message>>,
    @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the machine is behind the core's lock.
    private let endsAtOnce: Bool

    init(upstream: MessageSource<Message>, machine: LimitStateMachine<Message>) {
        endsAtOnce = machine.isFinished
        super.init(upstream: upstream, rule: machine)
    }

    override func attach() {
        // `prefix(0)`: over before it begins, without connecting.
        guard !endsAtOnce else { return finish(.finished) }
        super.attach()
    }

    override func handle(
        _ machine: inout LimitStateMachine<Message>, _ event: StreamEvent<Message, any Error>,
        _ outbox: inout Outbox<Message>
    ) {
        switch event {
        case .value(let message):
            switch machine.receive(message) {
            case .pass(let message): outbox.send(message)
            case .passAndFinish(let message):
                outbox.send(message)
                outbox.end()
            case .drop: break
            case .finish: outbox.end()
            }
        case .completion(let completion):
            machine.finish()
            outbox.end(completion)
        }
    }
}

/// A stateful stream operator: made by the limiting, shaping, combining, flattening and
/// timed operators (``MessageSource/prefix(_:)``, ``MessageSource/zip(_:)-swift.method``,
/// ``MessageSource/flatMap(maxConcurrent:_:)``, ``MessageSource/delay(for:scheduler:)`` and
/// the rest).
///
/// Its rule is one of ReactiveCore's state machines, kept under a lock: its inputs may send
/// from any thread. What the rule sends is sent on, in order, by one thread at a time and
/// never under the lock (see <doc:Operators>).
public final class StreamModifier<Input: Sendable, Output: Sendable>: Modifier<Input, Output>, @unchecked Sendable {}
