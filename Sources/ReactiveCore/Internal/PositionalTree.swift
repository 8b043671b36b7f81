/// A sequence stored as a balanced tree (a treap ordered by position), so that inserting,
/// removing, replacing and reading at an index all take O(log n), and so does counting the
/// *marked* elements before an index.
///
/// It is the shared engine behind the collection operators whose cost must not grow with
/// the collection: a sorted view inserts at the position a binary search finds, a filter
/// translates a source index into a filtered one by counting marked (included) elements.
///
/// Nodes live in arrays indexed by `Int32` rather than as objects, so the tree allocates
/// only when its arrays grow and reference counting never touches a node. Priorities come
/// from a fixed-seed generator: the shape is deterministic for a given sequence of edits.
package struct PositionalTree<Element> {
    private var elements: [Element?] = []
    private var left: [Int32] = []
    private var right: [Int32] = []
    /// Each node's parent, -1 at the root: what lets ``index(of:)`` climb from a handle.
    private var parent: [Int32] = []
    private var priority: [UInt32] = []
    private var size: [Int32] = []
    private var markedCount: [Int32] = []
    private var isMarked: [Bool] = []
    private var free: [Int32] = []
    private var root: Int32 = -1
    private var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    #if REACTIVECORE_INTERNAL_CHECKS
        /// Operations since the last full check (see `checkInvariantsAfterOperation`).
        private var checksSkipped = 0
    #endif

    /// An empty tree.
    package init() {}

    /// A tree holding `elements` in order, all marked as `marked` says.
    package init<S: Sequence>(_ elements: S, marked: (Element) -> Bool = { _ in true }) where S.Element == Element {
        for element in elements { insert(element, at: count, marked: marked(element)) }
    }

    /// The number of elements.
    package var count: Int { root < 0 ? 0 : Int(size[Int(root)]) }

    /// The number of marked elements.
    package var markedTotal: Int { root < 0 ? 0 : Int(markedCount[Int(root)]) }

    /// The element at `index`.
    package subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "PositionalTree: index \(index) out of 0..<\(count)")
            return elements[Int(node(at: index))]!
        }
        set {
            precondition(index >= 0 && index < count, "PositionalTree: index \(index) out of 0..<\(count)")
            elements[Int(node(at: index))] = newValue
        }
    }

    /// Whether the element at `index` is marked.
    package func isMarked(at index: Int) -> Bool {
        isMarked[Int(node(at: index))]
    }

    /// Marks or unmarks the element at `index`.
    package mutating func setMarked(_ marked: Bool, at index: Int) {
        setMarked(marked, handle: Handle(node: node(at: index)))
    }

    /// A stable name for one element of the tree: it stays valid, naming the same element,
    /// through every insertion and removal of other elements, and is invalid once its own
    /// element is removed. ``insert(_:at:marked:)`` returns it; ``index(of:)`` finds the
    /// element's position from it in O(log n).
    package struct Handle: Hashable, Sendable {
        fileprivate let node: Int32
    }

    /// The position of the element `handle` names: the elements before it in the tree's
    /// order, counted on the way from its node up to the root, O(log n).
    package func index(of handle: Handle) -> Int {
        checkLive(handle)
        var node = handle.node
        var index = subtreeSize(left[Int(node)])
        while parent[Int(node)] >= 0 {
            let above = parent[Int(node)]
            if right[Int(above)] == node { index += subtreeSize(left[Int(above)]) + 1 }
            node = above
        }
        return index
    }

    /// The element `handle` names, O(1).
    package subscript(handle handle: Handle) -> Element {
        get {
            checkLive(handle)
            return elements[Int(handle.node)]!
        }
        set {
            checkLive(handle)
            elements[Int(handle.node)] = newValue
        }
    }

    /// Whether the element `handle` names is marked, O(1).
    package func isMarked(handle: Handle) -> Bool {
        checkLive(handle)
        return isMarked[Int(handle.node)]
    }

    /// Marks or unmarks the element `handle` names in place, updating the marked counts on
    /// the way up to the root: O(log n), and the handle stays valid.
    package mutating func setMarked(_ marked: Bool, handle: Handle) {
        checkLive(handle)
        var node = handle.node
        isMarked[Int(node)] = marked
        while node >= 0 {
            update(node)
            node = parent[Int(node)]
        }
        checkInvariantsAfterOperation()
    }

    private func checkLive(_ handle: Handle) {
        let isLive = handle.node >= 0 && Int(handle.node) < elements.count && elements[Int(handle.node)] != nil
        precondition(isLive, "PositionalTree: a handle names no element of the tree (its element was removed)")
    }

    /// How many marked elements come before `index`.
    package func markedCount(before index: Int) -> Int {
        var current = root
        var remaining = index
        var counted = 0
        while current >= 0 && remaining > 0 {
            let node = Int(current)
            let leftSize = subtreeSize(left[node])
            if remaining <= leftSize {
                current = left[node]
            } else {
                counted += subtreeMarked(left[node]) + (isMarked[node] ? 1 : 0)
                remaining -= leftSize + 1
                current = right[node]
            }
        }
        return counted
    }

    /// The first index at which `isBefore(element at index)` is false, for a predicate that
    /// is true for a prefix of the sequence: a binary search down the tree.
    package func partitionIndex(where isBefore: (Element) -> Bool) -> Int {
        var current = root
        var index = 0
        var result = count
        while current >= 0 {
            let node = Int(current)
            let position = index + subtreeSize(left[node])
            if isBefore(elements[node]!) {
                index = position + 1
                current = right[node]
            } else {
                result = position
                current = left[node]
            }
        }
        return result
    }

    /// Whether the element at `index` is where a sorted insertion puts it: not before the one
    /// ahead of it, and before the one after it (so after every equivalent one). The sorted
    /// views' invariant checks ask it of each element they place.
    package func isSortedInsertion(at index: Int, by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        (index == 0 || !areInIncreasingOrder(self[index], self[index - 1]))
            && (index + 1 == count || areInIncreasingOrder(self[index], self[index + 1]))
    }

    /// Inserts `element` at `index`, and returns the handle that names it until it is removed.
    @discardableResult
    package mutating func insert(_ element: Element, at index: Int, marked: Bool = true) -> Handle {
        precondition(index >= 0 && index <= count, "PositionalTree: insertion index \(index) out of 0...\(count)")
        let node = allocate(element, marked: marked)
        let (lower, upper) = split(root, at: index)
        root = merge(merge(lower, node), upper)
        parent[Int(root)] = -1
        checkInvariantsAfterOperation()
        return Handle(node: node)
    }

    /// Removes and returns the element at `index`, with whether it was marked.
    @discardableResult
    package mutating func remove(at index: Int) -> (element: Element, marked: Bool) {
        precondition(index >= 0 && index < count, "PositionalTree: index \(index) out of 0..<\(count)")
        let (lower, rest) = split(root, at: index)
        let (middle, upper) = split(rest, at: 1)
        root = merge(lower, upper)
        if root >= 0 { parent[Int(root)] = -1 }
        let node = Int(middle)
        let removed = (elements[node]!, isMarked[node])
        elements[node] = nil
        free.append(middle)
        checkInvariantsAfterOperation()
        return removed
    }

    /// The elements in order.
    package var array: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        var stack: [Int32] = []
        var current = root
        while current >= 0 || !stack.isEmpty {
            while current >= 0 {
                stack.append(current)
                current = left[Int(current)]
            }
            let node = stack.removeLast()
            result.append(elements[Int(node)]!)
            current = right[Int(node)]
        }
        return result
    }

    // MARK: Treap machinery

    private func subtreeSize(_ node: Int32) -> Int { node < 0 ? 0 : Int(size[Int(node)]) }
    private func subtreeMarked(_ node: Int32) -> Int { node < 0 ? 0 : Int(markedCount[Int(node)]) }

    private func node(at index: Int) -> Int32 {
        var current = root
        var remaining = index
        while true {
            let node = Int(current)
            let leftSize = subtreeSize(left[node])
            if remaining < leftSize {
                current = left[node]
            } else if remaining == leftSize {
                return current
            } else {
                remaining -= leftSize + 1
                current = right[node]
            }
        }
    }

    private mutating func nextPriority() -> UInt32 {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        return UInt32(truncatingIfNeeded: seed >> 16)
    }

    private mutating func allocate(_ element: Element, marked: Bool) -> Int32 {
        let priority = nextPriority()
        if let reused = free.popLast() {
            let node = Int(reused)
            elements[node] = element
            (left[node], right[node], parent[node]) = (-1, -1, -1)
            self.priority[node] = priority
            size[node] = 1
            isMarked[node] = marked
            markedCount[node] = marked ? 1 : 0
            return reused
        }
        elements.append(element)
        left.append(-1)
        right.append(-1)
        parent.append(-1)
        self.priority.append(priority)
        size.append(1)
        isMarked.append(marked)
        markedCount.append(marked ? 1 : 0)
        return Int32(elements.count - 1)
    }

    /// Recomputes `node`'s size and marked count from its children, and makes it their
    /// parent: every link a split or merge makes goes through here, so T4 holds after each.
    private mutating func update(_ node: Int32) {
        let index = Int(node)
        if left[index] >= 0 { parent[Int(left[index])] = node }
        if right[index] >= 0 { parent[Int(right[index])] = node }
        size[index] = Int32(1 + subtreeSize(left[index]) + subtreeSize(right[index]))
        markedCount[index] = Int32((isMarked[index] ? 1 : 0) + subtreeMarked(left[index]) + subtreeMarked(right[index]))
    }

    /// Splits `node` into the first `index` elements and the rest.
    private mutating func split(_ node: Int32, at index: Int) -> (Int32, Int32) {
        guard node >= 0 else { return (-1, -1) }
        let current = Int(node)
        let leftSize = subtreeSize(left[current])
        if index <= leftSize {
            let (lower, upper) = split(left[current], at: index)
            left[current] = upper
            update(node)
            return (lower, node)
        } else {
            let (lower, upper) = split(right[current], at: index - leftSize - 1)
            right[current] = lower
            update(node)
            return (node, upper)
        }
    }

    /// Joins two trees, all of `lower` before all of `upper`.
    private mutating func merge(_ lower: Int32, _ upper: Int32) -> Int32 {
        if lower < 0 { return upper }
        if upper < 0 { return lower }
        if priority[Int(lower)] > priority[Int(upper)] {
            right[Int(lower)] = merge(right[Int(lower)], upper)
            update(lower)
            return lower
        } else {
            left[Int(upper)] = merge(lower, left[Int(upper)])
            update(upper)
            return upper
        }
    }
}

