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
/// Cost of one edit: one predicate call per new element, plus translating the base index
/// into the filtered index, which counts included elements before it (linear in the
/// index, over a compact array of flags).
public final class FilteredObservableArray<Base: ObservableArrayType>: ObservableArrayType {
    /// The type of the elements.
    public typealias Element = Base.Element

    /// The included elements, in the base's order.
    public private(set) var value: [Base.Element]
    private var included: [Bool]
    private let base: Base
    private let isIncluded: (Base.Element) -> Bool
    private let follower = ChangeFollower<ArrayChange<Base.Element>, ArrayChange<Base.Element>>()

    init(base: Base, isIncluded: @escaping (Base.Element) -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
        included = base.value.map(isIncluded)
        value = zip(base.value, included).compactMap { $1 ? $0 : nil }
        follower.signal.owner = self
        follower.follow(base.updates) { [unowned self] change in translate(change) }
    }

    /// The filtered array's transactions.
    public var updates: Source<Update<ArrayChange<Base.Element>>> { follower.signal.source }

    private func filteredIndex(of index: Int) -> Int {
        var count = 0
        for flag in included[..<index] where flag { count += 1 }
        return count
    }

    private func translate(_ change: ArrayChange<Base.Element>) -> ArrayChange<Base.Element> {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(
                change.initialCount == included.count, "G3",
                "a change for \(change.initialCount) elements reached a filter of \(included.count)")
            defer { _checkInvariants() }
        #endif
        var output = ArrayChange<Base.Element>(initialCount: value.count)
        for modification in change.modifications {
            switch modification {
            case .insert(let element, let index):
                insert(element, at: index, into: &output)
            case .remove(let element, let index):
                remove(element, at: index, into: &output)
            case .replace(let old, let index, let new):
                let (wasIncluded, isNowIncluded) = (included[index], isIncluded(new))
                let position = filteredIndex(of: index)
                included[index] = isNowIncluded
                switch (wasIncluded, isNowIncluded) {
                case (true, true):
                    value[position] = new
                    output.add(.replace(old, at: position, with: new))
                case (true, false):
                    value.remove(at: position)
                    output.add(.remove(old, at: position))
                case (false, true):
                    value.insert(new, at: position)
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
            value.insert(element, at: position)
            output.add(.insert(element, at: position))
        }
        included.insert(include, at: index)
    }

    private func remove(_ element: Base.Element, at index: Int, into output: inout ArrayChange<Base.Element>) {
        if included[index] {
            let position = filteredIndex(of: index)
            value.remove(at: position)
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
            let flagged = included.reduce(0) { $0 + ($1 ? 1 : 0) }
            glueCheck(
                flagged == value.count, "G3",
                "\(flagged) elements flagged included, \(value.count) in the filtered array")
        #endif
    }
}
