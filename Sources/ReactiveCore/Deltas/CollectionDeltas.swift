/// A change to a collection, as edits that apply in order: the vocabulary in which Glue,
/// Incremental and SignalGraph pass collection changes to one another.
///
/// A delta is a batch: every edit in it belongs to one change, and a receiver shows the
/// result of all of them together. Each edit refers to the collection as it stands after
/// the edits before it. An edit may also reset the collection to a snapshot, so a delta can
/// say "start over from here" (the first delta a ``DeltaSource`` sends does).
///
/// Deltas carry what a receiver needs to apply them and nothing more: a removal names the
/// position or key, not the value removed, because every receiver holds the collection and
/// reads the old value from it. So converting a paradigm's own change type to a delta, and
/// a delta to a receiver's edits, costs O(edits) and never copies the collection (a reset
/// carries its snapshot, which is the change itself).
public protocol CollectionDelta<Collection> {
    /// The collection the delta applies to.
    associatedtype Collection

    /// A delta that replaces the whole collection with `snapshot`.
    static func reset(to snapshot: Collection) -> Self

    /// Whether the delta has no edits.
    var isEmpty: Bool { get }

    /// Applies the edits to `collection`, in order.
    func apply(to collection: inout Collection)

    /// Appends the edits of `next`, which apply after these: the delta of both changes as one.
    mutating func append(contentsOf next: Self)
}

// MARK: Arrays

/// A change to an array: insertions, removals, updates and moves at positions, and resets.
///
/// ```swift
/// var delta = ArrayDelta<String>()
/// delta.append(.insert("Ada", at: 0))
/// delta.append(.move(from: 0, to: 1))
/// var names = ["Grace"]
/// delta.apply(to: &names)   // ["Grace", "Ada"]
/// ```
public struct ArrayDelta<Element>: CollectionDelta {
    /// One edit, at positions of the array as it stands when the edit applies.
    public enum Edit {
        /// `element` inserted at `index` (in `0...count`).
        case insert(Element, at: Int)
        /// The element at `index` (in `0..<count`) removed.
        case remove(at: Int)
        /// The element at `index` (in `0..<count`) replaced by `element`.
        case update(Element, at: Int)
        /// The element at `from` removed and inserted again so that it ends at `to` (both in
        /// `0..<count`).
        case move(from: Int, to: Int)
        /// Every element replaced by `elements`.
        case reset([Element])
    }

    /// The edits, in the order they apply.
    public var edits: [Edit]

    /// A delta of `edits`.
    public init(_ edits: [Edit] = []) {
        self.edits = edits
    }

    /// A delta that replaces every element with `snapshot`.
    public static func reset(to snapshot: [Element]) -> ArrayDelta {
        ArrayDelta([.reset(snapshot)])
    }

    /// Whether the delta has no edits.
    public var isEmpty: Bool { edits.isEmpty }

    /// Appends an edit.
    public mutating func append(_ edit: Edit) {
        edits.append(edit)
    }

    /// Appends the edits of `next`.
    public mutating func append(contentsOf next: ArrayDelta) {
        edits.append(contentsOf: next.edits)
    }

    /// Applies the edits to `array`, in order.
    ///
    /// - Precondition: Every position is in range for the array as it stands when its edit
    ///   applies.
    public func apply(to array: inout [Element]) {
        for edit in edits {
            switch edit {
            case .insert(let element, let index):
                precondition(
                    index >= 0 && index <= array.count,
                    "ArrayDelta: insert at \(index) into an array of \(array.count) elements")
                array.insert(element, at: index)
            case .remove(let index):
                checkIndex(index, array.count, "remove")
                array.remove(at: index)
            case .update(let element, let index):
                checkIndex(index, array.count, "update")
                array[index] = element
            case .move(let from, let to):
                checkIndex(from, array.count, "move")
                checkIndex(to, array.count, "move")
                array.insert(array.remove(at: from), at: to)
            case .reset(let elements):
                array = elements
            }
        }
    }

    /// The count after the edits, for an array of `count` elements before them.
    public func count(after count: Int) -> Int {
        edits.reduce(count) { count, edit in
            switch edit {
            case .insert: count + 1
            case .remove: count - 1
            case .update, .move: count
            case .reset(let elements): elements.count
            }
        }
    }

