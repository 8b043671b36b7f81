import ReactiveCore

/// An observable array of `left`'s elements followed by `right`'s, kept up to date edit by
/// edit: an edit of `right` is reported at its index shifted by `left`'s count.
///
/// ```swift
/// let everyone = admins + members
/// ```
public func + <Left: ObservableArrayType, Right: ObservableArrayType>(
    left: Left, right: Right
) -> ConcatenatedObservableArray<Left, Right> where Left.Element == Right.Element {
    ConcatenatedObservableArray(left: left, right: right)
}

/// The concatenation of two observable arrays; made by `+`.
///
/// It holds the concatenated elements and follows both parts for as long as it lives. An edit
/// of either part costs O(log n) per element it inserts, removes or replaces, whatever the
/// arrays' sizes; the elements of the part not edited are not touched.
///
/// Transactions: a transaction of either part is one of the concatenation; one that both
/// parts take part in (a transaction of a variable on both sides, or of two variables in
/// one `Transaction`) is one transaction, begun when the first part begins and ended when the
/// last part ends.
public final class ConcatenatedObservableArray<Left: ObservableArrayType, Right: ObservableArrayType>:
    ObservableArrayType
where Left.Element == Right.Element {
    /// The type of the elements.
    public typealias Element = Left.Element

    /// The concatenated elements: O(log n) per element edited.
    private var elements: TreeElements<Element>
    /// How many elements come from `left`: where `right`'s begin.
    private var leftCount: Int
    private let left: Left
    private let right: Right
    private let signal = Signal<Update<ArrayChange<Element>>>.reportingAppliedChanges()
    private var connections: [Connection] = []
    /// Whether each part has a transaction open that this array began for it: a part
    /// followed from the middle of a transaction opens at its first change, and an end it
    /// did not begin is dropped (as `ChangeFollower` does).
    private var isOpen = (left: false, right: false)

    init(left: Left, right: Right) {
        self.left = left
        self.right = right
        let leftValue = left.value
        leftCount = leftValue.count
        elements = TreeElements(leftValue + right.value)
        signal.owner = self
        connections = [
            left.updates.subscribe { [unowned self] in receive($0, fromLeft: true) },
            right.updates.subscribe { [unowned self] in receive($0, fromLeft: false) },
        ]
    }

    deinit {
        for connection in connections { connection.disconnect() }
    }

    /// The concatenated elements. Built from the tree when first read after a change, O(n);
    /// use ``count`` and ``subscript(_:)`` to look without building it.
    public var value: [Element] { elements.array() }

    /// The number of elements, O(1).
    public var count: Int { elements.tree.count }

    /// The element at `index`, O(log n).
    ///
    /// - Precondition: `index` is in `0..<count`.
    public subscript(index: Int) -> Element {
        precondition(
            (0..<count).contains(index),
            "Glue: index \(index) is out of range of a concatenated array of \(count) elements")
        return elements.tree[index]
    }

    /// The concatenation's transactions.
    public var updates: Source<Update<ArrayChange<Element>>> { signal.source }

    private func receive(_ update: Update<ArrayChange<Element>>, fromLeft: Bool) {
        switch update {
        case .beginTransaction:
            open(fromLeft)
        case .change(let change):
            guard !change.isEmpty else { return }
            open(fromLeft)
            let total = elements.tree.count
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == (fromLeft ? leftCount : total - leftCount), "G6",
                    "a change for \(change.initialCount) elements reached a part of \(fromLeft ? leftCount : total - leftCount)"
                )
            #endif
            let offset = fromLeft ? 0 : leftCount
            let shifted = ArrayChange(
                initialCount: total, modifications: change.modifications.map { $0.shifted(by: offset) })
            elements.edit { shifted.apply(toTree: &$0) }
            if fromLeft { leftCount = change.finalCount }
            signal.send(.change(shifted))
        case .endTransaction:
            close(fromLeft)
        }
    }

    /// Opens the part's transaction, and the concatenation's if no part had one open.
    private func open(_ fromLeft: Bool) {
        guard !(fromLeft ? isOpen.left : isOpen.right) else { return }
        let wasClosed = !isOpen.left && !isOpen.right
        if fromLeft { isOpen.left = true } else { isOpen.right = true }
        if wasClosed { signal.send(.beginTransaction) }
    }

    /// Closes the part's transaction, and the concatenation's when no part has one open.
    private func close(_ fromLeft: Bool) {
        guard fromLeft ? isOpen.left : isOpen.right else { return }
        if fromLeft { isOpen.left = false } else { isOpen.right = false }
        if !isOpen.left && !isOpen.right { signal.send(.endTransaction) }
    }
}

extension ArrayModification {
    /// The edit at its index moved by `offset`: for a part of a concatenation.
    func shifted(by offset: Int) -> ArrayModification {
        guard offset != 0 else { return self }
        switch self {
        case .insert(let element, let index): return .insert(element, at: index + offset)
        case .remove(let element, let index): return .remove(element, at: index + offset)
        case .replace(let old, let index, let new): return .replace(old, at: index + offset, with: new)
        case .replaceSlice(let old, let index, let new): return .replaceSlice(old, at: index + offset, with: new)
        }
    }
}
