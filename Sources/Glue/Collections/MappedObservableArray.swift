import ReactiveCore

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

    /// The transformed elements: O(log n) per inserted, removed or replaced element, whatever
    /// the array's size.
    private var elements: TreeElements<Output>
    private let base: Base
    private let follower = ChangeFollower<ArrayChange<Base.Element>, ArrayChange<Output>>()

    /// The transformed elements. Built from the tree when first read after a change, O(n);
    /// use ``count`` and ``subscript(_:)`` to look without building it.
    public var value: [Output] { elements.array() }

    /// The number of elements, O(1).
    public var count: Int { elements.tree.count }

    /// The element at `index`, O(log n).
    public subscript(index: Int) -> Output { elements.tree[index] }

    init(base: Base, transform: @escaping (Base.Element) -> Output) {
        self.base = base
        elements = TreeElements(base.value.map(transform))
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == elements.tree.count, "G3",
                    "a change for \(change.initialCount) elements reached a map of \(elements.tree.count)")
            #endif
            let mapped = change.map(transform)
            elements.edit { mapped.apply(toTree: &$0) }
            return mapped
        }
    }

    /// The transformed array's transactions.
    public var updates: Source<Update<ArrayChange<Output>>> { follower.signal.source }
}
