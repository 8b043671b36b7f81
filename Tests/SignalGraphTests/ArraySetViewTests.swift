import SignalGraph
import TestSupport
import Testing

@Suite("Array filtering and set sorting views")
struct ArraySetViewTests {
    @Test(
        "random inserts, updates, deletes, multi-mutation transitions and resets: the filtered array equals filter() of the source"
    )
    func filteringModel() {
        var random = SeededGenerator(seed: 43)
        let source = EditableArrayStorage<Int>()
        let editor = ArrayEditor(source)
        let even = ArrayFilteringArrayStorage<Int> { $0.isMultiple(of: 2) }
        let replica = ReplicatingArrayStorage<Int>()
        source.register(even)
        even.register(replica)
        for step in 0..<modelOperations {
            let value = Int.random(in: 0..<50, using: &random)
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<4: editor.insert(value, at: Int.random(in: 0...editor.count, using: &random))
            case 4..<7 where !editor.isEmpty: editor[Int.random(in: 0..<editor.count, using: &random)] = value
            case 7..<10 where !editor.isEmpty: editor.remove(at: Int.random(in: 0..<editor.count, using: &random))
            case 10:
                // Several mutations in one transition, each at an index of the array as it is then.
                var count = editor.count
                var mutations: [ArrayMutation<Int>] = [.insert(value, at: Int.random(in: 0...count, using: &random))]
                count += 1
                mutations.append(.update(value + 1, at: Int.random(in: 0..<count, using: &random)))
                mutations.append(.delete(at: Int.random(in: 0..<count, using: &random)))
                source.apply(ArrayTransition(mutations))
            default:
                source.state = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    Int.random(in: 0..<50, using: &random)
                }
            }
            let expected = source.state.filter { $0.isMultiple(of: 2) }
            guard even.state == expected, replica.state == expected, even.count == expected.count else {
                Issue.record("step \(step): \(even.state) against \(expected)")
                break
            }
        }
        even.deregister(replica)
        source.deregister(even)
    }

    @Test(
        "random inserts and removals, ties included: the sorted array is the set sorted, equivalent elements in arrival order"
    )
    func sortingModel() {
        var random = SeededGenerator(seed: 39)
        let source = EditableSetStorage<Int>()
        // By tens: elements of one ten are equivalent.
        let sorted = SetSortingArrayStorage<Int> { $0 / 10 < $1 / 10 }
        let replica = ReplicatingArrayStorage<Int>()
        source.register(sorted)
        sorted.register(replica)
        var arrival: [Int: Int] = [:]
        for step in 0..<modelOperations {
            let value = Int.random(in: 0..<60, using: &random)
            if Bool.random(using: &random) {
                if !source.state.contains(value) { arrival[value] = step }
                source.insert(value)
            } else {
                source.remove(value)
                arrival[value] = nil
            }
            let expected = source.state.sorted { ($0 / 10, arrival[$0]!) < ($1 / 10, arrival[$1]!) }
            guard sorted.state == expected, replica.state == expected else {
                Issue.record("step \(step): \(sorted.state) against \(expected)")
                break
            }
        }
        sorted.deregister(replica)
        source.deregister(sorted)
    }

    @Test("an update that crosses the filter is sent as an insert or a delete at the view's index")
    func crossingTheFilter() {
        let source = EditableArrayStorage([1, 2, 3, 4])
        let even = ArrayFilteringArrayStorage<Int> { $0.isMultiple(of: 2) }
        var transitions: [[String]] = []
        let sensor = SignalSensor<ArraySignal<Int>> { signal in
            guard case .transition(let transition) = signal else { return }
            transitions.append(
                transition.mutations.map { mutation in
                    switch mutation {
                    case .insert(let element, let index): "insert \(element) at \(index)"
                    case .update(let element, let index): "update \(element) at \(index)"
                    case .delete(let index): "delete at \(index)"
                    }
                })
        }
        source.register(even)
        even.register(sensor)
        let editor = ArrayEditor(source)
        editor[2] = 6  // 3 → 6 joins between 2 and 4
        editor[1] = 5  // 2 → 5 leaves
        editor[3] = 8  // 4 → 8 stays, updated
        editor[0] = 7  // 1 → 7 stays out: nothing
        #expect(transitions == [["insert 6 at 1"], ["delete at 0"], ["update 8 at 1"]])
        #expect(even.state == [6, 8])
        even.deregister(sensor)
        source.deregister(even)
    }

    @Test("a sensor of a sorted view that inserts into the set during a delivery: the insert is queued, then placed")
    func reentrantInsert() {
        let source = EditableSetStorage<Int>()
        let sorted = SetSortingArrayStorage<Int>(by: <)
        var seen: [[Int]] = []
        let sensor = SignalSensor<ArraySignal<Int>> { signal in
            guard case .transition = signal else { return }
            seen.append(sorted.state)
            if sorted.count == 1 { source.insert(1) }
        }
        source.register(sorted)
        sorted.register(sensor)
        source.insert(5)
        #expect(seen == [[5], [1, 5]])
        sorted.deregister(sensor)
        source.deregister(sorted)
    }

    @Test("both views are freed after teardown; released while registered is a debug assertion")
    func lifetime() async {
        weak var weakFilter: ArrayFilteringArrayStorage<Int>?
        weak var weakSorted: SetSortingArrayStorage<Int>?
        do {
            let array = EditableArrayStorage([1, 2])
            let set = EditableSetStorage<Int>([3])
            let filter = ArrayFilteringArrayStorage<Int> { $0 > 1 }
            let sorted = SetSortingArrayStorage<Int>(by: <)
            array.register(filter)
            set.register(sorted)
            #expect(filter.state == [2] && sorted.state == [3])
            set.deregister(sorted)
            array.deregister(filter)
            (weakFilter, weakSorted) = (filter, sorted)
        }
        #expect(weakFilter == nil && weakSorted == nil)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let set = EditableSetStorage<Int>([1])
            do { set.register(SetSortingArrayStorage<Int>(by: <)) }
            _ = set
        }
        expectStandardError(of: result, contains: "SignalGraph: a view was released while still registered")
    }
}
