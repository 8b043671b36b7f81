/// One edit to an incremental dictionary.
public enum DictionaryEdit<Key: Hashable, Value> {
    /// `value` stored under a new `key`.
    case insert(Key, Value)
    /// The value under `key`, `old`, replaced by `new`.
    case update(Key, old: Value, new: Value)
    /// `key` and its value `old` removed.
    case remove(Key, old: Value)
}

extension DictionaryEdit: Equatable where Value: Equatable {}

/// The value of an incremental dictionary: its entries, and the edits that the last change
/// made to them.
///
/// Derived collections (``I/filterEntries(_:)``, ``I/mapEntryValues(_:)``,
/// ``I/sortedEntries(by:)``, ``I/foldEntries(_:add:remove:)``) apply ``edits`` to their own
/// state: O(1) per edit for filters, maps and folds, O(log n) for the sorted array.
public struct IncrementalDictionary<Key: Hashable, Value> {
    /// The entries.
    public internal(set) var entries: [Key: Value]
    /// The edits of the last change, in the order they applied; empty after a reset.
    public internal(set) var edits: [DictionaryEdit<Key, Value>] = []
    /// Whether the last change replaced every entry rather than editing them.
    public internal(set) var isReset = true
    /// Names this change and the one before it (see ``ChangeStamp``).
    var change = ChangeStamp.fresh()

    init(_ entries: [Key: Value]) {
        self.entries = entries
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// The value stored under `key`.
    public subscript(key: Key) -> Value? { entries[key] }

    mutating func beginChange() {
        beginChange(afterEditCount: edits.count)
    }

    /// Starts the record of a new change after one of `count` edits (the edits buffer may
    /// have been swapped for a spare one already, whose count says nothing).
    mutating func beginChange(afterEditCount count: Int) {
        change = change.successor(afterEditCount: count)
        edits.removeAll(keepingCapacity: true)
        isReset = false
    }

    /// Stores `value` under `key`, or removes the entry if `value` is `nil`, recording the
    /// edit.
    mutating func set(_ value: Value?, for key: Key) {
        switch (entries[key], value) {
        case (nil, let new?):
            entries[key] = new
            edits.append(.insert(key, new))
        case (let old?, let new?):
            entries[key] = new
            edits.append(.update(key, old: old, new: new))
        case (let old?, nil):
            entries[key] = nil
            edits.append(.remove(key, old: old))
        case (nil, nil):
            break
        }
    }
}

/// A dictionary you edit: the source of keyed incremental pipelines.
///
/// ```swift
/// let rows = graph.dictionaryInput([Int: Row]())
/// let visible = rows.filterEntries { !$1.done }.sortedEntries { $0.value.score < $1.value.score }
/// rows[42] = Row(score: 7, done: false)   // one insertion, found by binary search
/// ```
public final class DictionaryInput<Key: Hashable, Value>: I<IncrementalDictionary<Key, Value>> {
    private var openWindow = -1

    init(graph: Graph, entries: [Key: Value]) {
        super.init(graph: Unmanaged.passUnretained(graph), flags: Flags.source, cutoff: .alwaysPropagate)
        current = IncrementalDictionary(entries)
        checkedAt = 0
    }

    /// The number of entries.
    public var count: Int { current.count }

    /// The value under `key`; setting `nil` removes the entry. Applies at once and
    /// propagates as ``ArrayInput``'s edits do.
    public subscript(key: Key) -> Value? {
        get { current[key] }
        set {
            if graph.mustDeferWrites {
                graph.deferWrite { [self] in self[key] = newValue }
                return
            }
            if openWindow != graph.changeWindow || current.isReset {
                mutateCurrent { $0.beginChange() }
                openWindow = graph.changeWindow
            }
            let editsBefore = current.edits.count
            mutateCurrent { $0.set(newValue, for: key) }
            guard current.edits.count > editsBefore else { return }
            graph.inputChanged(self)
            graph.propagate()
        }
    }

