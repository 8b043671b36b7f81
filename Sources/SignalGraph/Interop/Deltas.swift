import ReactiveCore

// SignalGraph in the package's change vocabulary: emitters' state signals as `DeltaSource`s,
// the storages their owner changes as `DeltaTarget`s. See ReactiveCore's `drive(_:)`.

extension ArrayTransition {
    /// The mutations as a delta, O(mutations).
    public var delta: ArrayDelta<Element> {
        ArrayDelta(
            mutations.map { mutation in
                switch mutation {
                case .insert(let element, let index): .insert(element, at: index)
                case .update(let element, let index): .update(element, at: index)
                case .delete(let index): .remove(at: index)
                }
            })
    }
}

extension DictionaryTransition {
    /// The mutations as a delta, O(mutations).
    public var delta: DictionaryDelta<Key, Value> {
        DictionaryDelta(
            mutations.map { mutation in
                switch mutation {
                case .insert(let key, let value): .insert(key, value)
                case .update(let key, let value): .update(key, value)
                case .delete(let key): .remove(key)
                }
            })
    }
}

extension SetTransition {
    /// The removals, then the insertions, as a delta: O(elements changed).
    public var delta: SetDelta<Element> {
        SetDelta(deleted.map { .remove($0) } + inserted.map { .insert($0) })
    }
}

// MARK: Sources

/// An emitter's state signals as a `DeltaSource`: see `Emitter`'s `deltas()`.
///
/// An initiation is one transaction holding a reset to its snapshot, a transition one
/// holding its delta. A termination sends nothing: the target keeps the state it has (a
/// storage sends one to the bridge's sensor when the bridge disconnects), and a later
/// initiation resets it.
public struct SignalDeltas<Delta>: DeltaSource {
    let emitter: ObjectIdentifier
    let subscribe: (@escaping (DeltaEvent<Delta>) -> Void) -> Connection

    /// The emitter, which is the target a bridge names when it is a storage: so that a
    /// storage driven by what it drives stops where a change began.
    public var bridgeIdentity: ObjectIdentifier? { emitter }

    /// Registers a sensor on the emitter that sends its signals as deltas; the connection
    /// deregisters it. A storage's initiation arrives at once (or, during a delivery, when
    /// the registration's turn comes).
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Delta>) -> Void) -> Connection {
        subscribe(sink)
    }
}

extension Emitter {
    /// The array's signals as deltas.
    ///
    /// ```swift
    /// let rows = EditableArrayStorage(["a"])
    /// let bridge = rows.deltas().drive(input)   // an Incremental array input
    /// ```
    public func deltas<Element>() -> SignalDeltas<ArrayDelta<Element>> where OutgoingSignal == ArraySignal<Element> {
        stateDeltas(reset: { .reset(to: $0) }, delta: { $0.delta })
    }

    /// The dictionary's signals as deltas.
    public func deltas<Key, Value>() -> SignalDeltas<DictionaryDelta<Key, Value>>
    where OutgoingSignal == DictionarySignal<Key, Value> {
        stateDeltas(reset: { .reset(to: $0) }, delta: { $0.delta })
    }

    /// The set's signals as deltas.
    public func deltas<Element>() -> SignalDeltas<SetDelta<Element>> where OutgoingSignal == SetSignal<Element> {
        stateDeltas(reset: { .reset(to: $0) }, delta: { $0.delta })
    }

    /// The value's signals as deltas: each initiation and transition is one transaction
    /// holding the value.
    public func deltas<Value>() -> SignalDeltas<Value> where OutgoingSignal == ValueSignal<Value> {
        stateDeltas(reset: { $0 }, delta: { $0 })
    }

    private func stateDeltas<Snapshot, Transition, Delta>(
        reset: @escaping (Snapshot) -> Delta, delta: @escaping (Transition) -> Delta
    ) -> SignalDeltas<Delta> where OutgoingSignal == StateSignal<Snapshot, Transition> {
        SignalDeltas(emitter: ObjectIdentifier(self)) { [self] sink in
            subscribe { signal in
                switch signal {
                case .initiation(let snapshot):
                    sink(.begin)
                    sink(.delta(reset(snapshot)))
                    sink(.end)
                case .transition(let transition):
                    sink(.begin)
                    sink(.delta(delta(transition)))
                    sink(.end)
                case .termination:
                    break
                }
            }
        }
    }
}

