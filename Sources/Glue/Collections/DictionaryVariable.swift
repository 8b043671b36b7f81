import ReactiveCore

/// How a dictionary changed, key by key: the entries that left (with the values they had) and
/// the entries that joined (with their new values). A key in both had its value replaced.
///
/// Changes reported by observable dictionaries are normalized: every key in ``removed`` was in
/// the dictionary with that value, and no key in ``inserted`` is in it after the removals.
public struct DictionaryChange<Key: Hashable, Value>: ChangeType {
    /// The entries that left, or whose value was replaced, with their old values.
    public private(set) var removed: [Key: Value]
    /// The entries that joined, or whose value was replaced, with their new values.
    public private(set) var inserted: [Key: Value]

    /// A change that removes the keys of `removed`, then inserts `inserted`.
    public init(removed: [Key: Value] = [:], inserted: [Key: Value] = [:]) {
        self.removed = removed
        self.inserted = inserted
    }

    /// Whether no entry left or joined.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty }

    /// Removes the keys of ``removed`` from `value`, then inserts ``inserted``.
    public func apply(on value: inout [Key: Value]) {
        for key in removed.keys { value[key] = nil }
        value.merge(inserted) { _, new in new }
    }

    /// Folds in `next`: an entry inserted here and removed there cancels out, keeping the
    /// value it had before this change, if any.
    public mutating func merge(with next: DictionaryChange<Key, Value>) {
        for (key, old) in next.removed where inserted.removeValue(forKey: key) == nil {
            removed[key] = old
        }
        inserted.merge(next.inserted) { _, new in new }
    }

    /// The change with its values transformed.
    public func mapValues<Output>(_ transform: (Value) -> Output) -> DictionaryChange<Key, Output> {
        DictionaryChange<Key, Output>(removed: removed.mapValues(transform), inserted: inserted.mapValues(transform))
    }
}

extension DictionaryChange: Equatable where Value: Equatable {}

/// An observable dictionary, reported as ``DictionaryChange``s.
///
/// ``DictionaryVariable`` is the updatable one; ``filter(_:)``, ``mapValues(_:)`` and
/// ``sortedKeys(by:)`` derive others that are kept up to date by applying each change.
public protocol ObservableDictionaryType<Key, Element>: ObservableType, Subscribable
where Value == [Key: Element], Change == DictionaryChange<Key, Element> {
    /// The type of the keys.
    associatedtype Key: Hashable
    /// The type of the values.
    associatedtype Element
}

extension ObservableDictionaryType {
    /// The number of entries.
    public var count: Int { value.count }

    /// Sends the current dictionary at once, then the dictionary after each transaction that
    /// changes it.
    public func subscribe(_ sink: @escaping ([Key: Element]) -> Void) -> Connection {
        let connection = changes.subscribe { _ in sink(self.value) }
        sink(value)
        return connection
    }
}

/// A dictionary you can edit and observe, key by key.
///
/// ```swift
/// let scores = DictionaryVariable<String, Int>()
/// scores["ada"] = 3          // reports DictionaryChange(inserted: ["ada": 3])
/// scores["ada"] = 5          // reports DictionaryChange(removed: ["ada": 3], inserted: ["ada": 5])
/// scores["ada"] = nil        // reports DictionaryChange(removed: ["ada": 5])
/// ```
///
/// Each edit is a transaction of its own unless made inside
/// ``UpdatableType/withTransaction(_:)``. Cost of one edit: O(1) per key it touches.
public final class DictionaryVariable<Key: Hashable, Element>: ObservableDictionaryType, UpdatableType,
    TransactionParticipant
{
    private var storage: [Key: Element]
    private var transactionDepth = 0
    private let signal = Signal<Update<DictionaryChange<Key, Element>>>.reportingAppliedChanges()

    /// A dictionary variable holding `entries`.
    public init(_ entries: [Key: Element] = [:]) {
        storage = entries
        signal.owner = self
    }

    /// The entries; setting reports the keys that left, joined or changed value.
    ///
    /// Setting compares keys only (values need not be `Equatable`): every key present before
    /// and after is reported as replaced.
    public var value: [Key: Element] {
        get { storage }
        set { apply(.change(DictionaryChange(removed: storage, inserted: newValue))) }
    }

    /// The variable's transactions.
    public var updates: Source<Update<DictionaryChange<Key, Element>>> { signal.source }

    /// The value under `key`; setting it inserts, replaces or (with `nil`) removes the entry.
    public subscript(key: Key) -> Element? {
        get { storage[key] }
        set {
            let old = storage[key].map { [key: $0] } ?? [:]
            apply(.change(DictionaryChange(removed: old, inserted: newValue.map { [key: $0] } ?? [:])))
        }
    }

    /// Removes the entry under `key` and returns its value; reports nothing if there is none.
    @discardableResult
    public func removeValue(forKey key: Key) -> Element? {
        let old = storage[key]
        if old != nil { self[key] = nil }
        return old
    }

    /// Applies one transaction event; a change outside a transaction gets one of its own.
    ///
    /// A change is normalized before it is applied and reported: a removal of a key the
    /// dictionary lacks is dropped, and a removed key's reported value is the one it had.
    public func apply(_ update: Update<DictionaryChange<Key, Element>>) {
        switch update {
        case .beginTransaction:
            transactionDepth += 1
            if transactionDepth == 1 { signal.send(.beginTransaction) }
        case .change(let change):
            // O(size of the change): nothing here may copy or walk the whole dictionary.
            var removed: [Key: Element] = [:]
            for key in change.removed.keys {
                if let old = storage[key] { removed[key] = old }
            }
            // A key inserted that is there and not removed is a replacement: report its old value.
            for key in change.inserted.keys where removed[key] == nil {
                if let old = storage[key] { removed[key] = old }
            }
            let normalized = DictionaryChange(removed: removed, inserted: change.inserted)
            guard !normalized.isEmpty else { return }
            withTransaction {
                normalized.apply(on: &storage)
                signal.send(.change(normalized))
            }
        case .endTransaction:
            precondition(transactionDepth > 0, "DictionaryVariable: endTransaction without a matching beginTransaction")
            transactionDepth -= 1
            if transactionDepth == 0 { signal.send(.endTransaction) }
        }
    }
}
