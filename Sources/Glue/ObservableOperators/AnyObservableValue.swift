/// A type-erased observable value.
///
/// ```swift
/// let title: AnyObservableValue<String> = book.title.map { $0.uppercased() }.anyObservableValue
/// ```
public struct AnyObservableValue<Value>: ObservableValueType {
    private let getValue: () -> Value
    /// The wrapped observable's transactions.
    public let updates: Source<Update<ValueChange<Value>>>
    /// The observable it wraps, for the inspector (`nil` for one made from closures).
    let erasedBase: Any?

    /// Wraps `base`.
    public init<Base: ObservableValueType>(_ base: Base) where Base.Value == Value {
        getValue = { base.value }
        updates = base.updates
        erasedBase = base
    }

    /// An observable from a getter and a source of updates.
    public init(getter: @escaping () -> Value, updates: Source<Update<ValueChange<Value>>>) {
        getValue = getter
        self.updates = updates
        erasedBase = nil
    }

    /// The current value.
    public var value: Value { getValue() }

    /// An observable that always holds `value` and never changes.
    public static func constant(_ value: Value) -> AnyObservableValue<Value> {
        AnyObservableValue(getter: { value }, updates: .empty)
    }
}

/// A type-erased updatable value.
public struct AnyUpdatableValue<Value>: UpdatableValueType, TransactionParticipant {
    private let getValue: () -> Value
    private let applyUpdate: (Update<ValueChange<Value>>) -> Void
    /// The wrapped updatable's transactions.
    public let updates: Source<Update<ValueChange<Value>>>
    /// The updatable it wraps, for the inspector.
    let erasedBase: Any?

    /// Wraps `base`.
    public init<Base: UpdatableValueType>(_ base: Base) where Base.Value == Value {
        getValue = { base.value }
        applyUpdate = { base.apply($0) }
        updates = base.updates
        erasedBase = base
    }

    /// The current value; setting it sets the wrapped updatable's value.
    public var value: Value {
        get { getValue() }
        nonmutating set { applyUpdate(.change(ValueChange(from: getValue(), to: newValue))) }
    }

    /// Applies one transaction event to the wrapped updatable.
    public func apply(_ update: Update<ValueChange<Value>>) {
        applyUpdate(update)
    }
}

extension ObservableValueType {
    /// This observable, type-erased.
    public var anyObservableValue: AnyObservableValue<Value> {
        AnyObservableValue(self)
    }
}

extension UpdatableValueType {
    /// This updatable, type-erased.
    public var anyUpdatableValue: AnyUpdatableValue<Value> {
        AnyUpdatableValue(self)
    }
}