    /// The delta with its elements transformed: the delta of the array mapped by `transform`.
    public func map<Output>(_ transform: (Element) throws -> Output) rethrows -> ArrayDelta<Output> {
        ArrayDelta<Output>(
            try edits.map { edit in
                switch edit {
                case .insert(let element, let index): .insert(try transform(element), at: index)
                case .remove(let index): .remove(at: index)
                case .update(let element, let index): .update(try transform(element), at: index)
                case .move(let from, let to): .move(from: from, to: to)
                case .reset(let elements): .reset(try elements.map(transform))
                }
            })
    }
}

@inline(__always)
private func checkIndex(_ index: Int, _ count: Int, _ edit: StaticString) {
    precondition(index >= 0 && index < count, "ArrayDelta: \(edit) at \(index) in an array of \(count) elements")
}

extension ArrayDelta.Edit: Equatable where Element: Equatable {}
extension ArrayDelta: Equatable where Element: Equatable {}
extension ArrayDelta.Edit: Sendable where Element: Sendable {}
extension ArrayDelta: Sendable where Element: Sendable {}
extension ArrayDelta.Edit: Hashable where Element: Hashable {}
extension ArrayDelta: Hashable where Element: Hashable {}
extension ArrayDelta.Edit: Codable where Element: Codable {}
extension ArrayDelta: Codable where Element: Codable {
    private enum CodingKeys: String, CodingKey {
        case edits
    }

    /// Decodes a delta encoded by `encode(to:)`.
    ///
    /// Throws `DecodingError.dataCorrupted` naming `edits` when a position is negative: no
    /// array has one. (Whether a position is in range depends on the array the delta is
    /// applied to; ``apply(to:)`` checks that.)
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let edits = try container.decode([Edit].self, forKey: .edits)
        for edit in edits {
            let positions: [Int] =
                switch edit {
                case .insert(_, let index), .remove(let index), .update(_, let index): [index]
                case .move(let from, let to): [from, to]
                case .reset: []
                }
            if let negative = positions.first(where: { $0 < 0 }) {
                throw DecodingError.dataCorruptedError(
                    forKey: .edits, in: container,
                    debugDescription: "An array delta's position is negative: \(negative)")
            }
        }
        self.init(edits)
    }
}

// MARK: Dictionaries

/// A change to a dictionary: entries inserted, updated and removed by key, and resets.
///
/// ```swift
/// var scores = ["Ada": 1]
/// DictionaryDelta([.update("Ada", 2), .insert("Grace", 3)]).apply(to: &scores)
/// // ["Ada": 2, "Grace": 3]
/// ```
///
/// A source says `insert` for a key that was absent and `update` for one that was present;
/// receivers store the value either way, so a source that cannot tell may send either.
public struct DictionaryDelta<Key: Hashable, Value>: CollectionDelta {
    /// One edit.
    public enum Edit {
        /// `value` stored under `key`, which was absent.
        case insert(Key, Value)
        /// The value under `key`, which was present, replaced by `value`.
        case update(Key, Value)
        /// The entry under `key` removed (nothing, if there is none).
        case remove(Key)
        /// Every entry replaced by `entries`.
        case reset([Key: Value])
    }

    /// The edits, in the order they apply.
    public var edits: [Edit]

    /// A delta of `edits`.
    public init(_ edits: [Edit] = []) {
        self.edits = edits
    }

    /// A delta that replaces every entry with `snapshot`.
    public static func reset(to snapshot: [Key: Value]) -> DictionaryDelta {
        DictionaryDelta([.reset(snapshot)])
    }

    /// Whether the delta has no edits.
    public var isEmpty: Bool { edits.isEmpty }

    /// Appends an edit.
    public mutating func append(_ edit: Edit) {
        edits.append(edit)
    }

    /// Appends the edits of `next`.
    public mutating func append(contentsOf next: DictionaryDelta) {
        edits.append(contentsOf: next.edits)
    }

