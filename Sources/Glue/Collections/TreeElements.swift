import ReactiveCore

/// The elements of a derived observable array: a positional tree, O(log n) to read, insert,
/// remove or replace one, and the Swift array built from it when first asked for after an
/// edit (O(n), once per edit at most).
struct TreeElements<Element> {
    /// The elements in order.
    private(set) var tree: PositionalTree<Element>
    private var cachedArray: [Element]?

    init(_ elements: [Element]) {
        tree = PositionalTree(elements)
    }

    /// The elements as an array, built if an edit came since the last time.
    mutating func array() -> [Element] {
        if let cachedArray { return cachedArray }
        let array = tree.array
        cachedArray = array
        return array
    }

    /// Edits the tree; the array is built again when next asked for.
    @discardableResult
    mutating func edit<Result>(_ body: (inout PositionalTree<Element>) -> Result) -> Result {
        cachedArray = nil
        return body(&tree)
    }
}
