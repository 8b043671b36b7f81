extension ObservableValueType {
    /// An observable whose value is `transform` of this one's.
    ///
    /// ```swift
    /// let greeting = name.map { "Hello, \($0)!" }
    /// ```
    ///
    /// The transform runs when the value is read and for each change (on the old and the
    /// new value); nothing is cached. Key paths work too: `person.map(\.age)`.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> MappedObservable<Self, Output> {
        MappedObservable(base: self, transform: transform)
    }
}

extension UpdatableValueType {
    /// A two-way view of this updatable: reading applies `transform`, writing applies
    /// `inverse` and writes the result back.
    ///
    /// ```swift
    /// let celsius = Variable(20.0)
    /// let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
    /// fahrenheit.value = 212   // celsius.value == 100
    /// ```
    public func map<Output>(
        _ transform: @escaping (Value) -> Output, inverse: @escaping (Output) -> Value
    ) -> MappedUpdatable<Self, Output> {
        MappedUpdatable(base: self, transform: transform, inverse: inverse)
    }
}

/// An observable derived from another by a function; made by ``ObservableValueType/map(_:)``.
public struct MappedObservable<Base: ObservableValueType, Output>: ObservableValueType {
    let base: Base
    let transform: (Base.Value) -> Output

    /// `transform` of the base's value.
    public var value: Output { transform(base.value) }

    /// The base's transactions, with each change transformed.
    public var updates: Source<Update<ValueChange<Output>>> {
        let transform = transform
        return Source(base.updates.map { $0.map { $0.map(transform) } })
    }
}

/// A two-way view of an updatable; made by ``UpdatableValueType/map(_:inverse:)``.
public struct MappedUpdatable<Base: UpdatableValueType, Output>: UpdatableValueType, TransactionParticipant {
    let base: Base
    let transform: (Base.Value) -> Output
    let inverse: (Output) -> Base.Value

    /// `transform` of the base's value; setting it sets the base to `inverse` of it.
    public var value: Output {
        get { transform(base.value) }
        nonmutating set { base.value = inverse(newValue) }
    }

    /// The base's transactions, with each change transformed.
    public var updates: Source<Update<ValueChange<Output>>> {
        let transform = transform
        return Source(base.updates.map { $0.map { $0.map(transform) } })
    }

    /// Applies a transaction event to the base, changes mapped through `inverse`.
    public func apply(_ update: Update<ValueChange<Output>>) {
        base.apply(update.map { $0.map(inverse) })
    }
}
