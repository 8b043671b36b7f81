/// The elements of a set signal's source as an array sorted by a comparator, kept in sync by
/// its signals.
///
/// ```swift
/// let tags = EditableSetStorage<String>()
/// let sorted = SetSortingArrayStorage<String>(by: <)
/// tags.register(sorted)
/// tags.insert("swift")
/// tags.insert("async")        // sorted.state == ["async", "swift"]
/// tags.deregister(sorted)
/// ```
///
/// Cost per mutation: O(log n) per element removed or inserted, each placed by binary search
/// down a balanced tree. A transition's removals are sent first, then its insertions; elements
/// that sort as equivalent keep the order they arrived in (within one transition, a set's
/// order, which is unspecified).
public final class SetSortingArrayStorage<Element: Hashable>: TreeArrayStorage<Element>, Sensor, Storage {
    /// The signals it receives.
    public typealias IncomingSignal = SetSignal<Element>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Element>

    private let areInIncreasingOrder: (Element, Element) -> Bool

    /// A view sorted by `areInIncreasingOrder`, a strict weak ordering that must not change
    /// while the view exists.
    public init(by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
        super.init()
    }

    /// Follows the source: resets on initiation and termination, translates transitions.
    public func sense(_ signal: SetSignal<Element>) {
        switch signal {
        case .initiation(let elements): resetElements(to: elements.sorted(by: areInIncreasingOrder))
        case .termination: resetElements(to: [])
        case .transition(let transition):
            edit { [self] tree in
                var output: [ArrayMutation<Element>] = []
                for element in transition.deleted {
                    guard let index = index(of: element, in: tree) else { continue }
                    tree.remove(at: index)
                    output.append(.delete(at: index))
                }
                for element in transition.inserted where index(of: element, in: tree) == nil {
                    let index = tree.partitionIndex { !areInIncreasingOrder(element, $0) }
                    tree.insert(element, at: index)
                    output.append(.insert(element, at: index))
                    #if SIGNALGRAPH_INTERNAL_CHECKS
                        signalGraphCheck(
                            tree.isSortedInsertion(at: index, by: areInIncreasingOrder), "SG6",
                            "an element placed at \(index) is out of order with its neighbours, or precedes an equivalent one"
                        )
                    #endif
                }
                return output
            }
        }
    }

    /// Where `element` is, found by binary search to the first equivalent element and a walk
    /// over the equivalent ones; `nil` if the view does not hold it.
    private func index(of element: Element, in tree: PositionalTree<Element>) -> Int? {
        var index = tree.partitionIndex { areInIncreasingOrder($0, element) }
        while index < tree.count, !areInIncreasingOrder(element, tree[index]) {
            if tree[index] == element { return index }
            index += 1
        }
        return nil
    }
}
