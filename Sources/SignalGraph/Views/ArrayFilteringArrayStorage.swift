/// The elements of an array signal's source that pass a filter, in the source's order, kept in
/// sync by its signals.
///
/// ```swift
/// let tasks = EditableArrayStorage<Int>()
/// let even = ArrayFilteringArrayStorage<Int> { $0.isMultiple(of: 2) }
/// tasks.register(even)
/// let editor = ArrayEditor(tasks)
/// for task in 1...4 { editor.append(task) }   // even.state == [2, 4]
/// tasks.deregister(even)
/// ```
///
/// Cost per mutation: one predicate call and O(log n). The view keeps, in a balanced tree,
/// which of the source's elements pass; the number that pass before an index (where a
/// mutation lands in the view) is read from the tree's counts. An update that crosses the
/// filter becomes an insert or a delete.
public final class ArrayFilteringArrayStorage<Element>: TreeArrayStorage<Element>, Sensor, Storage {
    /// The signals it receives.
    public typealias IncomingSignal = ArraySignal<Element>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Element>

    private let isIncluded: (Element) -> Bool
    /// One entry per element of the source, marked if it passes the filter.
    private var passes = PositionalTree<Bool>()

    /// A view of the elements for which `isIncluded` is true.
    public init(_ isIncluded: @escaping (Element) -> Bool) {
        self.isIncluded = isIncluded
        super.init()
    }

    /// Follows the source: resets on initiation and termination, translates transitions.
    public func sense(_ signal: ArraySignal<Element>) {
        switch signal {
        case .initiation(let elements):
            let flags = elements.map(isIncluded)
            passes = PositionalTree(flags, marked: { $0 })
            resetElements(to: zip(elements, flags).filter { $0.1 }.map { $0.0 })
        case .termination:
            passes = PositionalTree()
            resetElements(to: [])
        case .transition(let transition):
            edit { [self] tree in
                var output: [ArrayMutation<Element>] = []
                for mutation in transition.mutations {
                    switch mutation {
                    case .insert(let element, let index):
                        let now = isIncluded(element)
                        passes.insert(now, at: index, marked: now)
                        guard now else { continue }
                        let position = passes.markedCount(before: index)
                        tree.insert(element, at: position)
                        output.append(.insert(element, at: position))
                    case .update(let element, let index):
                        let was = passes.isMarked(at: index)
                        let now = isIncluded(element)
                        let position = passes.markedCount(before: index)
                        if was != now {
                            passes.remove(at: index)
                            passes.insert(now, at: index, marked: now)
                        }
                        switch (was, now) {
                        case (true, true):
                            tree[position] = element
                            output.append(.update(element, at: position))
                        case (true, false):
                            tree.remove(at: position)
                            output.append(.delete(at: position))
                        case (false, true):
                            tree.insert(element, at: position)
                            output.append(.insert(element, at: position))
                        case (false, false): break
                        }
                    case .delete(let index):
                        let was = passes.isMarked(at: index)
                        let position = passes.markedCount(before: index)
                        passes.remove(at: index)
                        guard was else { continue }
                        tree.remove(at: position)
                        output.append(.delete(at: position))
                    }
                }
                #if SIGNALGRAPH_INTERNAL_CHECKS
                    signalGraphCheck(
                        passes.markedTotal == tree.count, "SG6",
                        "a filtering view marks \(passes.markedTotal) elements as passing and holds \(tree.count)")
                #endif
                return output
            }
        }
    }
}
