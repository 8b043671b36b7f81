extension I {
    /// An incremental array of `transform` applied to each element: one transform per
    /// inserted or replaced element, O(log n) per edit.
    public func mapElements<Element, Output>(
        _ transform: @escaping (Element) -> Output
    ) -> I<IncrementalArray<Output>> where Value == IncrementalArray<Element> {
        DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let element, let index): output.insert(transform(element), at: index)
                case .remove(_, let index): output.remove(at: index)
                case .replace(_, let index, let new): output.replace(at: index, with: transform(new))
                }
            }
        } rebuild: { input in
            IncrementalArray(input.elements.map(transform))
        }
    }

    /// An incremental array of the elements for which `isIncluded` is true, in order: one
    /// predicate call per inserted or replaced element, O(log n) per edit.
    public func filterElements<Element>(
        _ isIncluded: @escaping (Element) -> Bool
    ) -> I<IncrementalArray<Element>> where Value == IncrementalArray<Element> {
        let flags = FilterFlags<Element>()
        return DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let element, let index):
                    let included = isIncluded(element)
                    flags.tree.insert(element, at: index, marked: included)
                    if included { output.insert(element, at: flags.tree.markedCount(before: index)) }
                case .remove(_, let index):
                    let position = flags.tree.markedCount(before: index)
                    if flags.tree.remove(at: index).marked { output.remove(at: position) }
                case .replace(_, let index, let new):
                    let position = flags.tree.markedCount(before: index)
                    let (was, now) = (flags.tree.isMarked(at: index), isIncluded(new))
                    flags.tree[index] = new
                    if was != now { flags.tree.setMarked(now, at: index) }
                    switch (was, now) {
                    case (true, true): output.replace(at: position, with: new)
                    case (true, false): output.remove(at: position)
                    case (false, true): output.insert(new, at: position)
                    case (false, false): break
                    }
                }
            }
        } rebuild: { input in
            let elements = input.elements
            flags.tree = PositionalTree(elements, marked: isIncluded)
            return IncrementalArray(elements.filter(isIncluded))
        }
    }

    /// The elements sorted by `areInIncreasingOrder`: each inserted or removed element is
    /// placed by binary search, O(log n) per edit. Equivalent elements keep the order they
    /// arrived in.
    public func sortedElements<Element: Equatable>(
        by areInIncreasingOrder: @escaping (Element, Element) -> Bool
    ) -> I<IncrementalArray<Element>> where Value == IncrementalArray<Element> {
        DerivedCollectionNode(self) { input, start, output in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let element, _):
                    output.insertSorted(element, by: areInIncreasingOrder)
                case .remove(let element, _):
                    output.removeSorted(element, by: areInIncreasingOrder, matching: ==)
                case .replace(let old, _, let new):
                    output.removeSorted(old, by: areInIncreasingOrder, matching: ==)
                    output.insertSorted(new, by: areInIncreasingOrder)
                }
            }
        } rebuild: { input in
            IncrementalArray(input.elements.sorted(by: areInIncreasingOrder))
        }
    }

    /// A fold of the elements, kept up to date by `add` for each new element and `remove`,
    /// the inverse of `add`, for each removed one: O(1) folds per edit.
    ///
    /// ```swift
    /// let total = prices.fold(0, add: +, remove: -)
    /// ```
    public func fold<Element, Result>(
        _ initial: Result, add: @escaping (Result, Element) -> Result,
        remove: @escaping (Result, Element) -> Result
    ) -> I<Result> where Value == IncrementalArray<Element> {
        FoldNode(self) { result, input, start in
            for edit in input.edits[start...] {
                switch edit {
                case .insert(let element, _): result = add(result, element)
                case .remove(let element, _): result = remove(result, element)
                case .replace(let old, _, let new): result = add(remove(result, old), new)
                }
            }
        } rebuild: { input in
            input.elements.reduce(initial, add)
        }
    }

    /// The sum of the elements, updated by adding and subtracting what changed.
    public func sum<Element: AdditiveArithmetic>() -> I<Element> where Value == IncrementalArray<Element> {
        fold(.zero, add: +, remove: -)
    }
}

extension IncrementalArray {
    /// Inserts `element` after every element not ordered after it.
    mutating func insertSorted(_ element: Element, by areInIncreasingOrder: (Element, Element) -> Bool) {
        let index = tree.partitionIndex { !areInIncreasingOrder(element, $0) }
        insert(element, at: index)
    }

    /// Removes the element that `matches` `element` among those equivalent to it.
    mutating func removeSorted(
        _ element: Element, by areInIncreasingOrder: (Element, Element) -> Bool,
        matching matches: (Element, Element) -> Bool
    ) {
        var index = tree.partitionIndex { areInIncreasingOrder($0, element) }
        while index < count, !matches(tree[index], element) {
            precondition(
                !areInIncreasingOrder(element, tree[index]),
                "Incremental: an element to remove is not where the sort order puts it; the order must be a strict weak ordering that does not change"
            )
            index += 1
        }
        precondition(
            index < count,
            "Incremental: an element to remove is not where the sort order puts it; the order must be a strict weak ordering that does not change"
        )
        remove(at: index)
    }
}

