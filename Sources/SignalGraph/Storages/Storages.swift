// The storages: for values, sets, dictionaries and arrays, each read-only (fed by its owner),
// editable (a slot) and replicating (fed by signals).

// MARK: Values

/// A single value that sends its changes; its owner changes it with ``update(_:)``.
public final class ValueStorage<Value>: StateStorage<Value, Value>, Storage {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = ValueSignal<Value>

    /// A storage holding `value`.
    public init(_ value: Value) {
        super.init(state: value) { new, state in state = new }
    }

    /// Sets the value and sends the transition.
    public func update(_ value: Value) {
        commit(value)
    }
}

/// A single value you edit directly; every edit is sent as a transition.
public final class EditableValueStorage<Value>: StateStorage<Value, Value>, Slot {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = ValueSignal<Value>

    /// A storage holding `value`.
    public init(_ value: Value) {
        super.init(state: value) { new, state in state = new }
    }

    /// The value; setting it sends the transition.
    override public var state: Value {
        get { storedState }
        set { commit(newValue) }
    }
}

/// A value rebuilt from value signals. A termination keeps the last value (a value cannot be
/// empty); the original mishandled it.
public final class ReplicatingValueStorage<Value>: ReplicatingStorage<Value, Value>, Replication {
    /// The signals it receives.
    public typealias IncomingSignal = ValueSignal<Value>
    /// The signals it sends.
    public typealias OutgoingSignal = ValueSignal<Value>

    /// A replication holding `initial` until its first initiation.
    public init(_ initial: Value) {
        super.init(state: initial, empty: nil) { new, state in state = new }
    }
}

// MARK: Sets

/// A set that sends its changes; its owner changes it with ``apply(_:)-(SetTransition<Element>)``.
public final class SetStorage<Element: Hashable>: StateStorage<Set<Element>, SetTransition<Element>>, Storage {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = SetSignal<Element>

    /// A storage holding `elements`. Registering a sensor sends it an initiation with them
    /// (the original's set storage did not).
    public init(_ elements: Set<Element> = []) {
        super.init(state: elements) { transition, state in transition.apply(to: &state) }
    }

    /// Applies and sends `transition`.
    public func apply(_ transition: SetTransition<Element>) {
        commit(transition)
    }
}

/// A set you edit directly; every edit is sent as a transition.
public final class EditableSetStorage<Element: Hashable>: StateStorage<Set<Element>, SetTransition<Element>>, Slot {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = SetSignal<Element>

    /// A storage holding `elements`.
    public init(_ elements: Set<Element> = []) {
        super.init(state: elements) { transition, state in transition.apply(to: &state) }
    }

    /// The elements; setting sends what was removed and what was inserted.
    override public var state: Set<Element> {
        get { storedState }
        set {
            commit(
                SetTransition(deleted: storedState.subtracting(newValue), inserted: newValue.subtracting(storedState)))
        }
    }

    /// Inserts `element` (sends nothing if present).
    public func insert(_ element: Element) {
        guard !storedState.contains(element) else { return }
        commit(SetTransition(inserted: [element]))
    }

    /// Removes `element` (sends nothing if absent).
    public func remove(_ element: Element) {
        guard storedState.contains(element) else { return }
        commit(SetTransition(deleted: [element]))
    }

    /// Removes `transition`'s deleted elements, then inserts its inserted ones, as one
    /// transition; what changes nothing (removing an element the set lacks, inserting one it
    /// holds) is left out of what is sent, and an empty result sends nothing.
    public func apply(_ transition: SetTransition<Element>) {
        let deleted = transition.deleted.intersection(storedState)
        let inserted = transition.inserted.subtracting(storedState.subtracting(deleted))
        guard !deleted.isEmpty || !inserted.isEmpty else { return }
        commit(SetTransition(deleted: deleted.subtracting(inserted), inserted: inserted.subtracting(deleted)))
    }
}

/// A set rebuilt from set signals; a termination empties it.
public final class ReplicatingSetStorage<Element: Hashable>: ReplicatingStorage<Set<Element>, SetTransition<Element>>,
    Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = SetSignal<Element>
    /// The signals it sends.
    public typealias OutgoingSignal = SetSignal<Element>

    /// An empty replication.
    public init() {
        super.init(state: [], empty: []) { transition, state in transition.apply(to: &state) }
    }
}

// MARK: Dictionaries

/// A dictionary that sends its changes; its owner changes it with
/// ``apply(_:)-(DictionaryTransition<Key,Value>)``.
public final class DictionaryStorage<Key: Hashable, Value>: StateStorage<
    [Key: Value], DictionaryTransition<Key, Value>
