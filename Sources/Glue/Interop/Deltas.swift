import ReactiveCore

// Glue in the package's change vocabulary: its changes as deltas (observables as
// `DeltaSource`s), and its variables as `DeltaTarget`s. See ReactiveCore's `drive(_:)`.

/// A Glue change that converts to the package's change vocabulary in O(change).
public protocol DeltaRepresentableChange<Value>: ChangeType {
    /// The delta a change converts to: a `CollectionDelta` for collections, the new value
    /// for a whole value.
    associatedtype Delta

    /// The delta that takes any value to `value` (a reset; for a whole value, `value`).
    static func delta(resettingTo value: Value) -> Delta

    /// The change as a delta, O(the change's size).
    var delta: Delta { get }
}

extension ValueChange: DeltaRepresentableChange {
    /// `value` itself.
    public static func delta(resettingTo value: Value) -> Value { value }

    /// The new value.
    public var delta: Value { new }
}

extension ArrayChange: DeltaRepresentableChange {
    /// A reset to `value`.
    public static func delta(resettingTo value: [Element]) -> ArrayDelta<Element> { .reset(to: value) }

    /// The modifications as edits: a replacement is an update, a slice replacement the
    /// updates of the positions both slices cover, then the removals or insertions of the rest.
    public var delta: ArrayDelta<Element> {
        var delta = ArrayDelta<Element>()
        delta.edits.reserveCapacity(modifications.count)
        for modification in modifications {
            switch modification {
            case .insert(let element, let index): delta.append(.insert(element, at: index))
            case .remove(_, let index): delta.append(.remove(at: index))
            case .replace(_, let index, let new): delta.append(.update(new, at: index))
            case .replaceSlice(let old, let index, let new):
                let common = min(old.count, new.count)
                for offset in 0..<common { delta.append(.update(new[offset], at: index + offset)) }
                for _ in common..<old.count { delta.append(.remove(at: index + common)) }
                for offset in common..<new.count { delta.append(.insert(new[offset], at: index + offset)) }
            }
        }
        return delta
    }
}

extension SetChange: DeltaRepresentableChange {
    /// A reset to `value`.
    public static func delta(resettingTo value: Set<Element>) -> SetDelta<Element> { .reset(to: value) }

    /// The removals, then the insertions (an element in both is removed and inserted again).
    public var delta: SetDelta<Element> {
        SetDelta(removed.map { .remove($0) } + inserted.map { .insert($0) })
    }
}

extension DictionaryChange: DeltaRepresentableChange {
    /// A reset to `value`.
    public static func delta(resettingTo value: [Key: Value]) -> DictionaryDelta<Key, Value> { .reset(to: value) }

    /// The keys that left as removals, then the inserted entries: an update where the key
    /// was also removed (its value replaced), an insertion where it was not.
    public var delta: DictionaryDelta<Key, Value> {
        var delta = DictionaryDelta<Key, Value>()
        delta.edits.reserveCapacity(removed.count + inserted.count)
        for key in removed.keys where inserted[key] == nil { delta.append(.remove(key)) }
        for (key, value) in inserted { delta.append(removed[key] == nil ? .insert(key, value) : .update(key, value)) }
        return delta
    }
}

extension ObservableType where Change: DeltaRepresentableChange {
    /// Sends the current value as one transaction (a reset, for a collection), then each
    /// transaction as it is reported: ``Update/beginTransaction`` as `.begin`, each change as
    /// its delta, ``Update/endTransaction`` as `.end`. What the conformance to
    /// `DeltaSource` uses.
    ///
    /// Subscribed during a delivery, it starts from the value as it stands and receives only
    /// the updates made after (see <doc:Semantics#Reentrancy>), so the deltas always apply to
    /// the state it sent.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Change.Delta>) -> Void) -> Connection {
        let connection = updates.subscribe { update in
            switch update {
            case .beginTransaction: sink(.begin)
            case .change(let change): sink(.delta(change.delta))
            case .endTransaction: sink(.end)
            }
        }
        sink(.begin)
        sink(.delta(Change.delta(resettingTo: value)))
        sink(.end)
        return connection
    }

    /// This observable as a `DeltaSource`, for the observables that are not one themselves
    /// (the value operators' structs).
    ///
    /// ```swift
    /// let total = (price * quantity).deltas.drive(totalInput)   // an Incremental input
    /// ```
    public var deltas: ObservableDeltas<Self> { ObservableDeltas(base: self) }
}

/// An observable as a `DeltaSource`; see ``ObservableType/deltas``.
public struct ObservableDeltas<Base: ObservableType>: DeltaSource where Base.Change: DeltaRepresentableChange {
    /// The observable.
    public let base: Base