    /// Applies the edits to `dictionary`, in order.
    public func apply(to dictionary: inout [Key: Value]) {
        for edit in edits {
            switch edit {
            case .insert(let key, let value), .update(let key, let value): dictionary[key] = value
            case .remove(let key): dictionary[key] = nil
            case .reset(let entries): dictionary = entries
            }
        }
    }

    /// The delta with its values transformed.
    public func mapValues<Output>(_ transform: (Value) throws -> Output) rethrows -> DictionaryDelta<Key, Output> {
        DictionaryDelta<Key, Output>(
            try edits.map { edit in
                switch edit {
                case .insert(let key, let value): .insert(key, try transform(value))
                case .update(let key, let value): .update(key, try transform(value))
                case .remove(let key): .remove(key)
                case .reset(let entries): .reset(try entries.mapValues(transform))
                }
            })
    }
}

extension DictionaryDelta.Edit: Equatable where Value: Equatable {}
extension DictionaryDelta: Equatable where Value: Equatable {}
extension DictionaryDelta.Edit: Sendable where Key: Sendable, Value: Sendable {}
extension DictionaryDelta: Sendable where Key: Sendable, Value: Sendable {}
extension DictionaryDelta.Edit: Codable where Key: Codable, Value: Codable {}
extension DictionaryDelta: Codable where Key: Codable, Value: Codable {}

// MARK: Sets

/// A change to a set: elements inserted and removed, and resets.
///
/// ```swift
/// var tags: Set = ["swift"]
/// SetDelta([.insert("reactive"), .remove("swift")]).apply(to: &tags)   // ["reactive"]
/// ```
public struct SetDelta<Element: Hashable>: CollectionDelta {
    /// One edit.
    public enum Edit: Hashable {
        /// `element` inserted (nothing, if present).
        case insert(Element)
        /// `element` removed (nothing, if absent).
        case remove(Element)
        /// Every element replaced by `elements`.
        case reset(Set<Element>)
    }

    /// The edits, in the order they apply.
    public var edits: [Edit]

    /// A delta of `edits`.
    public init(_ edits: [Edit] = []) {
        self.edits = edits
    }

    /// A delta that replaces every element with `snapshot`.
    public static func reset(to snapshot: Set<Element>) -> SetDelta {
        SetDelta([.reset(snapshot)])
    }

    /// Whether the delta has no edits.
    public var isEmpty: Bool { edits.isEmpty }

    /// Appends an edit.
    public mutating func append(_ edit: Edit) {
        edits.append(edit)
    }

    /// Appends the edits of `next`.
    public mutating func append(contentsOf next: SetDelta) {
        edits.append(contentsOf: next.edits)
    }

    /// Applies the edits to `set`, in order.
    public func apply(to set: inout Set<Element>) {
        for edit in edits {
            switch edit {
            case .insert(let element): set.insert(element)
            case .remove(let element): set.remove(element)
            case .reset(let elements): set = elements
            }
        }
    }

    /// The net effect of the edits on `set` as it stands before them, without changing it:
    /// the elements that leave it and the elements that join it (a reset counts as removing
    /// what it does not keep and inserting what is new). O(edits), plus O(n) for a reset.
    public func net(against set: Set<Element>) -> (removed: Set<Element>, inserted: Set<Element>) {
        var removed: Set<Element> = []
        var inserted: Set<Element> = []
        // Whether `element` is in the set after the edits so far.
        func contains(_ element: Element) -> Bool {
            inserted.contains(element) || (set.contains(element) && !removed.contains(element))
        }
        for edit in edits {
            switch edit {
            case .insert(let element):
                guard !contains(element) else { continue }
                if removed.remove(element) == nil { inserted.insert(element) }
            case .remove(let element):
                guard contains(element) else { continue }
                if inserted.remove(element) == nil { removed.insert(element) }
            case .reset(let elements):
                removed = set.subtracting(elements)
                inserted = elements.subtracting(set)
            }
        }
        return (removed, inserted)
    }
}

extension SetDelta: Equatable {}
extension SetDelta.Edit: Sendable where Element: Sendable {}
extension SetDelta: Sendable where Element: Sendable {}
extension SetDelta.Edit: Codable where Element: Codable {}
extension SetDelta: Codable where Element: Codable {}