// MARK: Targets

extension StateStorage {
    /// Applies a transaction's deltas as one signal: from the last reset on, a reset to its
    /// snapshot with the later edits applied (a termination and an initiation); without a
    /// reset, one transition made by `transition` (nothing, if it is `nil`).
    func applyDeltas<Delta: CollectionDelta>(
        _ deltas: [Delta], resetOf: (Delta) -> (snapshot: Snapshot, rest: Delta)?,
        transition: (Delta) -> Transition?
    ) where Delta.Collection == Snapshot {
        guard var all = deltas.first else { return }
        for delta in deltas.dropFirst() { all.append(contentsOf: delta) }
        if let (snapshot, rest) = resetOf(all) {
            var state = snapshot
            rest.apply(to: &state)
            reset(to: state)
        } else if let transition = transition(all) {
            commit(transition)
        }
    }
}

/// The snapshot of the last edit of `edits` that is a reset (`snapshot` says which are, and
/// what they hold), and the edits after it.
private func splitAtLastReset<Edit, Snapshot>(
    _ edits: [Edit], snapshot: (Edit) -> Snapshot?
) -> (Snapshot, [Edit])? {
    guard let index = edits.lastIndex(where: { snapshot($0) != nil }), let found = snapshot(edits[index]) else {
        return nil
    }
    return (found, Array(edits[(index + 1)...]))
}

extension ArrayDelta {
    /// The snapshot of the last reset and the edits after it, if there is a reset.
    var lastReset: (snapshot: [Element], rest: ArrayDelta)? {
        splitAtLastReset(edits) { if case .reset(let snapshot) = $0 { snapshot } else { nil } }
            .map { ($0, ArrayDelta($1)) }
    }

    /// The edits as one transition of `state`: a move is a deletion and an insertion of the
    /// element it moves, found by walking back through the mutations before it (O(edits)).
    ///
    /// - Precondition: Every position is in range when its edit applies.
    func transition(of state: [Element]) -> ArrayTransition<Element>? {
        var mutations: [ArrayMutation<Element>] = []
        mutations.reserveCapacity(edits.count)
        var count = state.count
        func element(at index: Int) -> Element {
            var index = index
            for mutation in mutations.reversed() {
                switch mutation {
                case .insert(let element, let at):
                    if index == at { return element }
                    if index > at { index -= 1 }
                case .update(let element, let at):
                    if index == at { return element }
                case .delete(let at):
                    if index >= at { index += 1 }
                }
            }
            return state[index]
        }
        func check(_ index: Int, _ limit: Int, _ edit: StaticString) {
            precondition(
                index >= 0 && index < limit, "SignalGraph: an array delta's \(edit) at \(index) of \(count) elements")
        }
        for edit in edits {
            switch edit {
            case .insert(let element, let index):
                check(index, count + 1, "insert")
                mutations.append(.insert(element, at: index))
                count += 1
            case .remove(let index):
                check(index, count, "remove")
                mutations.append(.delete(at: index))
                count -= 1
            case .update(let element, let index):
                check(index, count, "update")
                mutations.append(.update(element, at: index))
            case .move(let from, let to):
                check(from, count, "move")
                check(to, count, "move")
                guard from != to else { continue }
                let element = element(at: from)
                mutations.append(.delete(at: from))
                mutations.append(.insert(element, at: to))
            case .reset(let elements):
                // Split off by `lastReset` before a transition is made; kept whole here.
                mutations.append(contentsOf: repeatElement(.delete(at: 0), count: count))
                mutations.append(contentsOf: elements.enumerated().map { .insert($1, at: $0) })
                count = elements.count
            }
        }
        return mutations.isEmpty ? nil : ArrayTransition(mutations)
    }
}

extension DictionaryDelta {
    /// The snapshot of the last reset and the edits after it, if there is a reset.
    var lastReset: (snapshot: [Key: Value], rest: DictionaryDelta)? {
        splitAtLastReset(edits) { if case .reset(let snapshot) = $0 { snapshot } else { nil } }
            .map { ($0, DictionaryDelta($1)) }
    }

