extension ObservableSetType {
    /// An observable set of the elements for which `isIncluded` is `true`, kept up to date
    /// change by change: the predicate runs once per element that joins.
    public func filter(_ isIncluded: @escaping (Element) -> Bool) -> FilteredObservableSet<Self> {
        FilteredObservableSet(base: self, isIncluded: isIncluded)
    }

    /// An observable set of `transform` applied to each element, kept up to date change by
    /// change. Several elements may map to the same output; the output stays while any of
    /// them is in the set.
    public func map<Output: Hashable>(_ transform: @escaping (Element) -> Output) -> MappedObservableSet<Self, Output> {
        MappedObservableSet(base: self, transform: transform)
    }
}

/// An observable set of the included elements; made by ``ObservableSetType/filter(_:)``.
///
/// Cost of one change: one predicate call per element that joins; O(1) per element that
/// leaves.
public final class FilteredObservableSet<Base: ObservableSetType>: ObservableSetType {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The included elements.
    public private(set) var value: Set<Base.Element>
    private let base: Base
    private let follower = ChangeFollower<SetChange<Base.Element>, SetChange<Base.Element>>()

    init(base: Base, isIncluded: @escaping (Base.Element) -> Bool) {
        self.base = base
        value = base.value.filter(isIncluded)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            let removed = change.removed.filter { value.contains($0) }
            let inserted = change.inserted.filter(isIncluded)
            let output = SetChange(removed: removed, inserted: inserted)
            output.apply(on: &value)
            return output
        }
    }

    /// The filtered set's transactions.
    public var updates: Source<Update<SetChange<Base.Element>>> { follower.signal.source }
}

/// An observable set of transformed elements; made by ``ObservableSetType/map(_:)``.
///
/// It counts how many base elements map to each output, so an output leaves only when its
/// last source element does. Cost of one change: one transform per element that joins or
/// leaves.
public final class MappedObservableSet<Base: ObservableSetType, Output: Hashable>: ObservableSetType {
    /// The type of the transformed elements.
    public typealias Element = Output

    /// The transformed elements.
    public private(set) var value: Set<Output> = []
    private var counts: [Output: Int] = [:]
    private let base: Base
    private let follower = ChangeFollower<SetChange<Base.Element>, SetChange<Output>>()

    init(base: Base, transform: @escaping (Base.Element) -> Output) {
        self.base = base
        for element in base.value { counts[transform(element), default: 0] += 1 }
        value = Set(counts.keys)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            var removed: Set<Output> = []
            var inserted: Set<Output> = []
            for element in change.removed {
                let output = transform(element)
                counts[output, default: 0] -= 1
                if counts[output] == 0 {
                    counts[output] = nil
                    removed.insert(output)
                }
            }
            for element in change.inserted {
                let output = transform(element)
                counts[output, default: 0] += 1
                if counts[output] == 1 {
                    if removed.remove(output) == nil { inserted.insert(output) }
                }
            }
            let output = SetChange(removed: removed, inserted: inserted)
            output.apply(on: &value)
            return output
        }
    }

    /// The mapped set's transactions.
    public var updates: Source<Update<SetChange<Output>>> { follower.signal.source }
}
