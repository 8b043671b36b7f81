extension SourceType {
    /// A source that sends the running result of combining each value into `initial`.
    ///
    /// ```swift
    /// let total = purchases.accumulated(0) { sum, price in sum + price }
    /// ```
    ///
    /// Each subscription accumulates on its own, from `initial`.
    public func accumulated<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result
    ) -> AccumulatedSource<Self, Result> {
        AccumulatedSource(base: self, initial: initial, next: next)
    }

    /// A source that sends how many values this source has sent: 1, 2, 3, ...
    public func counted() -> AccumulatedSource<Self, Int> {
        accumulated(0) { count, _ in count + 1 }
    }
}

/// A source of running results; made by ``SourceType/accumulated(_:_:)`` and
/// ``SourceType/counted()``.
public struct AccumulatedSource<Base: SourceType, Result>: SourceType {
    let base: Base
    let initial: Result
    let next: (Result, Base.Value) -> Result

    /// Starts sending running results to `sink`.
    public func subscribe(_ sink: @escaping (Result) -> Void) -> Connection {
        let next = next
        var result = initial
        return base.subscribe { value in
            result = next(result, value)
            sink(result)
        }
    }
}
