extension SourceType {
    /// A source that sends the values of this source for which `isIncluded` is `true`.
    ///
    /// ```swift
    /// let evens = numbers.filter { $0.isMultiple(of: 2) }
    /// ```
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> FilteredSource<Self> {
        FilteredSource(base: self, isIncluded: isIncluded)
    }
}

/// A source that passes on some values of its base source; made by ``SourceType/filter(_:)``.
public struct FilteredSource<Base: SourceType>: SourceType {
    @usableFromInline let base: Base
    @usableFromInline let isIncluded: (Base.Value) -> Bool

    /// Starts sending the included values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        let isIncluded = isIncluded
        return base.subscribe { value in
            if isIncluded(value) { sink(value) }
        }
    }
}
