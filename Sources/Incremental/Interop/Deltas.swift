import ReactiveCore

// Incremental in the package's change vocabulary: nodes and collection nodes as
// `DeltaSource`s, inputs as `DeltaTarget`s. See ReactiveCore's `drive(_:)`.

extension IncrementalArray {
    /// The last change as a delta: its edits, or a reset to the elements if the last change
    /// replaced them all. O(edits), except a reset's O(n).
    public var delta: ArrayDelta<Element> {
        if isReset { return .reset(to: elements) }
        return ArrayDelta(edits.map(\.delta))
    }

    /// The edits from `start` on, as a delta.
    func delta(from start: Int) -> ArrayDelta<Element> {
        ArrayDelta(edits[start...].map(\.delta))
    }
}

extension ArrayEdit {
    /// The edit in the package's vocabulary.
    var delta: ArrayDelta<Element>.Edit {
        switch self {
        case .insert(let element, let index): .insert(element, at: index)
        case .remove(_, let index): .remove(at: index)
        case .replace(_, let index, let new): .update(new, at: index)
        }
    }
}

extension IncrementalDictionary {
    /// The last change as a delta: its edits, or a reset to the entries if the last change
    /// replaced them all. O(edits), except a reset's O(n).
    public var delta: DictionaryDelta<Key, Value> {
        if isReset { return .reset(to: entries) }
        return DictionaryDelta(edits.map(\.delta))
    }

    /// The edits from `start` on, as a delta.
    func delta(from start: Int) -> DictionaryDelta<Key, Value> {
        DictionaryDelta(edits[start...].map(\.delta))
    }
}

extension DictionaryEdit {
    /// The edit in the package's vocabulary.
    var delta: DictionaryDelta<Key, Value>.Edit {
        switch self {
        case .insert(let key, let value): .insert(key, value)
        case .update(let key, _, let new): .update(key, new)
        case .remove(let key, _): .remove(key)
        }
    }
}

// MARK: Sources

extension I: DeltaSource {
    /// Sends the current value as one transaction, then the value after each propagation
    /// that changes it, each as one transaction; what the conformance to `DeltaSource` uses.
    /// Observes the node (see ``observe(_:)``), so it is kept up to date while the connection
    /// lasts; while the node holds an error, nothing is sent.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Value>) -> Void) -> Connection {
        observe { value in
            sink(.begin)
            sink(.delta(value))
            sink(.end)
        }
    }
}

extension I {
    /// The array's changes as deltas: its elements first (a reset), then the edits of each
    /// propagation that changes it, as one transaction each. O(edits) per propagation.
    ///
    /// ```swift
    /// let visible = rows.filterElements { $0.isVisible }
    /// let bridge = visible.elementDeltas().drive(storage)   // a SignalGraph array storage
    /// ```
    public func elementDeltas<Element>() -> CollectionNodeDeltas<ArrayDelta<Element>>
    where Value == IncrementalArray<Element> {
        CollectionNodeDeltas(node: self) { [self] sink in
            subscribeEdits(sink, reset: { .reset(to: $0.elements) }, edits: { $0.delta(from: $1) })
        }
    }

    /// The dictionary's changes as deltas: its entries first (a reset), then the edits of
    /// each propagation that changes it, as one transaction each. O(edits) per propagation.
    public func entryDeltas<Key, Element>() -> CollectionNodeDeltas<DictionaryDelta<Key, Element>>
    where Value == IncrementalDictionary<Key, Element> {
        CollectionNodeDeltas(node: self) { [self] sink in
            subscribeEdits(sink, reset: { .reset(to: $0.entries) }, edits: { $0.delta(from: $1) })
        }
    }

