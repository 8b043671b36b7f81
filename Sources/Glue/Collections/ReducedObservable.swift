extension ObservableArrayType {
    /// An observable fold of the array, kept up to date edit by edit: `add` folds in each
    /// new element and `remove`, the inverse of `add`, takes out each old one.
    ///
    /// ```swift
    /// let total = prices.reduce(0, add: +, remove: -)
    /// ```
    public func reduce<Result>(
        _ initial: Result, add: @escaping (Result, Element) -> Result, remove: @escaping (Result, Element) -> Result
    ) -> ReducedObservable<Result> {
        ReducedObservable(array: self, initial: initial, add: add, remove: remove)
    }
}

extension ObservableArrayType where Element: AdditiveArithmetic {
    /// The observable sum of the elements, updated by adding and subtracting only what
    /// changed.
    public func sum() -> ReducedObservable<Element> {
        reduce(.zero, add: +, remove: -)
    }
}

extension ObservableSetType {
    /// An observable fold of the set, kept up to date change by change: `add` folds in each
    /// element that joins and `remove`, the inverse of `add`, takes out each that leaves.
    public func reduce<Result>(
        _ initial: Result, add: @escaping (Result, Element) -> Result, remove: @escaping (Result, Element) -> Result
    ) -> ReducedObservable<Result> {
        ReducedObservable(set: self, initial: initial, add: add, remove: remove)
    }
}

extension ObservableSetType where Element: AdditiveArithmetic {
    /// The observable sum of the elements.
    public func sum() -> ReducedObservable<Element> {
        reduce(.zero, add: +, remove: -)
    }
}

/// An observable fold of a collection; made by ``ObservableArrayType/reduce(_:add:remove:)``,
/// ``ObservableSetType/reduce(_:add:remove:)`` and `sum()`.
///
/// Cost of one change: one `add` per element that joins and one `remove` per element that
/// leaves. Within a transaction it reports one change, from the value the transaction
/// began with to the value it ends with.
public final class ReducedObservable<Value>: ObservableValueType {
    /// The current result.
    public private(set) var value: Value
    private let base: AnyObject
    private let follower: AnyObject
    private let signal: Signal<Update<ValueChange<Value>>>

    init<Base: ObservableArrayType>(
        array base: Base, initial: Value, add: @escaping (Value, Base.Element) -> Value,
        remove: @escaping (Value, Base.Element) -> Value
    ) {
        self.base = ObjectBox(base)
        value = base.value.reduce(initial, add)
        let follower = ChangeFollower<ArrayChange<Base.Element>, ValueChange<Value>>()
        self.follower = follower
        signal = follower.signal
        signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            let old = value
            for modification in change.modifications {
                switch modification {
                case .insert(let element, _): value = add(value, element)
                case .remove(let element, _): value = remove(value, element)
                case .replace(let old, _, let new): value = add(remove(value, old), new)
                case .replaceSlice(let old, _, let new):
                    value = new.reduce(old.reduce(value, remove), add)
                }
            }
            return ValueChange(from: old, to: value)
        }
    }

    init<Base: ObservableSetType>(
        set base: Base, initial: Value, add: @escaping (Value, Base.Element) -> Value,
        remove: @escaping (Value, Base.Element) -> Value
    ) {
        self.base = ObjectBox(base)
        value = base.value.reduce(initial, add)
        let follower = ChangeFollower<SetChange<Base.Element>, ValueChange<Value>>()
        self.follower = follower
        signal = follower.signal
        signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            let old = value
            value = change.inserted.reduce(change.removed.reduce(value, remove), add)
            return ValueChange(from: old, to: value)
        }
    }

    /// The result's transactions: one change per base change.
    public var updates: Source<Update<ValueChange<Value>>> { signal.source }
}
