extension ObservableArrayType {
    /// An observable array that keeps a copy of this one's elements as a Swift array, updated
    /// by applying each change: reading its ``BufferedObservableArray/value`` never rebuilds
    /// anything (GlueKit's `buffered()`).
    ///
    /// ```swift
    /// let rows = todos.filter { !$0.done }.sorted { $0.title < $1.title }.buffered()
    /// for row in rows.value { print(row) }   // no array built from the sorted view's tree
    /// ```
    ///
    /// A derived array's own `value` is built from its tree when first read after a change,
    /// O(n); a buffered copy pays for each change instead, O(n) at worst per edit (an insert
    /// at the front shifts the array), and its reads cost nothing. Buffer what is read more
    /// often than it changes.
    public func buffered() -> BufferedObservableArray<Self> {
        BufferedObservableArray(base: self)
    }
}

extension ObservableSetType {
    /// An observable set that keeps a copy of this one's elements, updated by applying each
    /// change: reading its ``BufferedObservableSet/value`` asks nothing of the base.
    public func buffered() -> BufferedObservableSet<Self> {
        BufferedObservableSet(base: self)
    }
}

/// A copy of an observable array's elements, kept by applying each change; made by
/// ``ObservableArrayType/buffered()``.
///
/// It reports the base's changes unchanged, in the base's transactions.
public final class BufferedObservableArray<Base: ObservableArrayType>: ObservableArrayType {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The elements, as a Swift array kept up to date: O(1) to read.
    public private(set) var value: [Element]
    private let base: Base
    private let follower = ChangeFollower<ArrayChange<Element>, ArrayChange<Element>>()

    init(base: Base) {
        self.base = base
        value = base.value
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            change.apply(on: &value)
            return change
        }
    }

    /// The buffered array's transactions: the base's.
    public var updates: Source<Update<ArrayChange<Element>>> { follower.signal.source }
}

/// A copy of an observable set's elements, kept by applying each change; made by
/// ``ObservableSetType/buffered()``.
public final class BufferedObservableSet<Base: ObservableSetType>: ObservableSetType {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The elements, kept up to date.
    public private(set) var value: Set<Element>
    private let base: Base
    private let follower = ChangeFollower<SetChange<Element>, SetChange<Element>>()

    init(base: Base) {
        self.base = base
        value = base.value
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            change.apply(on: &value)
            return change
        }
    }

    /// The buffered set's transactions: the base's.
    public var updates: Source<Update<SetChange<Element>>> { follower.signal.source }
}
