/// An array you can edit and observe, edit by edit.
///
/// ```swift
/// let todos = ArrayVariable(["Buy milk"])
/// let connection = todos.changes.subscribe { change in print(change.modifications) }
/// todos.append("Walk the dog")   // [.insert("Walk the dog", at: 1)]
/// todos[0] = "Buy oat milk"      // [.replace("Buy milk", at: 0, with: "Buy oat milk")]
/// ```
///
/// Each edit is a transaction of its own unless made inside
/// ``UpdatableType/withTransaction(_:)``, where the edits are reported as one change.
public final class ArrayVariable<Element>: ObservableArrayType, UpdatableType, TransactionParticipant {
    private var storage: [Element]
    private var transactionDepth = 0
    private let signal = Signal<Update<ArrayChange<Element>>>.reportingAppliedChanges()

    /// Creates an array variable holding `elements`.
    public init(_ elements: [Element] = []) {
        storage = elements
        signal.owner = self
    }

    /// The elements; setting replaces them all (one slice replacement).
    public var value: [Element] {
        get { storage }
        set { replaceSubrange(0..<storage.count, with: newValue) }
    }

    /// The variable's transactions.
    public var updates: Source<Update<ArrayChange<Element>>> { signal.source }

    /// The element at `index`; setting it reports a replacement.
    public subscript(index: Int) -> Element {
        get { storage[index] }
        set { edit(.replace(storage[index], at: index, with: newValue)) }
    }

    /// Appends `element`.
    public func append(_ element: Element) {
        edit(.insert(element, at: storage.count))
    }

    /// Inserts `element` at `index`.
    public func insert(_ element: Element, at index: Int) {
        precondition(
            index >= 0 && index <= storage.count, "ArrayVariable.insert: index \(index) out of 0...\(storage.count)")
        edit(.insert(element, at: index))
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    public func remove(at index: Int) -> Element {
        let element = storage[index]
        edit(.remove(element, at: index))
        return element
    }

    /// Replaces the elements in `range` with `elements`.
    public func replaceSubrange(_ range: Range<Int>, with elements: [Element]) {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= storage.count,
            "ArrayVariable.replaceSubrange: range \(range) out of 0..<\(storage.count)")
        edit(.replaceSlice(Array(storage[range]), at: range.lowerBound, with: elements))
    }

    /// Removes every element.
    public func removeAll() {
        replaceSubrange(0..<storage.count, with: [])
    }

    /// Applies one transaction event; a change outside a transaction gets one of its own.
    public func apply(_ update: Update<ArrayChange<Element>>) {
        switch update {
        case .beginTransaction:
            transactionDepth += 1
            if transactionDepth == 1 { signal.send(.beginTransaction) }
        case .change(let change):
            precondition(
                change.initialCount == storage.count,
                "ArrayVariable: a change for \(change.initialCount) elements applied to \(storage.count)")
            withTransaction {
                change.apply(on: &storage)
                signal.send(.change(change))
            }
        case .endTransaction:
            precondition(transactionDepth > 0, "ArrayVariable: endTransaction without a matching beginTransaction")
            transactionDepth -= 1
            if transactionDepth == 0 { signal.send(.endTransaction) }
        }
    }

    private func edit(_ modification: ArrayModification<Element>) {
        apply(.change(ArrayChange(initialCount: storage.count, modifications: [modification])))
    }
}

/// A set you can edit and observe, change by change.
///
/// ```swift
/// let tags = SetVariable<String>(["swift"])
/// tags.insert("reactive")   // reports SetChange(inserted: ["reactive"])
/// ```
///
/// Each edit is a transaction of its own unless made inside
/// ``UpdatableType/withTransaction(_:)``.
public final class SetVariable<Element: Hashable>: ObservableSetType, UpdatableType, TransactionParticipant {
    private var storage: Set<Element>
    private var transactionDepth = 0
    private let signal = Signal<Update<SetChange<Element>>>.reportingAppliedChanges()

    /// Creates a set variable holding `elements`.
    public init(_ elements: Set<Element> = []) {
        storage = elements
        signal.owner = self
    }

    /// The elements; setting reports what left and what joined.
    public var value: Set<Element> {
        get { storage }
        set {
            apply(.change(SetChange(removed: storage.subtracting(newValue), inserted: newValue.subtracting(storage))))
        }
    }

    /// The variable's transactions.
    public var updates: Source<Update<SetChange<Element>>> { signal.source }

    /// Whether `element` is in the set.
    public func contains(_ element: Element) -> Bool {
        storage.contains(element)
    }

    /// Inserts `element`; reports nothing if it was already there.
    public func insert(_ element: Element) {
        guard !storage.contains(element) else { return }
        apply(.change(SetChange(inserted: [element])))
    }

    /// Replaces `old` with `new`: one change, as an edit of one element.
    public func replace(_ old: Element, with new: Element) {
        apply(.change(SetChange(removed: storage.contains(old) ? [old] : [], inserted: [new])))
    }

    /// Removes `element`; reports nothing if it was not there.
    public func remove(_ element: Element) {
        guard storage.contains(element) else { return }
        apply(.change(SetChange(removed: [element])))
    }

    /// Applies one transaction event; a change outside a transaction gets one of its own.
    public func apply(_ update: Update<SetChange<Element>>) {
        switch update {
        case .beginTransaction:
            transactionDepth += 1
            if transactionDepth == 1 { signal.send(.beginTransaction) }
        case .change(let change):
            // Report only what really leaves and joins, so derived sets can trust that
            // `removed` is in the set and `inserted` is not already there.
            // O(size of the change): nothing here may copy or walk the whole set.
            let removed = change.removed.filter { storage.contains($0) }
            let inserted = change.inserted.filter { !storage.contains($0) || removed.contains($0) }
            let normalized = SetChange(removed: removed, inserted: inserted)
            guard !normalized.isEmpty else { return }
            withTransaction {
                normalized.apply(on: &storage)
                signal.send(.change(normalized))
            }
        case .endTransaction:
            precondition(transactionDepth > 0, "SetVariable: endTransaction without a matching beginTransaction")
            transactionDepth -= 1
            if transactionDepth == 0 { signal.send(.endTransaction) }
        }
    }
}