// MARK: - Invariants (Documentation/Internals/ReactiveCore.md)

extension PositionalTree {
    /// Called after every insert and remove: checks the tree after each one while it holds
    /// up to 512 elements, and once every `count` operations when it holds more, so that the
    /// checks cost about one node's visit per operation.
    @inline(__always)
    private mutating func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            checksSkipped += 1
            if count <= 512 || checksSkipped >= count {
                checksSkipped = 0
                _checkInvariants()
            }
        #endif
    }

    /// Checks T1 to T4, stopping with a message that names the one broken. Does nothing
    /// unless the module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            let slots = elements.count
            reactiveCoreCheck(
                [left.count, right.count, parent.count, priority.count, size.count, markedCount.count, isMarked.count]
                    .allSatisfy { $0 == slots }, "T3", "the node arrays differ in length")
            var seen = [Bool](repeating: false, count: slots)
            var reachable = 0
            reactiveCoreCheck(root < 0 || parent[Int(root)] == -1, "T4", "the root records a parent")
            var stack: [Int32] = root >= 0 ? [root] : []
            while let node = stack.popLast() {
                let index = Int(node)
                reactiveCoreCheck(index < slots, "T3", "node \(index) is past the \(slots) slots")
                reactiveCoreCheck(!seen[index], "T3", "node \(index) is reachable twice")
                seen[index] = true
                reachable += 1
                reactiveCoreCheck(elements[index] != nil, "T3", "reachable node \(index) holds no element")
                let children = [left[index], right[index]].filter { $0 >= 0 }
                reactiveCoreCheck(
                    size[index] == 1 + Int32(subtreeSize(left[index]) + subtreeSize(right[index])), "T1",
                    "node \(index) records size \(size[index]), its subtrees say otherwise")
                reactiveCoreCheck(
                    markedCount[index]
                        == (isMarked[index] ? 1 : 0) + Int32(subtreeMarked(left[index]) + subtreeMarked(right[index])),
                    "T1", "node \(index) records \(markedCount[index]) marked, its subtrees say otherwise")
                for child in children {
                    reactiveCoreCheck(
                        parent[Int(child)] == node, "T4",
                        "node \(child) records parent \(parent[Int(child)]), but hangs under \(index)")
                    reactiveCoreCheck(
                        priority[Int(child)] <= priority[index], "T2",
                        "node \(child) outranks its parent \(index)")
                    stack.append(child)
                }
            }
            for node in free {
                let index = Int(node)
                reactiveCoreCheck(index < slots && !seen[index], "T3", "free node \(index) is reachable, or free twice")
                reactiveCoreCheck(elements[index] == nil, "T3", "free node \(index) still holds an element")
                seen[index] = true
            }
            reactiveCoreCheck(
                reachable + free.count == slots, "T3",
                "\(slots - reachable - free.count) node(s) neither reachable nor free")
        #endif
    }
}
