/// An array storage kept in a balanced tree, so that inserting, deleting and reading at an
/// index cost O(log n); the base of the sorting and mapping views.
///
/// ``state`` builds an array, O(n); use ``count`` and the subscript for single reads.
public class TreeArrayStorage<Element> {
    var tree = PositionalTree<Element>()
    /// Where the view is registered.
    public let registration = SensorRegistration()
    // Set once in init, after `self` exists (the channel reads the elements through `self`).
    private var channel: StateChannel<[Element], ArrayTransition<Element>>!

    init() {
        channel = StateChannel { [unowned self] in tree.array }
        channel.owner = self
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a view was released while still registered; deregister it first")
    }

    /// The elements, in order; O(n).
    public var state: [Element] { tree.array }

    /// The number of elements.
    public var count: Int { tree.count }

    /// The element at `index`, in O(log n).
    public subscript(index: Int) -> Element { tree[index] }

    /// The number of registered sensors.
    public var sensorCount: Int { channel.sensorCount }

    /// The channel, for inspection.
    var channelForInspection: any OwnedChannel { channel }

    /// Registers `sensor`, which receives an initiation with the current elements (after the
    /// delivery under way, if any).
    public func register(_ sensor: any Sensor<ArraySignal<Element>>) {
        channel.register(sensor)
    }

    /// Deregisters `sensor` (after the delivery under way, if any): it receives the changes
    /// it has not seen, then a termination with the elements.
    public func deregister(_ sensor: any Sensor<ArraySignal<Element>>) {
        channel.deregister(sensor)
    }

    /// Runs `edit` on the tree now and sends the mutations it reports, after any delivery
    /// under way.
    func edit(_ edit: (inout PositionalTree<Element>) -> [ArrayMutation<Element>]) {
        let mutations = edit(&tree)
        if !mutations.isEmpty { channel.publish(ArrayTransition(mutations)) }
    }

    /// Replaces every element now: sensors receive a termination and an initiation, after
    /// any delivery under way.
    func resetElements(to elements: [Element]) {
        let old = tree.array
        tree = PositionalTree(elements)
        channel.publishReset(from: old, to: elements)
    }
}

/// The entries of a dictionary signal's source as an array sorted by a comparator, kept in
/// sync by its signals: the third stage of the seed's pipeline.
///
/// Cost per mutation: O(log n). An insert or a delete finds its index by binary search down
/// a balanced tree; an update that keeps its place is sent as an update, one that moves is
/// sent as a delete and an insert. (The original searched linearly.)
public final class DictionarySortingArrayStorage<Key: Hashable, Value>: TreeArrayStorage<(key: Key, value: Value)>,
    Sensor, Storage
{
    /// The signals it receives.
    public typealias IncomingSignal = DictionarySignal<Key, Value>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<(key: Key, value: Value)>

    private let areInIncreasingOrder: ((key: Key, value: Value), (key: Key, value: Value)) -> Bool
    private var values: [Key: Value] = [:]

    /// A view sorted by `areInIncreasingOrder`, a strict weak ordering; equivalent entries
    /// keep the order they arrived in.
    public init(by areInIncreasingOrder: @escaping ((key: Key, value: Value), (key: Key, value: Value)) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
        super.init()
    }

    /// Follows the source: resets on initiation and termination, translates transitions.
    public func sense(_ signal: DictionarySignal<Key, Value>) {
        switch signal {
        case .initiation(let entries):
            values = entries
            resetElements(to: entries.map { (key: $0.key, value: $0.value) }.sorted(by: areInIncreasingOrder))
        case .termination:
            values = [:]
            resetElements(to: [])
        case .transition(let transition):
            edit { [self] tree in
                var output: [ArrayMutation<(key: Key, value: Value)>] = []
                for mutation in transition.mutations {
                    switch mutation {
                    case .insert(let key, let value):
                        values[key] = value
                        let index = insertionIndex(of: (key, value), in: tree)
                        tree.insert((key, value), at: index)
                        output.append(.insert((key, value), at: index))
                        checkPlacement(at: index, in: tree)
                    case .update(let key, let value):
                        guard let old = values[key] else { continue }
                        values[key] = value
                        let from = index(of: (key, old), in: tree)
                        tree.remove(at: from)
                        let to = insertionIndex(of: (key, value), in: tree)
                        tree.insert((key, value), at: to)
                        checkPlacement(at: to, in: tree)
                        if from == to {
                            output.append(.update((key, value), at: to))
                        } else {
                            output.append(.delete(at: from))
                            output.append(.insert((key, value), at: to))
                        }
                    case .delete(let key):
                        guard let old = values.removeValue(forKey: key) else { continue }
                        let index = index(of: (key, old), in: tree)
                        tree.remove(at: index)
                        output.append(.delete(at: index))
                    }
                }
                #if SIGNALGRAPH_INTERNAL_CHECKS
                    signalGraphCheck(
                        values.count == tree.count, "SG6",
                        "a sorting view holds \(values.count) entries and sorts \(tree.count)")
                #endif
                return output
            }
        }
    }

    /// SG6: the entry just placed at `index` sorts after the one ahead of it and before the
    /// one after it (so equivalent entries keep their order of arrival).
    @inline(__always)
    private func checkPlacement(at index: Int, in tree: PositionalTree<(key: Key, value: Value)>) {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            signalGraphCheck(
                tree.isSortedInsertion(at: index, by: areInIncreasingOrder), "SG6",
                "an entry placed at \(index) is out of order with its neighbours, or precedes an equivalent one")
        #endif
    }

    private func insertionIndex(of entry: (key: Key, value: Value), in tree: PositionalTree<(key: Key, value: Value)>)
        -> Int
    {
        tree.partitionIndex { !areInIncreasingOrder(entry, $0) }
    }

    private func index(of entry: (key: Key, value: Value), in tree: PositionalTree<(key: Key, value: Value)>) -> Int {
        var index = tree.partitionIndex { areInIncreasingOrder($0, entry) }
        while index < tree.count && tree[index].key != entry.key {
            index += 1
        }
        precondition(
            index < tree.count,
            "SignalGraph: an entry is not where the sort order puts it; the order must be a strict weak ordering that does not change"
        )
        return index
    }
}

/// An array signal's source with each element mapped, kept in sync by its signals: the last
/// stage of the seed's pipeline, turning model values into view-model values.
///
/// Cost per mutation: one transform and O(log n).
public final class ArraySignalMapStorage<Input, Output>: TreeArrayStorage<Output>, Sensor, Storage {
    /// The signals it receives.
    public typealias IncomingSignal = ArraySignal<Input>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Output>

    private let transform: (Input) -> Output

    /// A view of `transform` applied to every element.
    public init(_ transform: @escaping (Input) -> Output) {
        self.transform = transform
        super.init()
    }

    /// Follows the source: resets on initiation and termination, maps transitions.
    public func sense(_ signal: ArraySignal<Input>) {
        let transform = transform
        switch signal {
        case .initiation(let elements): resetElements(to: elements.map(transform))
        case .termination: resetElements(to: [])
        case .transition(let transition):
            edit { tree in
                transition.mutations.map { mutation in
                    switch mutation {
                    case .insert(let element, let index):
                        let mapped = transform(element)
                        tree.insert(mapped, at: index)
                        return .insert(mapped, at: index)
                    case .update(let element, let index):
                        let mapped = transform(element)
                        tree[index] = mapped
                        return .update(mapped, at: index)
                    case .delete(let index):
                        tree.remove(at: index)
                        return .delete(at: index)
                    }
                }
            }
        }
    }
}
