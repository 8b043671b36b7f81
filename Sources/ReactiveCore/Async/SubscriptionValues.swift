extension Subscribable where Value: Sendable {
    /// The values this source delivers, as an `AsyncSequence`, buffering every value.
    ///
    /// ```swift
    /// for await count in counter.values {
    ///     if count == 3 { break }   // disconnects
    /// }
    /// ```
    ///
    /// Each iteration subscribes on its own. See ``SubscriptionValues`` for the buffering
    /// policy and when the subscription ends.
    public var values: SubscriptionValues<Self> {
        SubscriptionValues(self, bufferingPolicy: .unbounded)
    }

    /// The values this source delivers, as an `AsyncSequence` with the given buffering
    /// policy.
    ///
    /// - Parameter bufferingPolicy: What to keep when values arrive faster than the loop
    ///   takes them: `.unbounded` keeps all, `.bufferingNewest(n)` keeps the latest `n`,
    ///   `.bufferingOldest(n)` keeps the first `n`.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
    ) -> SubscriptionValues<Self> {
        SubscriptionValues(self, bufferingPolicy: bufferingPolicy)
    }
}

/// An `AsyncSequence` over the values a ``Subscribable`` delivers.
///
/// Made by ``Subscribable/values`` and ``Subscribable/values(bufferingPolicy:)``.
///
/// ## When the subscription starts and ends
///
/// Making an iterator (the start of a `for await` loop) subscribes at once, in the
/// caller's isolation domain, so values delivered from then on are not missed, including
/// a current value that the source sends on subscription. The subscription ends, and the
/// connection disconnects, when the iterator is released: when the loop ends by `break`,
/// `return` or a thrown error, or when the task is cancelled (the pending `next()` returns
/// `nil`, which ends the loop). The disconnect runs where the loop ran, which is what a
/// single-threaded source requires.
///
/// ## Buffering
///
/// Sources deliver synchronously and the loop takes values asynchronously, so values wait
/// in a buffer between the two. The default policy, `.unbounded`, keeps every value: a
/// loop sees each value the source delivered, in order, at the cost of memory if it falls
/// behind. `.bufferingNewest(n)` keeps only the newest `n` (latest-wins, good for state),
/// `.bufferingOldest(n)` keeps the first `n` and drops later ones.
///
/// The sequence never ends on its own: sources in this package have no completion. It
/// ends when the loop stops or its task is cancelled.
public struct SubscriptionValues<Source: Subscribable>: AsyncSequence
where Source.Value: Sendable {
    /// The values delivered by the source.
    public typealias Element = Source.Value
    /// The sequence never throws.
    public typealias Failure = Never

    private let source: Source
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy

    init(_ source: Source, bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy) {
        self.source = source
        self.bufferingPolicy = bufferingPolicy
    }

    /// Subscribes to the source and returns an iterator over what it delivers.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: bufferingPolicy)
        let connection = source.subscribe { value in
            continuation.yield(value)
        }
        return Iterator(base: stream.makeAsyncIterator(), connection: connection)
    }

    /// The iterator of a ``SubscriptionValues`` sequence; releasing it disconnects.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator
        // The iterator (and its copies) hold the only reference: releasing it disconnects.
        let connection: Connection

        /// The next value, or `nil` when the task has been cancelled.
        public mutating func next() async -> Element? {
            await base.next()
        }

        /// The next value, or `nil` when the task has been cancelled, without leaving
        /// `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }
    }
}
