import ReactiveCore

extension ObservableArrayType {
    /// An observable array of the elements for which `isIncluded` is `true`, in order,
    /// kept up to date edit by edit: the predicate runs once per inserted or replaced
    /// element, never over the whole array again.
    public func filter(_ isIncluded: @escaping (Element) -> Bool) -> FilteredObservableArray<Self> {
        FilteredObservableArray(base: self, isIncluded: isIncluded)
    }
}

/// An observable array of the included elements; made by ``ObservableArrayType/filter(_:)``.
///
/// Cost of one edit: one predicate call per new element, and O(log n) to translate the base
/// index into the filtered one (the included elements before it are counted in a positional
/// tree of flags) and to insert or remove the element. Its `value` is built when first read
/// after a change, O(n); ``count`` and ``subscript(_:)`` read the tree.
public final class FilteredObservableArray<Base: ObservableArrayType>: ObservableArrayType {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The included elements, in the base's order: O(log n) to insert or remove one.
    private var elements: TreeElements<Base.Element>
    /// One flag per base element, marked when included: counts the included ones before an
    /// index in O(log n).
    private var included: PositionalTree<Void>
    private let base: Base
    private let isIncluded: (Base.Element) -> Bool
    private let follower = ChangeFollower<ArrayChange<Base.Element>, ArrayChange<Base.Element>>()
    #if GLUE_INTERNAL_CHECKS
        /// The base's elements, kept from its changes: G3's reference.
        private var shadow: G3Shadow<Base.Element>
    #endif

    init(base: Base, isIncluded: @escaping (Base.Element) -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
        #if GLUE_INTERNAL_CHECKS
            shadow = G3Shadow(base.value)
        #endif
        let flags = base.value.map(isIncluded)
        included = PositionalTree()
        for flag in flags { included.insert((), at: included.count, marked: flag) }
        elements = TreeElements(zip(base.value, flags).compactMap { $1 ? $0 : nil })
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in translate(change) }
    }

    /// The included elements, in the base's order. Built from the tree when first read after
    /// a change, O(n).
    public var value: [Base.Element] { elements.array() }

    /// The number of included elements, O(1).
    public var count: Int { elements.tree.count }

    /// The included element at `index`, O(log n).
    public subscript(index: Int) -> Base.Element { elements.tree[index] }

    /// The filtered array's transactions.
    public var updates: Source<Update<ArrayChange<Base.Element>>> { follower.signal.source }

    private func filteredIndex(of index: Int) -> Int {
        included.markedCount(before: index)
    }

    private func translate(_ change: ArrayChange<Base.Element>) -> ArrayChange<Base.Element> {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(
                change.initialCount == included.count, "G3",
                "a change for \(change.initialCount) elements reached a filter of \(included.count)")
            shadow.apply(change, in: "filter")
            defer {
                _checkInvariants()
                checkElements()
            }
        #endif
        var output = ArrayChange<Base.Element>(initialCount: elements.tree.count)
        for modification in change.modifications {
            switch modification {
            case .insert(let element, let index):
                insert(element, at: index, into: &output)
            case .remove(let element, let index):
                remove(element, at: index, into: &output)
            case .replace(let old, let index, let new):
                let (wasIncluded, isNowIncluded) = (included.isMarked(at: index), isIncluded(new))
                let position = filteredIndex(of: index)
                included.setMarked(isNowIncluded, at: index)
                switch (wasIncluded, isNowIncluded) {
                case (true, true):
                    elements.edit { $0[position] = new }
                    output.add(.replace(old, at: position, with: new))
                case (true, false):
                    elements.edit { $0.remove(at: position) }
                    output.add(.remove(old, at: position))
                case (false, true):
                    elements.edit { $0.insert(new, at: position) }
                    output.add(.insert(new, at: position))
                case (false, false):
                    break
                }
            case .replaceSlice(let old, let index, let new):
                for (offset, element) in old.enumerated().reversed() {
                    remove(element, at: index + offset, into: &output)
                }
                for (offset, element) in new.enumerated() {
                    insert(element, at: index + offset, into: &output)
                }
            }
        }
        return output
    }

    private func insert(_ element: Base.Element, at index: Int, into output: inout ArrayChange<Base.Element>) {
        let include = isIncluded(element)
        if include {
            let position = filteredIndex(of: index)
            elements.edit { $0.insert(element, at: position) }
            output.add(.insert(element, at: position))
        }
        included.insert((), at: index, marked: include)
    }

    private func remove(_ element: Base.Element, at index: Int, into output: inout ArrayChange<Base.Element>) {
        if included.isMarked(at: index) {
            let position = filteredIndex(of: index)
            elements.edit { $0.remove(at: position) }
            output.add(.remove(element, at: position))
        }
        included.remove(at: index)
    }
}

// MARK: - Invariants (Documentation/Internals/Glue.md)

extension FilteredObservableArray {
    /// Checks G3's bookkeeping: one flag per base element, and as many included elements as
    /// flags set. Does nothing unless the module is built with `GLUE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(
                included.markedTotal == elements.tree.count, "G3",
                "\(included.markedTotal) elements flagged included, \(elements.tree.count) in the filtered array")
        #endif
    }

    #if GLUE_INTERNAL_CHECKS
        /// G3 on elements: the filtered array is the base's elements (kept from its changes,
        /// not read from the base) whose flag is set, in order. The flags, not the predicate:
        /// the predicate runs once per element, and the check must not run it again.
        private func checkElements() {
            guard shadow.isTimeToCompare() else { return }
            let expected = shadow.elements.enumerated().filter { included.isMarked(at: $0.offset) }.map(\.element)
            glueCheckSameElements(elements.array(), expected, in: "filter")
        }
    #endif
}
