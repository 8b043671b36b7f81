extension MessageSource {
    /// Discards the first `count` messages and passes on the rest.
    ///
    /// - Precondition: `count` is not negative.
    public func discard(first count: Int) -> DiscardModifier<Message> {
        precondition(count >= 0, "discard(first:) needs a count of zero or more, got \(count)")
        return DiscardModifier(upstream: self, core: DiscardCore(upstream: self, count: count))
    }
}

extension MessageSource where Message: Equatable {
    /// Discards each message equal to the one passed before it.
    public func distinct() -> DistinctModifier<Message> {
        DistinctModifier(upstream: self, core: DistinctCore(upstream: self))
    }
}

/// Discards the first messages; made by ``MessageSource/discard(first:)``.
///
/// A replayed message counts like any other: a chain connected to a property discards the
/// current value as its first message.
public final class DiscardModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``DiscardModifier``.
final class DiscardCore<Message: Sendable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the counter is behind a lock.

    /// Revives: its work is a closure and a value (see ``ModifierCore/revives``).
    override var revives: Bool { true }

    private let remaining: LockedState<Int>

    init(upstream: MessageSource<Message>, count: Int) {
        remaining = LockedState(count)
        super.init(upstream: upstream)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        let discard = remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        if !discard { sendResult(message, sequence: sequence) }
    }
}

/// Discards repeated messages; made by ``MessageSource/distinct()``.
public final class DistinctModifier<Message: Sendable & Equatable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``DistinctModifier``.
final class DistinctCore<Message: Sendable & Equatable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the last message is behind a lock.

    /// Revives: its work is a closure and a value (see ``ModifierCore/revives``).
    override var revives: Bool { true }

    private let previous = LockedState<Message?>(nil)

    override func process(_ message: Message, sequence: UInt64?) {
        let isRepeat = previous.withLock { previous in
            defer { previous = message }
            return previous == message
        }
        if !isRepeat { sendResult(message, sequence: sequence) }
    }
}