    /// Removes the entry under `key`.
    public func removeValue(forKey key: Key) {
        self[key] = nil
    }
}

extension Graph {
    /// A new dictionary input holding `entries`.
    public func dictionaryInput<Key: Hashable, Value>(_ entries: [Key: Value]) -> DictionaryInput<Key, Value> {
        DictionaryInput(graph: self, entries: entries)
    }
}

extension I {
    /// The entries for which `isIncluded` is true: one predicate call per inserted or
    /// updated entry.
    public func filterEntries<Key, Element>(
        _ isIncluded: @escaping (Key, Element) -> Bool
    ) -> I<IncrementalDictionary<Key, Element>> where Value == IncrementalDictionary<Key, Element> {
        DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let key, let value), .update(let key, _, let value):
                    output.set(isIncluded(key, value) ? value : nil, for: key)
                case .remove(let key, _):
                    output.set(nil, for: key)
                }
            }
        } rebuild: { input in
            IncrementalDictionary(input.entries.filter { isIncluded($0.key, $0.value) })
        }
    }

    /// The entries with `transform` applied to each value: one transform per inserted or
    /// updated entry.
    public func mapEntryValues<Key, Element, Output>(
        _ transform: @escaping (Element) -> Output
    ) -> I<IncrementalDictionary<Key, Output>> where Value == IncrementalDictionary<Key, Element> {
        DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let key, let value), .update(let key, _, let value):
                    output.set(transform(value), for: key)
                case .remove(let key, _):
                    output.set(nil, for: key)
                }
            }
        } rebuild: { input in
            IncrementalDictionary(input.entries.mapValues(transform))
        }
    }

    /// The entries as an array sorted by `areInIncreasingOrder`: each inserted, moved or
    /// removed entry is placed by binary search, O(log n) per edit.
    public func sortedEntries<Key, Element>(
        by areInIncreasingOrder: @escaping ((key: Key, value: Element), (key: Key, value: Element)) -> Bool
    ) -> I<IncrementalArray<(key: Key, value: Element)>> where Value == IncrementalDictionary<Key, Element> {
        DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let key, let value):
                    output.insertSorted((key, value), by: areInIncreasingOrder)
                case .update(let key, let old, let new):
                    output.removeSorted((key, old), by: areInIncreasingOrder) { $0.key == $1.key }
                    output.insertSorted((key, new), by: areInIncreasingOrder)
                case .remove(let key, let old):
                    output.removeSorted((key, old), by: areInIncreasingOrder) { $0.key == $1.key }
                }
            }
        } rebuild: { input in
            IncrementalArray(input.entries.map { (key: $0.key, value: $0.value) }.sorted(by: areInIncreasingOrder))
        }
    }

    /// A fold of the entries, kept up to date by `add` for each new value and `remove`, the
    /// inverse of `add`, for each old one: O(1) folds per edit.
    public func foldEntries<Key, Element, Result>(
        _ initial: Result, add: @escaping (Result, Key, Element) -> Result,
        remove: @escaping (Result, Key, Element) -> Result
    ) -> I<Result> where Value == IncrementalDictionary<Key, Element> {
        FoldNode(self) { result, input, start in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let key, let value): result = add(result, key, value)
                case .update(let key, let old, let new): result = add(remove(result, key, old), key, new)
                case .remove(let key, let old): result = remove(result, key, old)
                }
            }
        } rebuild: { input in
            input.entries.reduce(initial) { add($0, $1.key, $1.value) }
        }
    }
}

extension IncrementalDictionary: EditRecordingCollection {
    var hasEdits: Bool { !edits.isEmpty }
    var editCount: Int { edits.count }
}

extension IncrementalDictionary: CustomStringConvertible {
    /// The entries, as a dictionary describes them (what the inspector and `debugDescription`
    /// of a node show); O(n).
    public var description: String { entries.description }
}
