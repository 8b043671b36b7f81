import ReactiveCore

/// One edit to an array, at an index in the array as it is when the edit applies.
public enum ArrayModification<Element> {
    /// `element` inserted at `index`.
    case insert(Element, at: Int)
    /// `element` removed from `index`.
    case remove(Element, at: Int)
    /// The element at `index`, `old`, replaced by `new`.
    case replace(Element, at: Int, with: Element)
    /// The elements `old` starting at `index` replaced by `new`.
    case replaceSlice([Element], at: Int, with: [Element])

    /// How the edit changes the array's count.
    var countDelta: Int {
        switch self {
        case .insert: 1
        case .remove: -1
        case .replace: 0
        case .replaceSlice(let old, _, let new): new.count - old.count
        }
    }

    /// The edit with its elements transformed.
    public func map<Output>(_ transform: (Element) -> Output) -> ArrayModification<Output> {
        switch self {
        case .insert(let element, let index): .insert(transform(element), at: index)
        case .remove(let element, let index): .remove(transform(element), at: index)
        case .replace(let old, let index, let new): .replace(transform(old), at: index, with: transform(new))
        case .replaceSlice(let old, let index, let new):
            .replaceSlice(old.map(transform), at: index, with: new.map(transform))
        }
    }
}

extension ArrayModification: Equatable where Element: Equatable {}

/// How an array changed: its count before, and the edits in the order they applied.
///
/// Each edit's index refers to the array as it is after the edits before it. Applying the
/// change to the old array gives the new one; merging appends the later change's edits.
public struct ArrayChange<Element>: ChangeType {
    /// The array's count before the change.
    public let initialCount: Int
    /// The edits, in the order they apply.
    public private(set) var modifications: [ArrayModification<Element>]

    /// A change with no edits yet to an array of `initialCount` elements.
    public init(initialCount: Int, modifications: [ArrayModification<Element>] = []) {
        self.initialCount = initialCount
        self.modifications = modifications
    }

    /// The array's count after the change.
    public var finalCount: Int {
        modifications.reduce(initialCount) { $0 + $1.countDelta }
    }

    /// Whether the change has no edits.
    public var isEmpty: Bool { modifications.isEmpty }

    /// Appends an edit.
    public mutating func add(_ modification: ArrayModification<Element>) {
        modifications.append(modification)
    }

    /// Applies the edits to `value`, in order.
    public func apply(on value: inout [Element]) {
        for modification in modifications {
            switch modification {
            case .insert(let element, let index): value.insert(element, at: index)
            case .remove(_, let index): value.remove(at: index)
            case .replace(_, let index, let new): value[index] = new
            case .replaceSlice(let old, let index, let new):
                value.replaceSubrange(index..<index + old.count, with: new)
            }
        }
    }

    /// Appends `next`'s edits, which apply after these.
    public mutating func merge(with next: ArrayChange<Element>) {
        modifications.append(contentsOf: next.modifications)
    }

    /// The change with its elements transformed.
    public func map<Output>(_ transform: (Element) -> Output) -> ArrayChange<Output> {
        ArrayChange<Output>(initialCount: initialCount, modifications: modifications.map { $0.map(transform) })
    }
}

extension ArrayChange: Equatable where Element: Equatable {}

/// How a set changed: the elements that left it and the elements that joined it.
///
/// Changes reported by observable sets are normalized: every element in ``removed`` was in
/// the set, and no element in ``inserted`` is in the set after the removals, so derived
/// sets can apply them element by element. An element in both was replaced.
public struct SetChange<Element: Hashable>: ChangeType, Equatable {
    /// Elements that left the set.
    public private(set) var removed: Set<Element>
    /// Elements that joined the set.
    public private(set) var inserted: Set<Element>

    /// A change that removes `removed` and inserts `inserted`; an element in both is
    /// treated as replaced (removed, then inserted again).
    public init(removed: Set<Element> = [], inserted: Set<Element> = []) {
        self.removed = removed
        self.inserted = inserted
    }

    /// Whether nothing left or joined.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty }

    /// Removes ``removed`` from `value`, then inserts ``inserted``.
    public func apply(on value: inout Set<Element>) {
        value.subtract(removed)
        value.formUnion(inserted)
    }

    /// Folds in `next`: an element inserted here and removed there cancels out.
    public mutating func merge(with next: SetChange<Element>) {
        for element in next.removed {
            if inserted.remove(element) == nil { removed.insert(element) }
        }
        for element in next.inserted {
            inserted.insert(element)
        }
    }
}

extension ArrayChange {
    /// Applies the modifications to a positional tree, O(log n) each.
    func apply(toTree tree: inout PositionalTree<Element>) {
        for modification in modifications {
            switch modification {
            case .insert(let element, let index): tree.insert(element, at: index)
            case .remove(_, let index): _ = tree.remove(at: index)
            case .replace(_, let index, let new): tree[index] = new
            case .replaceSlice(let old, let index, let new):
                for _ in old { _ = tree.remove(at: index) }
                for (offset, element) in new.enumerated() { tree.insert(element, at: index + offset) }
            }
        }
    }
}
