/// One edit to an incremental array, at an index of the array as it is when the edit
/// applies.
public enum ArrayEdit<Element> {
    /// `element` inserted at `index`.
    case insert(Element, at: Int)
    /// `element` removed from `index`.
    case remove(Element, at: Int)
    /// The element at `index`, `old`, replaced by `new`.
    case replace(Element, at: Int, with: Element)
}

extension ArrayEdit: Equatable where Element: Equatable {}

/// The value of an incremental array: its elements, and the edits that the last change
/// made to them.
///
/// Elements sit in a balanced tree, so reading, inserting and removing at an index take
/// O(log n). Derived arrays (``I/mapElements(_:)``, ``I/filterElements(_:)``,
/// ``I/sortedElements(by:)``) read ``edits`` and apply them to their own state, so one edit
/// costs O(log n), never O(n).
///
/// Observers receive this value after each change. Keep what you need from it (the edits,
/// some elements) rather than the value itself: a kept copy makes the next edit copy the
/// whole tree.
public struct IncrementalArray<Element> {
    var tree: PositionalTree<Element>
    /// The edits of the last change, in the order they applied; empty after a reset.
    public internal(set) var edits: [ArrayEdit<Element>] = []
    /// Whether the last change replaced the whole array rather than editing it.
    public internal(set) var isReset = true
    /// Names this change and the one before it, so a reader can tell whether it missed any
    /// (see ``ChangeStamp``).
    var change = ChangeStamp.fresh()

    init(_ elements: some Sequence<Element>) {
        tree = PositionalTree(elements)
    }

    /// The number of elements.
    public var count: Int { tree.count }

    /// Whether the array is empty.
    public var isEmpty: Bool { tree.count == 0 }

    /// The element at `index`, in O(log n).
    public subscript(index: Int) -> Element { tree[index] }

    /// The elements, in order; O(n).
    public var elements: [Element] { tree.array }

    /// Starts the record of a new change.
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

    /// Replaces every element, recording a reset.
    mutating func reset(to elements: some Sequence<Element>) {
        tree = PositionalTree(elements)
        edits.removeAll()
        isReset = true
        change = .fresh()
    }

    mutating func insert(_ element: Element, at index: Int) {
        tree.insert(element, at: index)
        edits.append(.insert(element, at: index))
    }

    mutating func remove(at index: Int) {
        let removed = tree.remove(at: index).element
        edits.append(.remove(removed, at: index))
    }

    mutating func replace(at index: Int, with element: Element) {
        let old = tree[index]
        tree[index] = element
        edits.append(.replace(old, at: index, with: element))
    }
}

/// An array you edit: the source of incremental collection pipelines.
///
/// ```swift
/// let prices = graph.arrayInput([3, 4])
/// let total = prices.sum()
/// prices.append(5)            // total recomputes by adding 5, not by summing again
/// ```
///
/// Each edit applies at once (``count`` and the elements show it) and propagates at once,
/// unless made inside `graph.batch { }`, where the edits of the batch reach derived arrays
/// as one change, or by an observer, where they propagate after the observers of the
/// current propagation have run. An edit made from inside a `map` or `flatMap` closure
/// applies after the computation under way.
public final class ArrayInput<Element>: I<IncrementalArray<Element>> {
    private var openWindow = -1

    init(graph: Graph, elements: [Element]) {
        super.init(graph: Unmanaged.passUnretained(graph), flags: Flags.source, cutoff: .alwaysPropagate)
        current = IncrementalArray(elements)
        checkedAt = 0
    }

    /// The number of elements.
    public var count: Int { current.count }

    /// The element at `index`; setting it replaces it.
    public subscript(index: Int) -> Element {
        get { current[index] }
        set {
            if graph.mustDeferWrites {
                graph.deferWrite { [self] in self[index] = newValue }
                return
            }
            precondition(index >= 0 && index < count, "ArrayInput[index]: index \(index) out of 0..<\(count)")
            beginEdit()
            mutateCurrent { $0.replace(at: index, with: newValue) }
            endEdit()
        }
    }

    /// Appends `element`.
    public func append(_ element: Element) {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in append(element) }
            return
        }
        beginEdit()
        mutateCurrent { $0.insert(element, at: $0.count) }
        endEdit()
    }

    /// Inserts `element` at `index`.
    ///
    /// - Precondition: `index` is in `0...count`.
    public func insert(_ element: Element, at index: Int) {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in insert(element, at: index) }
            return
        }
        precondition(index >= 0 && index <= count, "ArrayInput.insert: index \(index) out of 0...\(count)")
        beginEdit()
        mutateCurrent { $0.insert(element, at: index) }
        endEdit()
    }

    /// Removes the element at `index`.
    ///
    /// - Precondition: `index` is in `0..<count`.
    public func remove(at index: Int) {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in remove(at: index) }
            return
        }
        precondition(index >= 0 && index < count, "ArrayInput.remove: index \(index) out of 0..<\(count)")
        beginEdit()
        mutateCurrent { $0.remove(at: index) }
        endEdit()
    }

    /// Replaces every element: derived arrays rebuild, at O(n).
    public func replaceAll(with elements: [Element]) {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in replaceAll(with: elements) }
            return
        }
        mutateCurrent { $0.reset(to: elements) }
        openWindow = -1
        endEdit()
    }

    /// Starts a new change unless the edits made since the last propagation are still open.
    private func beginEdit() {
        if openWindow != graph.changeWindow || current.isReset {
            mutateCurrent { $0.beginChange() }
            openWindow = graph.changeWindow
        }
    }

    private func endEdit() {
        graph.inputChanged(self)
        graph.propagate()
    }
}

extension Graph {
    /// A new array input holding `elements`.
    public func arrayInput<Element>(_ elements: [Element]) -> ArrayInput<Element> {
        ArrayInput(graph: self, elements: elements)
    }
}

extension IncrementalArray: CustomStringConvertible {
    /// The elements, as an array describes them (what the inspector and `debugDescription`
    /// of a node show); O(n).
    public var description: String { elements.description }
}