>,
Storage
{
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Value>

    /// A storage holding `entries`.
    public init(_ entries: [Key: Value] = [:]) {
        super.init(state: entries) { transition, state in transition.apply(to: &state) }
    }

    /// Applies and sends `transition`.
    public func apply(_ transition: DictionaryTransition<Key, Value>) {
        commit(transition)
    }
}

/// A dictionary you edit directly; every edit is sent as an insert, update or delete.
///
/// The front of the seed's pipeline:
/// ```swift
/// let rows = EditableDictionaryStorage<Int, Row>()
/// let visible = DictionaryFilteringDictionaryStorage<Int, Row> { !$1.done }
/// rows.register(visible)
/// rows[1] = Row(name: "Ada", score: 3, done: false)
/// ```
public final class EditableDictionaryStorage<Key: Hashable, Value>: StateStorage<
    [Key: Value], DictionaryTransition<Key, Value>
>, Slot
{
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Value>

    /// A storage holding `entries`.
    public init(_ entries: [Key: Value] = [:]) {
        super.init(state: entries) { transition, state in transition.apply(to: &state) }
    }

    /// The entries; setting resets sensors to the new entries (termination, then
    /// initiation).
    override public var state: [Key: Value] {
        get { storedState }
        set { reset(to: newValue) }
    }

    /// The value under `key`; setting sends an insert, an update or (for `nil`) a delete.
    public subscript(key: Key) -> Value? {
        get { storedState[key] }
        set {
            switch (storedState[key], newValue) {
            case (nil, let value?): commit(DictionaryTransition([.insert(key, value)]))
            case (_?, let value?): commit(DictionaryTransition([.update(key, value)]))
            case (_?, nil): commit(DictionaryTransition([.delete(key)]))
            case (nil, nil): break
            }
        }
    }

    /// Removes the entry under `key`, if any.
    public func removeValue(forKey key: Key) {
        self[key] = nil
    }

    /// Applies `transition`'s mutations in order, as one transition: each is sent as the
    /// insert, update or delete it is for the entries as they are then (an insert under a
    /// key that is there is an update), and a delete of a missing key is left out.
    public func apply(_ transition: DictionaryTransition<Key, Value>) {
        var present: [Key: Bool] = [:]
        var mutations: [DictionaryMutation<Key, Value>] = []
        for mutation in transition.mutations {
            switch mutation {
            case .insert(let key, let value), .update(let key, let value):
                let exists = present[key] ?? (storedState[key] != nil)
                mutations.append(exists ? .update(key, value) : .insert(key, value))
                present[key] = true
            case .delete(let key):
                guard present[key] ?? (storedState[key] != nil) else { continue }
                mutations.append(.delete(key))
                present[key] = false
            }
        }
        guard !mutations.isEmpty else { return }
        commit(DictionaryTransition(mutations))
    }
}

/// A dictionary rebuilt from dictionary signals; a termination empties it.
public final class ReplicatingDictionaryStorage<Key: Hashable, Value>: ReplicatingStorage<
    [Key: Value], DictionaryTransition<Key, Value>
>, Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = DictionarySignal<Key, Value>
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Value>

    /// An empty replication.
    public init() {
        super.init(state: [:], empty: [:]) { transition, state in transition.apply(to: &state) }
    }
}

// MARK: Arrays

/// An array that sends its changes; its owner changes it with ``apply(_:)-(ArrayTransition<Element>)``.
public final class ArrayStorage<Element>: StateStorage<[Element], ArrayTransition<Element>>, Storage {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Element>

    /// A storage holding `elements`.
    public init(_ elements: [Element] = []) {
        super.init(state: elements) { transition, state in transition.apply(to: &state) }
    }

    /// Applies and sends `transition`.
    public func apply(_ transition: ArrayTransition<Element>) {
        commit(transition)
    }
}

/// An array you edit directly; every edit is sent as an insert, update or delete.
///
/// It starts from the elements it is given (the original ignored them).
public final class EditableArrayStorage<Element>: StateStorage<[Element], ArrayTransition<Element>>, Slot {
    /// It takes no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Element>

    /// A storage holding `elements`.
    public init(_ elements: [Element] = []) {
        super.init(state: elements) { transition, state in transition.apply(to: &state) }
    }

    /// The elements; setting resets sensors to them (termination, then initiation).
    override public var state: [Element] {
        get { storedState }
        set { reset(to: newValue) }
    }

    /// Applies and sends `transition`.
    public func apply(_ transition: ArrayTransition<Element>) {
        commit(transition)
    }
}

/// An array rebuilt from array signals; a termination empties it.
public final class ReplicatingArrayStorage<Element>: ReplicatingStorage<[Element], ArrayTransition<Element>>,
    Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = ArraySignal<Element>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Element>

    /// An empty replication.
    public init() {
        super.init(state: [], empty: []) { transition, state in transition.apply(to: &state) }
    }
}
