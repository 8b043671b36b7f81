/// A signal about a piece of state that a receiver cannot read directly.
///
/// A receiver rebuilds the full state from the signals alone:
/// - ``initiation(_:)`` carries a snapshot when the receiver starts observing;
/// - ``transition(_:)`` carries a mutation command (not a snapshot), applied in order;
/// - ``termination(_:)`` carries the final snapshot when the receiver stops observing.
///
/// A termination followed by an initiation resets the receiver to a new snapshot, which is
/// how a sender says "too much changed; start over".
public enum StateSignal<Snapshot, Transition> {
    /// Observation starts; the state is `snapshot`.
    case initiation(Snapshot)
    /// The state changed by `transition`.
    case transition(Transition)
    /// Observation ends; the state was `snapshot`.
    case termination(Snapshot)
}

/// Signals about a single value; a transition carries the new value.
public typealias ValueSignal<Value> = StateSignal<Value, Value>
/// Signals about a set.
public typealias SetSignal<Element: Hashable> = StateSignal<Set<Element>, SetTransition<Element>>
/// Signals about a dictionary.
public typealias DictionarySignal<Key: Hashable, Value> = StateSignal<[Key: Value], DictionaryTransition<Key, Value>>
/// Signals about an array.
public typealias ArraySignal<Element> = StateSignal<[Element], ArrayTransition<Element>>

/// A set mutation: elements removed, then elements inserted.
public struct SetTransition<Element: Hashable> {
    /// Elements removed.
    public var deleted: Set<Element>
    /// Elements inserted.
    public var inserted: Set<Element>

    /// A mutation that removes `deleted`, then inserts `inserted`.
    public init(deleted: Set<Element> = [], inserted: Set<Element> = []) {
        self.deleted = deleted
        self.inserted = inserted
    }

    /// Applies the mutation to `set`.
    public func apply(to set: inout Set<Element>) {
        set.subtract(deleted)
        set.formUnion(inserted)
    }
}

/// One dictionary mutation command.
public enum DictionaryMutation<Key: Hashable, Value> {
    /// `value` stored under a new `key`.
    case insert(Key, Value)
    /// The value under `key` replaced by `value`.
    case update(Key, Value)
    /// `key` and its value removed.
    case delete(Key)
}

/// Dictionary mutation commands, applied in order.
public struct DictionaryTransition<Key: Hashable, Value> {
    /// The commands, in order.
    public var mutations: [DictionaryMutation<Key, Value>]

    /// A transition of `mutations`.
    public init(_ mutations: [DictionaryMutation<Key, Value>]) {
        self.mutations = mutations
    }

    /// Applies the commands to `dictionary`, in order.
    public func apply(to dictionary: inout [Key: Value]) {
        for mutation in mutations {
            switch mutation {
            case .insert(let key, let value), .update(let key, let value): dictionary[key] = value
            case .delete(let key): dictionary[key] = nil
            }
        }
    }
}

/// One array mutation command, at an index of the array as it is when the command applies.
public enum ArrayMutation<Element> {
    /// `element` inserted at `index`.
    case insert(Element, at: Int)
    /// The element at `index` replaced by `element`.
    case update(Element, at: Int)
    /// The element at `index` removed.
    case delete(at: Int)
}

/// Array mutation commands, applied in order.
public struct ArrayTransition<Element> {
    /// The commands, in order.
    public var mutations: [ArrayMutation<Element>]

    /// A transition of `mutations`.
    public init(_ mutations: [ArrayMutation<Element>]) {
        self.mutations = mutations
    }

    /// Applies the commands to `array`, in order.
    public func apply(to array: inout [Element]) {
        for mutation in mutations {
            switch mutation {
            case .insert(let element, let index): array.insert(element, at: index)
            case .update(let element, let index): array[index] = element
            case .delete(let index): array.remove(at: index)
            }
        }
    }
}

extension SetTransition: Equatable {}
extension DictionaryMutation: Equatable where Value: Equatable {}
extension ArrayMutation: Equatable where Element: Equatable {}
