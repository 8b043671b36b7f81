/// An observable array, reported as ``ArrayChange``s.
///
/// ``ArrayVariable`` is the updatable one; ``map(_:)``, ``filter(_:)``,
/// ``sorted(by:)`` and ``reduce(_:add:remove:)`` derive others that are kept up to date by
/// applying each change, never by recomputing from the whole array.
public protocol ObservableArrayType<Element>: ObservableType, Subscribable
where Value == [Element], Change == ArrayChange<Element> {
    /// The type of the array's elements.
    associatedtype Element
}

extension ObservableArrayType {
    /// The number of elements.
    public var count: Int { value.count }

    /// Sends the current array at once, then the array after each transaction that
    /// changes it.
    public func subscribe(_ sink: @escaping ([Element]) -> Void) -> Connection {
        let connection = changes.subscribe { _ in sink(self.value) }
        sink(value)
        return connection
    }
}

/// An observable set, reported as ``SetChange``s.
///
/// ``SetVariable`` is the updatable one; ``filter(_:)``, ``map(_:)``, ``sorted(by:)`` and
/// ``reduce(_:add:remove:)`` derive others that are kept up to date by applying each
/// change.
public protocol ObservableSetType<Element>: ObservableType, Subscribable
where Value == Set<Element>, Change == SetChange<Element> {
    /// The type of the set's elements.
    associatedtype Element: Hashable
}

extension ObservableSetType {
    /// The number of elements.
    public var count: Int { value.count }

    /// Sends the current set at once, then the set after each transaction that changes it.
    public func subscribe(_ sink: @escaping (Set<Element>) -> Void) -> Connection {
        let connection = changes.subscribe { _ in sink(self.value) }
        sink(value)
        return connection
    }
}
