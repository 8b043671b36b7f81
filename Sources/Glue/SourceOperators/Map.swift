extension SourceType {
    /// A source that sends `transform` of each value this source sends.
    ///
    /// ```swift
    /// let lengths = names.map { $0.count }
    /// ```
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> MappedSource<Self, Output> {
        MappedSource(base: self, transform: transform)
    }
}

/// A source that transforms each value of its base source; made by ``SourceType/map(_:)``.
///
/// Each subscription subscribes to the base with a sink that applies the transform, so a
/// value costs one closure call and no allocation.
public struct MappedSource<Base: SourceType, Output>: SourceType {
    @usableFromInline let base: Base
    @usableFromInline let transform: (Base.Value) -> Output

    /// Starts sending transformed values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Output) -> Void) -> Connection {
        let transform = transform
        return base.subscribe { sink(transform($0)) }
    }
}
