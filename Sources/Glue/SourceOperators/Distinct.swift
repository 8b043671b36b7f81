extension SourceType where Value: Equatable {
    /// A source that drops each value equal to the one it sent before.
    ///
    /// The first value always passes. Each subscription compares against the last value it
    /// passed on.
    public func distinct() -> DistinctSource<Self> {
        DistinctSource(base: self, areEquivalent: ==)
    }
}

extension SourceType {
    /// A source that drops each value equivalent, by `areEquivalent`, to the one it sent
    /// before.
    public func distinct(by areEquivalent: @escaping (Value, Value) -> Bool) -> DistinctSource<Self> {
        DistinctSource(base: self, areEquivalent: areEquivalent)
    }
}

/// A source that drops repeated values; made by ``SourceType/distinct()``.
public struct DistinctSource<Base: SourceType>: SourceType {
    let base: Base
    let areEquivalent: (Base.Value, Base.Value) -> Bool

    /// Starts sending values to `sink`, skipping repeats.
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        let areEquivalent = areEquivalent
        var last: Base.Value?
        return base.subscribe { value in
            if let previous = last, areEquivalent(previous, value) { return }
            last = value
            sink(value)
        }
    }
}

extension SourceType where Value: Equatable {
    /// The same as ``distinct()``: Combine's spelling.
    public func removeDuplicates() -> DistinctSource<Self> {
        distinct()
    }
}

extension SourceType {
    /// The same as ``distinct(by:)``: Combine's spelling.
    public func removeDuplicates(by areEquivalent: @escaping (Value, Value) -> Bool) -> DistinctSource<Self> {
        distinct(by: areEquivalent)
    }
}
