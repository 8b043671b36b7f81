extension ObservableArrayType {
    /// An observable array of `transform` applied to each element, kept up to date edit by
    /// edit: the transform runs once per inserted or replaced element.
    ///
    /// ```swift
    /// let titles = todos.map { $0.title }
    /// ```
    public func map<Output>(_ transform: @escaping (Element) -> Output) -> MappedObservableArray<Self, Output> {
        MappedObservableArray(base: self, transform: transform)
    }
}

/// An observable array of transformed elements; made by ``ObservableArrayType/map(_:)``.
///
/// It holds the transformed array and keeps it for as long as it lives. An edit costs one
/// transform per new element plus the shifting of the array.
public final class MappedObservableArray<Base: ObservableArrayType, Output>: ObservableArrayType {
    /// The type of the transformed elements.
    public typealias Element = Output

    /// The transformed elements.
    public private(set) var value: [Output]
    private let base: Base
    private let follower = ChangeFollower<ArrayChange<Base.Element>, ArrayChange<Output>>()

    init(base: Base, transform: @escaping (Base.Element) -> Output) {
        self.base = base
        value = base.value.map(transform)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            let mapped = change.map(transform)
            mapped.apply(on: &value)
            return mapped
        }
    }

    /// The transformed array's transactions.
    public var updates: Source<Update<ArrayChange<Output>>> { follower.signal.source }
}
