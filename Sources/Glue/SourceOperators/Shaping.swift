extension SourceType {
    /// A source that sends `values` to each new subscriber as it subscribes, then this
    /// source's values.
    ///
    /// ```swift
    /// let queries = typed.prepend("")   // starts every subscriber from an empty query
    /// ```
    ///
    /// The values go out during `subscribe`, before this source is subscribed: a value this
    /// source sends while they go out (because a sink made it) does not reach the new
    /// subscriber.
    public func prepend(_ values: Value...) -> PrependedSource<Self> {
        PrependedSource(base: self, values: values)
    }

    /// A source that sends `values` to each new subscriber as it subscribes, then this
    /// source's values.
    public func prepend(contentsOf values: some Sequence<Value>) -> PrependedSource<Self> {
        PrependedSource(base: self, values: Array(values))
    }

    /// The same as ``prepend(_:)``: RxSwift's spelling.
    public func startWith(_ values: Value...) -> PrependedSource<Self> {
        PrependedSource(base: self, values: values)
    }

    /// A source that sends each value of this source paired with the one before it; the
    /// first value only starts the pairs (ReactiveSwift's `combinePrevious()`).
    ///
    /// ```swift
    /// let moves = positions.pairwise().map { from, to in to - from }
    /// ```
    public func pairwise() -> PairwiseSource<Self> {
        PairwiseSource(base: self, initial: nil)
    }

    /// The same as ``pairwise()``: ReactiveSwift's spelling.
    public func combinePrevious() -> PairwiseSource<Self> {
        pairwise()
    }

    /// A source that sends each value of this source paired with the one before it, the
    /// first value paired with `initial`.
    public func combinePrevious(_ initial: Value) -> PairwiseSource<Self> {
        PairwiseSource(base: self, initial: initial)
    }

    /// A source that sends this source's values in arrays of `count`.
    ///
    /// ```swift
    /// let pages = rows.collect(50)
    /// ```
    ///
    /// Sources have no completion, so a last, shorter array is never sent: values gathered
    /// when the subscription disconnects are dropped.
    ///
    /// - Precondition: `count` is at least 1.
    public func collect(_ count: Int) -> CollectedSource<Self> {
        precondition(count >= 1, "Glue: collect(_:) needs a count of at least 1, got \(count)")
        return CollectedSource(base: self, count: count, every: count)
    }

    /// A source that sends this source's values in arrays of `count`, a new array starting
    /// with every `every`-th value (RxJS's `bufferCount(count, every)`): with `every` below
    /// `count` the arrays overlap, a sliding window; with `every` above it, the values
    /// between arrays are in none.
    ///
    /// ```swift
    /// let windows = samples.collect(count: 3, every: 1)   // [1, 2, 3], [2, 3, 4], ...
    /// ```
    ///
    /// Sources have no completion, so arrays still open are never sent: their values are
    /// dropped when the subscription disconnects.
    ///
    /// - Precondition: `count` and `every` are at least 1.
    public func collect(count: Int, every: Int) -> CollectedSource<Self> {
        precondition(count >= 1, "Glue: collect(count:every:) needs a count of at least 1, got \(count)")
        precondition(every >= 1, "Glue: collect(count:every:) needs an every of at least 1, got \(every)")
        return CollectedSource(base: self, count: count, every: every)
    }
}

/// A source that starts each subscriber with fixed values; made by ``SourceType/prepend(_:)``.
public struct PrependedSource<Base: SourceType>: SourceType {
    let base: Base
    let values: [Base.Value]

    /// Sends the prepended values to `sink`, then subscribes it to the base.
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        for value in values { sink(value) }
        return base.subscribe(sink)
    }
}

/// A source of each value paired with the one before; made by ``SourceType/pairwise()``.
public struct PairwiseSource<Base: SourceType>: SourceType {
    let base: Base
    let initial: Base.Value?

    /// Starts sending pairs to `sink`; each subscription pairs on its own.
    public func subscribe(_ sink: @escaping ((Base.Value, Base.Value)) -> Void) -> Connection {
        var machine = PairwiseStateMachine(initial: initial)
        return base.subscribe { value in
            if let pair = machine.receive(value) { sink(pair) }
        }
    }
}

/// A source of arrays of values; made by ``SourceType/collect(_:)`` and
/// ``SourceType/collect(count:every:)``.
public struct CollectedSource<Base: SourceType>: SourceType {
    let base: Base
    /// How many values make an array.
    public let count: Int
    /// How many values apart arrays start (``count`` for `collect(_:)`).
    public let every: Int

    /// A source of `base`'s values in arrays of `count`, one starting every `every` values;
    /// both are at least 1 (checked by the operators that make it).
    init(base: Base, count: Int, every: Int) {
        self.base = base
        self.count = count
        self.every = every
    }

    /// Starts sending arrays to `sink`; each subscription gathers on its own.
    public func subscribe(_ sink: @escaping ([Base.Value]) -> Void) -> Connection {
        var machine = CollectStateMachine<Base.Value>(count: count, every: every)
        return base.subscribe { value in
            if let batch = machine.receive(value) { sink(batch) }
        }
    }
}
