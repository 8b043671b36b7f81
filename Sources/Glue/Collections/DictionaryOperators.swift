extension ObservableDictionaryType {
    /// An observable dictionary of the entries for which `isIncluded` is `true`, kept up to
    /// date change by change: the predicate runs once per entry that joins or changes value.
    ///
    /// ```swift
    /// let passing = scores.filter { _, score in score >= 50 }
    /// ```
    public func filter(_ isIncluded: @escaping (Key, Element) -> Bool) -> FilteredObservableDictionary<Self> {
        FilteredObservableDictionary(base: self, isIncluded: isIncluded)
    }

    /// An observable dictionary of the same keys with each value transformed, kept up to date
    /// change by change: the transform runs once per entry that joins or changes value.
    ///
    /// ```swift
    /// let labels = scores.mapValues { "\($0) points" }
    /// ```
    public func mapValues<Output>(_ transform: @escaping (Element) -> Output) -> MappedValuesObservableDictionary<
        Self, Output
    > {
        MappedValuesObservableDictionary(base: self, transform: transform)
    }

    /// An observable set of the keys, changing only when a key joins or leaves (not when a
    /// value changes).
    public var keys: ObservableDictionaryKeys<Self> {
        ObservableDictionaryKeys(base: self)
    }

    /// An observable array of the keys sorted by `areInIncreasingOrder`, O(log n) per key
    /// that joins or leaves.
    ///
    /// ```swift
    /// let names = scores.sortedKeys(by: <)
    /// ```
    public func sortedKeys(by areInIncreasingOrder: @escaping (Key, Key) -> Bool) -> SortedObservableArray<Key> {
        keys.sorted(by: areInIncreasingOrder)
    }
}

/// An observable dictionary of the included entries; made by
/// ``ObservableDictionaryType/filter(_:)``.
///
/// Cost of one change: one predicate call per entry that joins or changes value; O(1) per
/// entry that leaves.
public final class FilteredObservableDictionary<Base: ObservableDictionaryType>: ObservableDictionaryType {
    /// The type of the keys.
    public typealias Key = Base.Key
    /// The type of the values.
    public typealias Element = Base.Element

    /// The included entries.
    public private(set) var value: [Key: Element]
    private let base: Base
    private let follower = ChangeFollower<DictionaryChange<Key, Element>, DictionaryChange<Key, Element>>()

    init(base: Base, isIncluded: @escaping (Key, Element) -> Bool) {
        self.base = base
        value = base.value.filter { isIncluded($0.key, $0.value) }
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            var removed: [Key: Element] = [:]
            for key in change.removed.keys {
                if let old = value[key] { removed[key] = old }
            }
            let inserted = change.inserted.filter { isIncluded($0.key, $0.value) }
            let output = DictionaryChange(removed: removed, inserted: inserted)
            output.apply(on: &value)
            return output
        }
    }

    /// The filtered dictionary's transactions.
    public var updates: Source<Update<DictionaryChange<Key, Element>>> { follower.signal.source }
}

/// An observable dictionary with each value transformed; made by
/// ``ObservableDictionaryType/mapValues(_:)``.
///
/// Cost of one change: one transform per entry that joins or changes value.
public final class MappedValuesObservableDictionary<Base: ObservableDictionaryType, Output>: ObservableDictionaryType {
    /// The type of the keys.
    public typealias Key = Base.Key
    /// The type of the transformed values.
    public typealias Element = Output

    /// The transformed entries.
    public private(set) var value: [Key: Output]
    private let base: Base
    private let follower = ChangeFollower<DictionaryChange<Key, Base.Element>, DictionaryChange<Key, Output>>()

    init(base: Base, transform: @escaping (Base.Element) -> Output) {
        self.base = base
        value = base.value.mapValues(transform)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            // The old values are this view's own, not transformed again.
            var removed: [Key: Output] = [:]
            for key in change.removed.keys {
                if let old = value[key] { removed[key] = old }
            }
            let output = DictionaryChange(removed: removed, inserted: change.inserted.mapValues(transform))
            output.apply(on: &value)
            return output
        }
    }

    /// The mapped dictionary's transactions.
    public var updates: Source<Update<DictionaryChange<Key, Output>>> { follower.signal.source }
}

/// An observable set of a dictionary's keys; made by ``ObservableDictionaryType/keys``.
///
/// A value replaced under a key that stays is no change of the keys. Cost of one change: O(1)
/// per key that joins or leaves.
public final class ObservableDictionaryKeys<Base: ObservableDictionaryType>: ObservableSetType {
    /// The type of the elements: the dictionary's keys.
    public typealias Element = Base.Key

    /// The keys.
    public private(set) var value: Set<Base.Key>
    private let base: Base
    private let follower = ChangeFollower<DictionaryChange<Base.Key, Base.Element>, SetChange<Base.Key>>()

    init(base: Base) {
        self.base = base
        value = Set(base.value.keys)
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            let removed = Set(change.removed.keys.filter { change.inserted[$0] == nil })
            let inserted = Set(change.inserted.keys.filter { change.removed[$0] == nil })
            let output = SetChange(removed: removed, inserted: inserted)
            output.apply(on: &value)
            return output
        }
    }

    /// The keys' transactions.
    public var updates: Source<Update<SetChange<Base.Key>>> { follower.signal.source }
}
