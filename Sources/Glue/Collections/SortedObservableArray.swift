import ReactiveCore

extension ObservableArrayType where Element: Equatable {
    /// An observable array of this array's elements sorted by `areInIncreasingOrder`, kept
    /// up to date edit by edit: each new or removed element is found by binary search.
    ///
    /// Elements that compare equivalent keep the order they were inserted in.
    public func sorted(by areInIncreasingOrder: @escaping (Element, Element) -> Bool) -> SortedObservableArray<Element>
    {
        SortedObservableArray(array: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension ObservableSetType {
    /// An observable array of this set's elements sorted by `areInIncreasingOrder`, kept
    /// up to date change by change: each new or removed element is found by binary search.
    ///
    /// ```swift
    /// let visible = rows.filter { !$0.done }.sorted { ($0.score, $0.id) < ($1.score, $1.id) }
    /// ```
    public func sorted(by areInIncreasingOrder: @escaping (Element, Element) -> Bool) -> SortedObservableArray<Element>
    {
        SortedObservableArray(set: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

/// An observable sorted array; made by ``ObservableArrayType/sorted(by:)`` and
/// ``ObservableSetType/sorted(by:)``.
///
/// Cost of one inserted or removed element: a binary search down a positional tree, O(log n)
/// comparisons; the comparator never runs over the whole collection again.
public final class SortedObservableArray<Element: Equatable>: ObservableArrayType {
    /// The elements in order: O(log n) to find, insert or remove one.
    private var elements: TreeElements<Element>
    private let areInIncreasingOrder: (Element, Element) -> Bool
    private let base: AnyObject
    private let follower: AnyObject
    #if GLUE_INTERNAL_CHECKS
        /// The base's elements, kept from its changes: G3's reference.
        private var shadow: G3Shadow<Element>
    #endif

    /// The sorted elements. Built from the tree when first read after a change, O(n); use
    /// ``count`` and ``subscript(_:)`` to look without building it.
    public var value: [Element] { elements.array() }

    /// The number of elements, O(1).
    public var count: Int { elements.tree.count }

    /// The element at `index`, O(log n).
    public subscript(index: Int) -> Element { elements.tree[index] }

    init<Base: ObservableArrayType>(array base: Base, areInIncreasingOrder: @escaping (Element, Element) -> Bool)
    where Base.Element == Element {
        self.base = ObjectBox(base)
        self.areInIncreasingOrder = areInIncreasingOrder
        elements = TreeElements(base.value.sorted(by: areInIncreasingOrder))
        #if GLUE_INTERNAL_CHECKS
            shadow = G3Shadow(base.value)
        #endif
        let follower = ChangeFollower<ArrayChange<Element>, ArrayChange<Element>>()
        self.follower = follower
        signal = follower.signal
        signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == elements.tree.count, "G3",
                    "a change for \(change.initialCount) elements reached a sorted view of \(elements.tree.count)")
                shadow.apply(change, in: "sorted view")
                defer { checkElements() }
            #endif
            var output = ArrayChange<Element>(initialCount: elements.tree.count)
            for modification in change.modifications {
                switch modification {
                case .insert(let element, _): insert(element, into: &output)
                case .remove(let element, _): remove(element, into: &output)
                case .replace(let old, _, let new):
                    remove(old, into: &output)
                    insert(new, into: &output)
                case .replaceSlice(let old, _, let new):
                    for element in old { remove(element, into: &output) }
                    for element in new { insert(element, into: &output) }
                }
            }
            return output
        }
    }

    init<Base: ObservableSetType>(set base: Base, areInIncreasingOrder: @escaping (Element, Element) -> Bool)
    where Base.Element == Element {
        self.base = ObjectBox(base)
        self.areInIncreasingOrder = areInIncreasingOrder
        elements = TreeElements(base.value.sorted(by: areInIncreasingOrder))
        #if GLUE_INTERNAL_CHECKS
            shadow = G3Shadow(Array(base.value))
        #endif
        let follower = ChangeFollower<SetChange<Element>, ArrayChange<Element>>()
        self.follower = follower
        signal = follower.signal
        signal.owner = self
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                shadow.applySet(change)
                defer { checkElements() }
            #endif
            var output = ArrayChange<Element>(initialCount: elements.tree.count)
            for element in change.removed { remove(element, into: &output) }
            for element in change.inserted { insert(element, into: &output) }
            return output
        }
    }

    private let signal: Signal<Update<ArrayChange<Element>>>

    /// The sorted array's transactions.
    public var updates: Source<Update<ArrayChange<Element>>> { signal.source }

    private func insert(_ element: Element, into output: inout ArrayChange<Element>) {
        // After every element not ordered after it: equivalent elements keep their order.
        let index = elements.tree.partitionIndex { !areInIncreasingOrder(element, $0) }
        elements.edit { $0.insert(element, at: index) }
        output.add(.insert(element, at: index))
        checkPlacement(at: index)
    }

    /// G3: the element just inserted at `index` is in order with its neighbours, and after
    /// the equivalent ones (so equivalent elements keep their order of insertion).
    #if GLUE_INTERNAL_CHECKS
        /// G3 on elements: the view holds the base's elements (kept from its changes, not read
        /// from the base) in sorted order: each run of equivalent elements is the same
        /// elements as the base's run, in whatever order they came.
        private func checkElements() {
            guard shadow.isTimeToCompare() else { return }
            let actual = elements.array()
            let expected = shadow.elements.sorted(by: areInIncreasingOrder)
            glueCheck(
                actual.count == expected.count, "G3",
                "a sorted view holds \(actual.count) elements where its base, sorted, gives \(expected.count)")
            var start = 0
            while start < expected.count {
                var end = start + 1
                while end < expected.count, !areInIncreasingOrder(expected[start], expected[end]) { end += 1 }
                var run = Array(expected[start..<end])
                for element in actual[start..<end] {
                    let index = run.firstIndex(of: element)
                    glueCheck(
                        index != nil, "G3",
                        "a sorted view holds \(element) between \(start) and \(end) where its base, sorted, does not")
                    run.remove(at: index!)
                }
                start = end
            }
        }
    #endif

    @inline(__always)
    private func checkPlacement(at index: Int) {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(
                elements.tree.isSortedInsertion(at: index, by: areInIncreasingOrder), "G3",
                "an element inserted at \(index) is out of order with its neighbours, or precedes an equivalent one")
        #endif
    }

    private func remove(_ element: Element, into output: inout ArrayChange<Element>) {
        // Read in place (no local copy of the tree, which the removal would then copy whole).
        var index = elements.tree.partitionIndex { areInIncreasingOrder($0, element) }
        // Scan the run of equivalent elements for the equal one.
        while index < elements.tree.count, elements.tree[index] != element,
            !areInIncreasingOrder(element, elements.tree[index])
        {
            index += 1
        }
        guard index < elements.tree.count, elements.tree[index] == element else {
            preconditionFailure(
                "SortedObservableArray: an element to remove is not where the comparator puts it; the comparator must be a strict weak ordering that does not change while elements are sorted"
            )
        }
        _ = elements.edit { $0.remove(at: index) }
        output.add(.remove(element, at: index))
    }
}

/// Keeps a base collection of any type alive.
final class ObjectBox<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
