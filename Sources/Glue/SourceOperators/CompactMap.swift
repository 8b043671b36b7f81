extension SourceType {
    /// A source that sends the non-`nil` results of `transform` on each value.
    ///
    /// ```swift
    /// let numbers = lines.compactMap { Int($0) }
    /// let present = optionals.compactMap { $0 }
    /// ```
    public func compactMap<Output>(_ transform: @escaping (Value) -> Output?) -> CompactMappedSource<Self, Output> {
        CompactMappedSource(base: self, transform: transform)
    }
}

/// A source that transforms values and drops `nil` results; made by
/// ``SourceType/compactMap(_:)``.
public struct CompactMappedSource<Base: SourceType, Output>: SourceType {
    @usableFromInline let base: Base
    @usableFromInline let transform: (Base.Value) -> Output?

    /// Starts sending the non-`nil` transformed values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Output) -> Void) -> Connection {
        let transform = transform
        return base.subscribe { value in
            if let output = transform(value) { sink(output) }
        }
    }
}