    /// Observes the collection, sending each propagation's new edits (from the first not
    /// sent yet), or a reset when it cannot tell which are new.
    private func subscribeEdits<Delta>(
        _ sink: @escaping (DeltaEvent<Delta>) -> Void, reset: @escaping (Value) -> Delta,
        edits: @escaping (Value, Int) -> Delta
    ) -> Connection where Value: VersionedCollection {
        var seen: SeenChange?
        return observe { collection in
            let start = seen?.firstNewEdit(of: collection)
            seen = SeenChange(collection)
            if start == collection.editCount { return }
            sink(.begin)
            sink(.delta(start.map { edits(collection, $0) } ?? reset(collection)))
            sink(.end)
        }
    }
}

/// An incremental collection's changes as a `DeltaSource`: see ``I/elementDeltas()`` and
/// ``I/entryDeltas()``.
///
/// Each propagation that changes the collection is one transaction holding the edits made
/// since the last one it sent; when it cannot tell which edits are new (the collection was
/// replaced), it sends a reset.
public struct CollectionNodeDeltas<Delta: CollectionDelta>: DeltaSource {
    let node: IncrementalNode
    let subscribe: (@escaping (DeltaEvent<Delta>) -> Void) -> Connection

    /// The node, which is the target a bridge names when the node is an input: so that an
    /// input driven by the collection it drives stops where a change began.
    public var bridgeIdentity: ObjectIdentifier? { ObjectIdentifier(node) }

    /// Sends the collection, then each propagation's edits, while the connection lasts; the
    /// node is observed meanwhile.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Delta>) -> Void) -> Connection {
        subscribe(sink)
    }
}

// MARK: Targets

extension Input: DeltaTarget {
    /// Opens a batch of the graph: what bridges write until the matching
    /// ``endTransaction()`` propagates once, with the writes of every other bridge whose
    /// source is inside the same transaction.
    public func beginTransaction() { graph.beginBatch() }

    /// Writes the last value (the earlier ones are inside the same batch, so no reader could
    /// see them).
    public func apply(_ deltas: [Value]) {
        if let last = deltas.last { write(last) }
    }

    /// Closes the batch; the outermost one propagates.
    public func endTransaction() { graph.endBatch() }
}

extension ArrayInput: DeltaTarget {
    /// Opens a batch of the graph; see `Input`'s.
    public func beginTransaction() { graph.beginBatch() }

    /// Applies each edit with the input's own edits (a move as a removal and an insertion,
    /// a reset as ``replaceAll(with:)``), inside the batch: derived arrays see one change of
    /// all of them, O(edits · log n).
    ///
    /// - Precondition: Every position is in range when its edit applies.
    public func apply(_ deltas: [ArrayDelta<Element>]) {
        for delta in deltas {
            for edit in delta.edits {
                switch edit {
                case .insert(let element, let index): insert(element, at: index)
                case .remove(let index): remove(at: index)
                case .update(let element, let index): self[index] = element
                case .move(let from, let to):
                    precondition(
                        from >= 0 && from < count && to >= 0 && to < count,
                        "ArrayInput: move from \(from) to \(to) in \(count) elements")
                    let element = self[from]
                    remove(at: from)
                    insert(element, at: to)
                case .reset(let elements): replaceAll(with: elements)
                }
            }
        }
    }

    /// Closes the batch; the outermost one propagates.
    public func endTransaction() { graph.endBatch() }
}

extension DictionaryInput: DeltaTarget {
    /// Opens a batch of the graph; see `Input`'s.
    public func beginTransaction() { graph.beginBatch() }

    /// Applies each edit with the input's own edits, inside the batch: derived collections
    /// see one change of all of them, O(edits) (a reset: the removals and writes that take
    /// the entries to the snapshot, O(n)).
    public func apply(_ deltas: [DictionaryDelta<Key, Value>]) {
        for delta in deltas {
            for edit in delta.edits {
                switch edit {
                case .insert(let key, let value), .update(let key, let value): self[key] = value
                case .remove(let key): self[key] = nil
                case .reset(let entries):
                    for key in current.entries.keys where entries[key] == nil { self[key] = nil }
                    for (key, value) in entries { self[key] = value }
                }
            }
        }
    }

    /// Closes the batch; the outermost one propagates.
    public func endTransaction() { graph.endBatch() }
}
