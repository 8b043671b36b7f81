extension ObservableArrayType where Element: Hashable {
    /// An observable set of the array's distinct elements, kept up to date edit by edit.
    ///
    /// ```swift
    /// let tags = posts.map { $0.tag }.distinctUnion()   // each tag once, while any post has it
    /// ```
    ///
    /// It counts how many times each element occurs, so an element leaves the set only when
    /// its last occurrence leaves the array. Cost of one edit: O(1) per element inserted or
    /// removed.
    public func distinctUnion() -> DistinctUnionObservableSet<Self> {
        DistinctUnionObservableSet(base: self)
    }

    /// Whether the array holds every element of `elements`, as an observable that changes
    /// only when that answer does.
    ///
    /// ```swift
    /// let ready = selection.containsAll(["title", "body"])
    /// ```
    ///
    /// Cost of one edit: O(1) per element inserted or removed.
    public func containsAll(_ elements: Set<Element>) -> AnyObservableValue<Bool> {
        distinctUnion().containsAll(elements)
    }
}

extension ObservableArrayType where Element: Equatable {
    /// Whether the array holds `element`, as an observable that changes only when that
    /// answer does.
    ///
    /// ```swift
    /// let hasUrgent = priorities.contains(.urgent)
    /// ```
    ///
    /// It counts the occurrences of `element`. Cost of one edit: one comparison per element
    /// inserted or removed.
    public func contains(_ element: Element) -> AnyObservableValue<Bool> {
        reduce(0, add: { $1 == element ? $0 + 1 : $0 }, remove: { $1 == element ? $0 - 1 : $0 })
            .map { $0 > 0 }.distinct().anyObservableValue
    }
}

extension ObservableSetType {
    /// Whether the set holds `element`, as an observable that changes only when that answer
    /// does. Cost of one change: O(1) per element that joins or leaves.
    public func contains(_ element: Element) -> AnyObservableValue<Bool> {
        containsAll([element])
    }

    /// Whether the set holds every element of `elements`, as an observable that changes only
    /// when that answer does.
    ///
    /// It counts how many of `elements` the set holds. Cost of one change: O(1) per element
    /// that joins or leaves.
    public func containsAll(_ elements: Set<Element>) -> AnyObservableValue<Bool> {
        let wanted = elements.count
        return reduce(0, add: { elements.contains($1) ? $0 + 1 : $0 }, remove: { elements.contains($1) ? $0 - 1 : $0 })
            .map { $0 == wanted }.distinct().anyObservableValue
    }
}

/// An observable set of an observable array's distinct elements; made by
/// ``ObservableArrayType/distinctUnion()``.
///
/// It holds a count per distinct element. Cost of one edit: O(1) per element inserted into
/// or removed from the array.
public final class DistinctUnionObservableSet<Base: ObservableArrayType>: ObservableSetType
where Base.Element: Hashable {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The array's distinct elements.
    public private(set) var value: Set<Element> = []
    /// How many times each element of ``value`` occurs in the array.
    private var counts: [Element: Int] = [:]
    private let base: Base
    private let follower = ChangeFollower<ArrayChange<Element>, SetChange<Element>>()

    init(base: Base) {
        self.base = base
        for element in base.value { counts[element, default: 0] += 1 }
        value = Set(counts.keys)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            var removed: Set<Element> = []
            var inserted: Set<Element> = []
            func add(_ element: Element) {
                counts[element, default: 0] += 1
                // Back from zero: it joins, unless it left in this same change.
                if counts[element] == 1, removed.remove(element) == nil { inserted.insert(element) }
            }
            func take(_ element: Element) {
                counts[element, default: 0] -= 1
                guard counts[element] == 0 else { return }
                counts[element] = nil
                if inserted.remove(element) == nil { removed.insert(element) }
            }
            for modification in change.modifications {
                switch modification {
                case .insert(let element, _): add(element)
                case .remove(let element, _): take(element)
                case .replace(let old, _, let new):
                    take(old)
                    add(new)
                case .replaceSlice(let old, _, let new):
                    old.forEach(take)
                    new.forEach(add)
                }
            }
            let output = SetChange(removed: removed, inserted: inserted)
            output.apply(on: &value)
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    value.count == counts.count, "G6",
                    "a distinct union holds \(value.count) elements and counts \(counts.count)")
            #endif
            return output
        }
    }

    /// The distinct union's transactions.
    public var updates: Source<Update<SetChange<Element>>> { follower.signal.source }
}
