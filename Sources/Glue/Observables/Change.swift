/// A description of how a value changed, that can be applied and merged.
///
/// ``ValueChange`` describes a whole value replaced; ``ArrayChange`` and ``SetChange``
/// describe edits to a collection. Observables report changes inside transactions
/// (see ``Update``); several changes in one transaction merge into one.
public protocol ChangeType<Value> {
    /// The type of value the change applies to.
    associatedtype Value

    /// Whether the change leaves the value as it was.
    var isEmpty: Bool { get }

    /// Applies the change to `value`.
    func apply(on value: inout Value)

    /// Folds `next`, which happened after this change, into this change.
    mutating func merge(with next: Self)
}

/// A whole value replaced: the old value and the new one.
public struct ValueChange<Value>: ChangeType {
    /// The value before the change.
    public var old: Value
    /// The value after the change.
    public var new: Value

    /// Creates a change from `old` to `new`.
    public init(from old: Value, to new: Value) {
        self.old = old
        self.new = new
    }

    /// Never empty: replacing a value is a change even when the new value is equal. Use
    /// `distinct()` to drop changes between equal values.
    public var isEmpty: Bool { false }

    /// Sets `value` to ``new``.
    public func apply(on value: inout Value) {
        value = new
    }

    /// Keeps this change's ``old`` and takes `next`'s ``new``.
    public mutating func merge(with next: ValueChange<Value>) {
        new = next.new
    }

    /// The change with both values transformed.
    public func map<Output>(_ transform: (Value) -> Output) -> ValueChange<Output> {
        ValueChange<Output>(from: transform(old), to: transform(new))
    }
}

extension ValueChange: Equatable where Value: Equatable {}

extension ValueChange: CustomStringConvertible {
    /// `old → new`.
    public var description: String { "\(old) → \(new)" }
}

/// One event in the life of an observable: the start of a transaction, a change within
/// it, or its end.
///
/// Observables change only inside transactions. A transaction sends
/// ``beginTransaction`` before the value changes, any number of ``change(_:)`` events, and
/// ``endTransaction`` once the value is final. Transactions may nest (a derived observable
/// is in a transaction while any of its inputs is); only the outermost end counts.
/// Observers that want one consistent change per transaction subscribe to
/// ``ObservableType/changes`` or to the values.
public enum Update<Change: ChangeType> {
    /// A transaction starts; the value has not changed yet.
    case beginTransaction
    /// A (partial) change within the transaction.
    case change(Change)
    /// The transaction ends; the value is final.
    case endTransaction

    /// The update with its change transformed.
    public func map<Other: ChangeType>(_ transform: (Change) -> Other) -> Update<Other> {
        switch self {
        case .beginTransaction: .beginTransaction
        case .change(let change): .change(transform(change))
        case .endTransaction: .endTransaction
        }
    }
}
