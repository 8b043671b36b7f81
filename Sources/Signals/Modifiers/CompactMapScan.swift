extension MessageSource {
    /// Passes on `transform` of each message when it is not `nil`.
    ///
    /// ```swift
    /// text.didSet.compactMap { Int($0) }.then { print("a number: \($0)") }.append(to: observables)
    /// ```
    @inlinable
    public func compactMap<Output: Sendable>(_ transform: @escaping @Sendable (Message) -> Output?)
        -> CompactMapModifier<Message, Output>
    {
        CompactMapModifier(
            upstream: self,
            core: OperatorCore.make(upstream: self) { core, message, sequence in
                if let output = transform(message) { core.sendResult(output, sequence: sequence) }
            })
    }

    /// Passes on a running result: `next` of the previous result (at first `initial`) and
    /// each message.
    ///
    /// ```swift
    /// clicks.fired.scan(0) { count, _ in count + 1 }.then { print("\($0) clicks") }.append(to: observables)
    /// ```
    ///
    /// A message the chain is owed when it connects (the last message of a property or a
    /// signal fired before) counts like any other. Each message's result is computed under
    /// a lock, so messages from several threads each count once; the results are sent in
    /// the order computed, except that two threads may send theirs in either order.
    public func scan<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Message) -> Result
    ) -> ScanModifier<Message, Result> {
        ScanModifier(upstream: self, core: ScanCore(upstream: self, initial: initial, next: next))
    }
}

/// Transforms messages and drops `nil`s; made by ``MessageSource/compactMap(_:)``.
public final class CompactMapModifier<Input: Sendable, Output: Sendable>: Modifier<Input, Output>,
    @unchecked Sendable
{}

/// Accumulates messages into a running result; made by ``MessageSource/scan(_:_:)``.
public final class ScanModifier<Input: Sendable, Result: Sendable>: Modifier<Input, Result>, @unchecked Sendable {}

/// The work of a ``ScanModifier``.
final class ScanCore<Input: Sendable, Result: Sendable>: ModifierCore<Input, Result>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the result is behind `result`'s lock, and `next`
    // is a `@Sendable` closure.
    /// Revives: its work is a closure and a value (see ``ModifierCore/revives``).
    override var revives: Bool { true }

    /// The running result, and how many results were made: each is sent numbered, so that
    /// one computed later (it folds more messages in) is never overtaken by an older one.
    private let result: LockedState<(value: Result, count: UInt64)>
    private let next: @Sendable (Result, Input) -> Result

    init(upstream: MessageSource<Input>, initial: Result, next: @escaping @Sendable (Result, Input) -> Result) {
        result = LockedState((initial, 0))
        self.next = next
        super.init(upstream: upstream)
    }

    override func process(_ message: Input, sequence: UInt64?) {
        let next = next
        let (output, count) = result.withLock { result in
            result.value = next(result.value, message)
            result.count += 1
            return result
        }
        sendResult(output, sequence: count)
    }
}