/// The flags (included or not) of a filter, by position in its input.
final class FilterFlags<Element> {
    var tree = PositionalTree<Element>()
}

/// A node whose value is an incremental collection derived from another collection's edits.
///
/// It remembers which change of its input it last applied and how many of that change's
/// edits: an input read in the middle of a batch and edited again continues the same
/// change, and only the new edits are applied.
final class DerivedCollectionNode<Input: VersionedCollection, Output: EditRecordingCollection>: I<Output> {
    unowned(unsafe) let input: I<Input>
    private var apply: (Input, Int, inout Output) -> Void
    private var rebuild: (Input) -> Output
    private var seen = SeenChange()
    /// The propagation whose change the value records; edits made in the same one extend it.
    private var openWindow = -1
    /// The edits buffer not in use: the value's edits and this one alternate, so that
    /// recording a change allocates nothing in steady state.
    private var spareEdits: [Output.Edit] = []

    init(
        _ input: I<Input>, apply: @escaping (Input, Int, inout Output) -> Void,
        rebuild: @escaping (Input) -> Output
    ) {
        self.input = input
        self.apply = apply
        self.rebuild = rebuild
        super.init(graph: Unmanaged.passUnretained(input.graph), cutoff: .alwaysPropagate)
        appendEdge(to: input)
    }

    deinit {
        // The graph releases the closures after this node, without recursing (see `Graph`'s
        // `releaseAfterDeinit`); those left in their place capture nothing.
        graph.releaseAfterDeinit((apply, rebuild))
        (apply, rebuild) = ({ _, _, _ in }, { _ in preconditionFailure("Incremental: a released node rebuilt") })
    }

    override func recompute() -> Step {
        edges[0].seen = input.version
        if let failure = input.failure { return fail(failure) }
        let source = input.current
        guard hasValue, failure == nil, let start = seen.firstNewEdit(of: source) else {
            // First computation, a reset, another collection (a `flatMap` switched or
            // recovered), or changes missed: rebuild, O(n). The rebuilt value is a change of
            // its own, with a fresh stamp, so that readers below rebuild too.
            current = rebuild(source)
            failure = nil
            openWindow = -1
            seen = SeenChange(source)
            return .changed
        }
        seen = SeenChange(source)
        if start == source.editCount { return .unchanged }
        if openWindow == graph.changeWindow && !current.isReset {
            // Same propagation: the new edits extend the change the readers may have seen.
            let before = current.editCount
            mutateCurrent { apply(source, start, &$0) }
            return current.editCount > before ? .changed : .unchanged
        }
        let (wasReset, change, editCount) = (current.isReset, current.change, current.editCount)
        mutateCurrent { swap(&$0.edits, &spareEdits) }
        // The count of the change it follows is taken before the swap: readers that applied
        // all of it then apply the new one edit by edit.
        mutateCurrent { $0.beginChange(afterEditCount: editCount) }
        mutateCurrent { apply(source, start, &$0) }
        if current.hasEdits {
            openWindow = graph.changeWindow
            return .changed
        }
        // Nothing changed (a filter dropped every edit): the value stays exactly as it was,
        // its last change's edits and stamp included. A new change without edits would
        // look to the nodes below like a change they missed, and each would rebuild, O(n).
        mutateCurrent {
            swap(&$0.edits, &spareEdits)
            $0.isReset = wasReset
            $0.change = change
        }
        return .unchanged
    }
}

/// A node whose value folds a collection's edits into a result.
final class FoldNode<Input: VersionedCollection, Result>: I<Result> {
    unowned(unsafe) let input: I<Input>
    private var apply: (inout Result, Input, Int) -> Void
    private var rebuild: (Input) -> Result
    private var seen = SeenChange()

    init(
        _ input: I<Input>, apply: @escaping (inout Result, Input, Int) -> Void,
        rebuild: @escaping (Input) -> Result
    ) {
        self.input = input
        self.apply = apply
        self.rebuild = rebuild
        super.init(graph: Unmanaged.passUnretained(input.graph))
        appendEdge(to: input)
    }

    deinit {
        // The graph releases the closures after this node, without recursing (see `Graph`'s
        // `releaseAfterDeinit`); those left in their place capture nothing.
        graph.releaseAfterDeinit((apply, rebuild))
        (apply, rebuild) = ({ _, _, _ in }, { _ in preconditionFailure("Incremental: a released node rebuilt") })
    }

    override func recompute() -> Step {
        edges[0].seen = input.version
        if let failure = input.failure { return fail(failure) }
        let source = input.current
        guard hasValue, failure == nil, let start = seen.firstNewEdit(of: source) else {
            seen = SeenChange(source)
            return update(to: rebuild(source))
        }
        seen = SeenChange(source)
        if start == source.editCount { return .unchanged }
        var result = current
        apply(&result, source, start)
        return update(to: result)
    }
}

extension IncrementalArray: EditRecordingCollection {
    var hasEdits: Bool { !edits.isEmpty }
    var editCount: Int { edits.count }
}
