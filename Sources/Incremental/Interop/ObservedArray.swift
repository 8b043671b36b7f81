import Observation
import ReactiveCore

/// An `Observable` copy of an incremental array's elements, for Observation and SwiftUI,
/// kept up to date by the array's edits: O(log n) per edit, never a copy of the whole array.
///
/// ```swift
/// let visible = todos.filterElements { !$0.done }.observedElements()
/// // In a SwiftUI view:
/// //   List(visible) { todo in Text(todo.title) }
/// withObservationTracking { print(visible.count) } onChange: { print("the list changes") }
/// ```
///
/// Hand this to a view, not the `I<IncrementalArray>` itself: an observed value of the
/// array (``I/observed()``) keeps a copy of the array's storage, and the next edit of the
/// array then copies the whole storage, O(n) per change, as ``IncrementalArray`` warns. An
/// observed array keeps storage of its own, applies each change's edits to it, and reads
/// elements at O(log n): a `RandomAccessCollection` of `Int` indices that `List` and
/// `ForEach` take directly (give them `id:` for elements that are not `Identifiable`).
///
/// ## What is tracked
///
/// Reading anything (``count``, an element, iterating) tracks the whole collection: an
/// observer is told once per change of the array that has edits (or replaces the elements),
/// before it applies (`willSet`) and after (`didSet`), as with an `@Observable` property. A
/// propagation that leaves the array as it was (a batch that made no edit) tells no one.
///
/// ## Lifetime and isolation
///
/// The observed array observes the node, so the node stays necessary while the observed
/// array lives; releasing it, or ``disconnect()``, releases the node's observer and leaves
/// the last elements readable. Like the graph, it lives in one isolation domain: make and
/// read it there (the main actor, for SwiftUI).
public final class ObservedArray<Element>: Observable, RandomAccessCollection {
    private let registrar = ObservationRegistrar()
    private var tree = PositionalTree<Element>()
    private var seen = SeenChange()
    private var connection: Connection?

    /// How many changes were applied (for tests and debugging).
    public private(set) var changeCount = 0

    init(_ node: I<IncrementalArray<Element>>) {
        connection = node.observe { [weak self] array in self?.apply(array) }
    }

    deinit {
        connection?.disconnect()
    }

    /// Applies the edits of `array`'s change not applied yet (all of them after a reset or a
    /// missed change, as derived arrays do), telling observers around it.
    private func apply(_ array: IncrementalArray<Element>) {
        let start = seen.firstNewEdit(of: array)
        if let start, start == array.edits.count {
            seen = SeenChange(array)
            return
        }
        registrar.willSet(self, keyPath: \.tree)
        if let start {
            for edit in array.edits[start...] {
                switch edit {
                case .insert(let element, let index): tree.insert(element, at: index)
                case .remove(_, let index): _ = tree.remove(at: index)
                case .replace(_, let index, let new): tree[index] = new
                }
            }
        } else {
            tree = PositionalTree(array.elements)
        }
        seen = SeenChange(array)
        changeCount += 1
        registrar.didSet(self, keyPath: \.tree)
    }

    /// Stops following the array; the elements stay as they are.
    public func disconnect() {
        connection?.disconnect()
        connection = nil
    }

    /// Zero.
    public var startIndex: Int { 0 }

    /// The number of elements; reading it tracks the collection.
    public var endIndex: Int {
        registrar.access(self, keyPath: \.tree)
        return tree.count
    }

    /// The element at `position`, in O(log n); reading it tracks the collection.
    public subscript(position: Int) -> Element {
        registrar.access(self, keyPath: \.tree)
        return tree[position]
    }
}

extension I {
    /// An `Observable` copy of this incremental array's elements, kept up to date by its
    /// edits at O(log n) each: what to give SwiftUI's `List` and `ForEach` (see
    /// ``ObservedArray``).
    public func observedElements<Element>() -> ObservedArray<Element> where Value == IncrementalArray<Element> {
        ObservedArray(self)
    }
}