    /// The edits as one transition of `state`, each an insertion or an update as the key is
    /// absent or present when it applies; removals of absent keys are left out. O(edits).
    func transition(of state: [Key: Value]) -> DictionaryTransition<Key, Value>? {
        var present: [Key: Bool] = [:]
        var mutations: [DictionaryMutation<Key, Value>] = []
        for edit in edits {
            switch edit {
            case .insert(let key, let value), .update(let key, let value):
                let exists = present[key] ?? (state[key] != nil)
                mutations.append(exists ? .update(key, value) : .insert(key, value))
                present[key] = true
            case .remove(let key):
                guard present[key] ?? (state[key] != nil) else { continue }
                mutations.append(.delete(key))
                present[key] = false
            case .reset(let entries):
                // Split off by `lastReset` before a transition is made; kept whole here.
                let keys = Set(state.keys).union(present.keys)
                for key in keys where entries[key] == nil && (present[key] ?? (state[key] != nil)) {
                    mutations.append(.delete(key))
                    present[key] = false
                }
                for (key, value) in entries {
                    let exists = present[key] ?? (state[key] != nil)
                    mutations.append(exists ? .update(key, value) : .insert(key, value))
                    present[key] = true
                }
            }
        }
        return mutations.isEmpty ? nil : DictionaryTransition(mutations)
    }
}

extension SetDelta {
    /// The snapshot of the last reset and the edits after it, if there is a reset.
    var lastReset: (snapshot: Set<Element>, rest: SetDelta)? {
        splitAtLastReset(edits) { if case .reset(let snapshot) = $0 { snapshot } else { nil } }
            .map { ($0, SetDelta($1)) }
    }

    /// The net effect on `state` as one transition, O(edits).
    func transition(of state: Set<Element>) -> SetTransition<Element>? {
        let (removed, inserted) = net(against: state)
        return removed.isEmpty && inserted.isEmpty ? nil : SetTransition(deleted: removed, inserted: inserted)
    }
}

extension ValueStorage: DeltaTarget {
    /// Sets the last value: one transition for the source's transaction.
    public func apply(_ deltas: [Value]) {
        if let last = deltas.last { update(last) }
    }
}

extension EditableValueStorage: DeltaTarget {
    /// Sets the last value: one transition for the source's transaction.
    public func apply(_ deltas: [Value]) {
        if let last = deltas.last { state = last }
    }
}

extension ArrayStorage: DeltaTarget {
    /// Applies the source's transaction as one signal: a transition of its edits (a move is a
    /// deletion and an insertion), or, if it holds a reset, a termination and an initiation
    /// with the state after it. O(edits), plus O(n) for a reset.
    ///
    /// - Precondition: Every position is in range when its edit applies.
    public func apply(_ deltas: [ArrayDelta<Element>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}

extension EditableArrayStorage: DeltaTarget {
    /// Applies the source's transaction as one signal, as `ArrayStorage`'s does.
    ///
    /// - Precondition: Every position is in range when its edit applies.
    public func apply(_ deltas: [ArrayDelta<Element>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}

extension DictionaryStorage: DeltaTarget {
    /// Applies the source's transaction as one signal: a transition whose insertions and
    /// updates follow whether each key is there, without removals of absent keys, or, if it
    /// holds a reset, a termination and an initiation with the state after it. O(edits),
    /// plus O(n) for a reset.
    public func apply(_ deltas: [DictionaryDelta<Key, Value>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}

extension EditableDictionaryStorage: DeltaTarget {
    /// Applies the source's transaction as one signal, as
    /// `DictionaryStorage`'s does.
    public func apply(_ deltas: [DictionaryDelta<Key, Value>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}

extension SetStorage: DeltaTarget {
    /// Applies the source's transaction as one signal: a transition of its net effect, or,
    /// if it holds a reset, a termination and an initiation with the state after it.
    /// O(edits), plus O(n) for a reset.
    public func apply(_ deltas: [SetDelta<Element>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}

extension EditableSetStorage: DeltaTarget {
    /// Applies the source's transaction as one signal, as `SetStorage`'s does.
    public func apply(_ deltas: [SetDelta<Element>]) {
        applyDeltas(deltas, resetOf: { $0.lastReset }) { $0.transition(of: storedState) }
    }
}