    /// Sends the observable's value, then its transactions; see
    /// ``ObservableType/subscribeDeltas(_:)``.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Base.Change.Delta>) -> Void) -> Connection {
        base.subscribeDeltas(sink)
    }

    /// The observable, when it is an object.
    public var bridgeIdentity: ObjectIdentifier? {
        Base.self is AnyClass ? ObjectIdentifier(base as AnyObject) : nil
    }
}

extension Variable: DeltaSource {}
extension ArrayVariable: DeltaSource {}
extension SetVariable: DeltaSource {}
extension DictionaryVariable: DeltaSource {}
extension MappedObservableArray: DeltaSource {}
extension FilteredObservableArray: DeltaSource {}
extension SortedObservableArray: DeltaSource {}
extension ConcatenatedObservableArray: DeltaSource {}
extension BufferedObservableArray: DeltaSource {}
extension FieldMappedObservableArray: DeltaSource {}
extension FieldFilteredObservableArray: DeltaSource {}
extension FieldSortedObservableArray: DeltaSource {}
extension FilteredObservableSet: DeltaSource {}
extension MappedObservableSet: DeltaSource {}
extension BufferedObservableSet: DeltaSource {}
extension DistinctUnionObservableSet: DeltaSource {}
extension ObservableDictionaryKeys: DeltaSource {}
extension FilteredObservableDictionary: DeltaSource {}
extension MappedValuesObservableDictionary: DeltaSource {}
extension ReducedObservable: DeltaSource {}

// MARK: Targets

extension Variable: DeltaTarget {
    /// Begins a transaction of the variable.
    public func beginTransaction() { apply(.beginTransaction) }

    /// Sets each value in order, inside the transaction: observers see one change.
    public func apply(_ deltas: [Value]) {
        for value in deltas { self.value = value }
    }

    /// Ends the transaction: observers see the change.
    public func endTransaction() { apply(.endTransaction) }
}

extension ArrayVariable: DeltaTarget {
    /// Begins a transaction of the variable.
    public func beginTransaction() { apply(.beginTransaction) }

    /// Applies each edit, inside the transaction, as the variable's own edit (a move as a
    /// removal and an insertion, a reset as the replacement of every element): observers
    /// see one change, O(edits).
    ///
    /// - Precondition: Every position is in range when its edit applies.
    public func apply(_ deltas: [ArrayDelta<Element>]) {
        for delta in deltas {
            for edit in delta.edits {
                switch edit {
                case .insert(let element, let index): insert(element, at: index)
                case .remove(let index):
                    checkPosition(index, "remove")
                    remove(at: index)
                case .update(let element, let index):
                    checkPosition(index, "update")
                    self[index] = element
                case .move(let from, let to):
                    checkPosition(from, "move")
                    checkPosition(to, "move")
                    insert(remove(at: from), at: to)
                case .reset(let elements): value = elements
                }
            }
        }
    }

    /// Ends the transaction: observers see the change.
    public func endTransaction() { apply(.endTransaction) }

    private func checkPosition(_ index: Int, _ edit: StaticString) {
        precondition(index >= 0 && index < count, "ArrayVariable: a delta's \(edit) at \(index) of \(count) elements")
    }
}

extension SetVariable: DeltaTarget {
    /// Begins a transaction of the variable.
    public func beginTransaction() { apply(.beginTransaction) }

    /// Applies the net effect of the deltas as one change of the set, O(edits) (plus O(n)
    /// for a reset).
    public func apply(_ deltas: [SetDelta<Element>]) {
        var all = SetDelta<Element>()
        for delta in deltas { all.append(contentsOf: delta) }
        let (removed, inserted) = all.net(against: value)
        apply(.change(SetChange(removed: removed, inserted: inserted)))
    }

    /// Ends the transaction: observers see the change.
    public func endTransaction() { apply(.endTransaction) }
}

extension DictionaryVariable: DeltaTarget {
    /// Begins a transaction of the variable.
    public func beginTransaction() { apply(.beginTransaction) }

    /// Applies each edit, inside the transaction, as the variable's own edit: observers see
    /// one change, O(edits) (plus O(n) for a reset).
    public func apply(_ deltas: [DictionaryDelta<Key, Element>]) {
        for delta in deltas {
            for edit in delta.edits {
                switch edit {
                case .insert(let key, let value), .update(let key, let value): self[key] = value
                case .remove(let key): removeValue(forKey: key)
                case .reset(let entries): value = entries
                }
            }
        }
    }

    /// Ends the transaction: observers see the change.
    public func endTransaction() { apply(.endTransaction) }
}
