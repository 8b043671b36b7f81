extension MessageSource {
    /// Each message with the one before it, from the second message on (Combine's
    /// `pairwise`; a replayed message counts).
    ///
    /// ```swift
    /// level.didSet.pairwise().then { old, new in print("\(old) → \(new)") }.append(to: observables)
    /// ```
    public func pairwise() -> StreamModifier<Message, (Message, Message)> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: PairwiseStateMachine<Message>()) {
                machine, event, outbox in
                switch event {
                case .value(let message): if let pair = machine.receive(message) { outbox.send(pair) }
                case .completion(let completion): outbox.end(completion)
                }
            })
    }

    /// Each message with the one before it, the first with `initial` (ReactiveSwift's
    /// `combinePrevious`).
    public func combinePrevious(_ initial: Message) -> StreamModifier<Message, (Message, Message)> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: PairwiseStateMachine(initial: initial)) {
                machine, event, outbox in
                switch event {
                case .value(let message): if let pair = machine.receive(message) { outbox.send(pair) }
                case .completion(let completion): outbox.end(completion)
                }
            })
    }

    /// The messages in arrays of `count`; at the end, the messages gathered so far (if any),
    /// then the end.
    ///
    /// ```swift
    /// samples.fired.collect(3).then { batch in store(batch) }.append(to: observables)
    /// ```
    ///
    /// - Precondition: `count` is positive.
    public func collect(_ count: Int) -> StreamModifier<Message, [Message]> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: CollectStateMachine<Message>(count: count)) {
                machine, event, outbox in
                switch event {
                case .value(let message): if let batch = machine.receive(message) { outbox.send(batch) }
                case .completion(let completion):
                    if case .finished = completion { for rest in machine.finish() { outbox.send(rest) } }
                    outbox.end(completion)
                }
            })
    }

    /// The messages in arrays of `count`, a new array starting with every `every`-th message
    /// (RxJS's `bufferCount(count, every)`): with `every` below `count` the arrays overlap, a
    /// sliding window; with `every` above it, the messages between arrays are in none. When
    /// the stream finishes, the arrays still open are sent, oldest first, then the end; a
    /// failure or an interruption drops them.
    ///
    /// ```swift
    /// samples.fired.collect(count: 3, every: 1).then { window in plot(window) }.append(to: observables)
    /// ```
    ///
    /// - Precondition: `count` and `every` are positive.
    public func collect(count: Int, every: Int) -> StreamModifier<Message, [Message]> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: CollectStateMachine<Message>(count: count, every: every)) {
                machine, event, outbox in
                switch event {
                case .value(let message): if let batch = machine.receive(message) { outbox.send(batch) }
                case .completion(let completion):
                    if case .finished = completion { for rest in machine.finish() { outbox.send(rest) } }
                    outbox.end(completion)
                }
            })
    }

    /// Every message, in one array sent when the stream finishes; a stream that fails or is
    /// interrupted sends no array.
    public func collect() -> StreamModifier<Message, [Message]> {
        reduced(into: [Message]()) { $0.append($1) }
    }

    /// The last message, sent when the stream finishes; none if it sent none.
    public func last() -> StreamModifier<Message, Message> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: Message?.none) { last, event, outbox in
                switch event {
                case .value(let message): last = message
                case .completion(let completion):
                    if case .finished = completion, let last { outbox.send(last) }
                    outbox.end(completion)
                }
            })
    }

    /// The result of combining every message with `next`, starting from `initial`, sent when
    /// the stream finishes (``scan(_:_:)`` sends each step).
    ///
    /// ```swift
    /// purchases.fired.reduce(0) { total, price in total + price }.then { print("total \($0)") }
    ///     .append(to: observables)
    /// ```
    public func reduce<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Message) -> Result
    ) -> StreamModifier<Message, Result> {
        reduced(into: initial) { $0 = next($0, $1) }
    }

    /// The messages of this stream, then, when it finishes, `messages`, then the end.
    public func append(_ messages: Message...) -> StreamModifier<Message, Message> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: ()) { _, event, outbox in
                switch event {
                case .value(let message): outbox.send(message)
                case .completion(let completion):
                    if case .finished = completion { for message in messages { outbox.send(message) } }
                    outbox.end(completion)
                }
            })
    }

    /// The running result `update` makes of every message, sent when the stream finishes.
    private func reduced<Result: Sendable>(
        into initial: Result, _ update: @escaping @Sendable (inout Result, Message) -> Void
    ) -> StreamModifier<Message, Result> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: initial) { result, event, outbox in
                switch event {
                case .value(let message): update(&result, message)
                case .completion(let completion):
                    if case .finished = completion { outbox.send(result) }
                    outbox.end(completion)
                }
            })
    }
}

extension MessageSource where Message: Equatable {
    /// The same as ``distinct()``: Combine's spelling.
    public func removeDuplicates() -> DistinctModifier<Message> {
        distinct()
    }
}

extension MessageSource {
    /// The messages that differ from the one passed before them, by `isDuplicate`.
    public func removeDuplicates(
        by isDuplicate: @escaping @Sendable (Message, Message) -> Bool
    ) -> StreamModifier<Message, Message> {
        StreamModifier(
            upstream: self,
            core: RuleCore.make(upstream: self, rule: Message?.none) { previous, event, outbox in
                switch event {
                case .value(let message):
                    if let last = previous, isDuplicate(last, message) { return }
                    previous = message
                    outbox.send(message)
                case .completion(let completion): outbox.end(completion)
                }
            })
    }
}

/// The core of a one-input stream operator whose rule is a value and a closure that steps it.
///
/// Made through ``make(upstream:rule:_:)``, inlined where the operator is called: its entry
/// and its steps are then compiled for the chain's types (see ``StreamCore/step(_:)``).
@usableFromInline
final class RuleCore<Input: Sendable, Output: Sendable, Rule>: StreamCore<Input, Output, Rule>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the rule is behind the core's lock; `stepRule` is a `let`.
    @usableFromInline
    let stepRule: @Sendable (inout Rule, StreamEvent<Input, any Error>, inout Outbox<Output>) -> Void

    @usableFromInline
    init(
        upstream: MessageSource<Input>, rule: Rule, entry: @escaping Entry,
        _ stepRule: @escaping @Sendable (inout Rule, StreamEvent<Input, any Error>, inout Outbox<Output>) -> Void
    ) {
        self.stepRule = stepRule
        super.init(upstream: upstream, rule: rule, entry: entry)
    }

    /// The core of an operator on `upstream` whose rule starts as `rule` and is stepped by
    /// `stepRule`.
    @inlinable
    static func make(
        upstream: MessageSource<Input>, rule: Rule,
        _ stepRule: @escaping @Sendable (inout Rule, StreamEvent<Input, any Error>, inout Outbox<Output>) -> Void
    ) -> RuleCore {
        RuleCore(
            upstream: upstream, rule: rule,
            entry: entry { core, message, _ in
                // Only a `RuleCore` is made with this entry.
                unsafeDowncast(core, to: RuleCore.self).step { stepRule(&$0, .value(message), &$1) }
            }, stepRule)
    }

    override func handle(_ rule: inout Rule, _ event: StreamEvent<Input, any Error>, _ outbox: inout Outbox<Output>) {
        stepRule(&rule, event, &outbox)
    }
}
