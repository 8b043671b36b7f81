import ReactiveCore

extension MessageSource {
    /// Passes on every message, and hands a modifier that connects later the last `count`
    /// messages, oldest first, before any message sent after it connected (RxSwift's
    /// `replay(_:)`, ReactiveSwift's `replayLazily(upTo:)`).
    ///
    /// Every observable owes a modifier that connects its last message; `replay(3)` owes the
    /// last three, and `replay(0)` owes nothing (its ``MessageSource/lastMessage`` is `nil`).
    /// A modifier connected again, after its chain was removed and another built on it, is
    /// owed only the messages sent since it let go. The messages outlive the end: a modifier
    /// that connects after it is handed them, then the end.
    ///
    /// ```swift
    /// let recent = readings.fired.replay(3)
    /// recent.append(to: observables)
    /// // later: a new chain sees the last three readings first
    /// recent.then { print($0) }.append(to: observables)
    /// ```
    ///
    /// - Precondition: `count` is not negative.
    public func replay(_ count: Int) -> ReplayModifier<Message> {
        precondition(count >= 0, "Signals: replay(_:) needs a count of zero or more, got \(count)")
        return ReplayModifier(
            upstream: self,
            core: OperatorCore.make(upstream: self, rule: ReplayRule(depth: count, keepsAtEnd: true)) {
                core, message, sequence in
                core.sendResult(message, sequence: sequence)
            })
    }

    /// Hands `values` to each modifier that connects, in order, ahead of what it is owed of
    /// this observable (its last message) and of every later message (Combine's `prepend`,
    /// RxJS's `startWith`).
    ///
    /// ```swift
    /// query.didSet.prepend("").then { search($0) }.append(to: observables)
    /// // searches "", then the current query, then each change
    /// ```
    ///
    /// A modifier is handed the values on its first connection only: connected again after
    /// its chain was removed, it is owed the messages sent since.
    public func prepend(_ values: Message...) -> PrependModifier<Message> {
        prepend(contentsOf: values)
    }

    /// Hands the elements of `values` to each modifier that connects, in order, ahead of
    /// what it is owed of this observable; see ``prepend(_:)``.
    public func prepend(contentsOf values: some Sequence<Message>) -> PrependModifier<Message> {
        PrependModifier(
            upstream: self,
            core: OperatorCore.make(upstream: self, rule: ReplayRule(depth: 1, prefix: Array(values))) {
                core, message, sequence in
                core.sendResult(message, sequence: sequence)
            })
    }
}

extension MessageSource {
    /// An observable that hands each modifier that connects every element of `values`, in
    /// order, then `.finished` (RxJS's `of` and `from`, Combine's `Publishers.Sequence`).
    ///
    /// It has ended before anything connects, so nothing is delivered live: each chain
    /// receives the elements as its replay, whole, through every modifier of the chain.
    ///
    /// ```swift
    /// MessageSource.sequence([1, 2, 3]).map { $0 * 10 }.then { print($0) }.append(to: observables)
    /// // prints 10, 20, 30
    /// ```
    public static func sequence(_ values: some Sequence<Message>) -> MessageSource<Message> {
        let relay = Relay<Message>(emittingExecutor: nil, rule: ReplayRule(depth: 0, prefix: Array(values)))
        relay.complete(.finished)
        return MessageSource(relay: relay, downstreamExecutor: .main)
    }
}

/// Passes on every message and owes what connects the last few; made by
/// ``MessageSource/replay(_:)``.
public final class ReplayModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// Hands each modifier that connects some values first; made by ``MessageSource/prepend(_:)``.
public final class PrependModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}
