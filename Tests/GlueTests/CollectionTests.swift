import Glue
import TestSupport
import Testing

@Suite("Observable collections")
struct CollectionTests {
    @Test("array edits are reported as modifications at their indices")
    func arrayEdits() {
        let todos = ArrayVariable(["Buy milk"])
        var changes: [ArrayChange<String>] = []
        let connection = todos.changes.subscribe { changes.append($0) }
        todos.append("Walk the dog")
        todos[0] = "Buy oat milk"
        todos.remove(at: 1)
        todos.replaceSubrange(0..<1, with: ["a", "b"])
        #expect(
            changes.map(\.modifications) == [
                [.insert("Walk the dog", at: 1)],
                [.replace("Buy milk", at: 0, with: "Buy oat milk")],
                [.remove("Walk the dog", at: 1)],
                [.replaceSlice(["Buy oat milk"], at: 0, with: ["a", "b"])],
            ])
        #expect(changes.map(\.initialCount) == [1, 2, 2, 1])
        #expect(todos.value == ["a", "b"])
        _ = connection
    }

    @Test("edits in a transaction are reported as one change, in order")
    func arrayTransaction() {
        let numbers = ArrayVariable([1, 2, 3])
        var changes: [ArrayChange<Int>] = []
        var snapshots: [[Int]] = []
        let connections = [
            numbers.changes.subscribe { changes.append($0) }, numbers.subscribe { snapshots.append($0) },
        ]
        numbers.withTransaction {
            numbers.append(4)
            numbers.remove(at: 0)
        }
        #expect(changes.count == 1)
        #expect(changes.first?.modifications == [.insert(4, at: 3), .remove(1, at: 0)])
        #expect(changes.first?.finalCount == 3)
        #expect(snapshots == [[1, 2, 3], [2, 3, 4]])
        _ = connections
    }

    @Test("set changes report what left and what joined; no-ops report nothing")
    func setChanges() {
        let tags = SetVariable<String>(["swift"])
        var changes: [SetChange<String>] = []
        let connection = tags.changes.subscribe { changes.append($0) }
        tags.insert("reactive")
        tags.insert("reactive")
        tags.remove("absent")
        tags.value = ["reactive", "glue"]
        tags.withTransaction {
            tags.insert("x")
            tags.remove("x")
        }
        #expect(
            changes == [
                SetChange(inserted: ["reactive"]),
                SetChange(removed: ["swift"], inserted: ["glue"]),
            ])
        #expect(tags.contains("glue") && tags.count == 2)
        _ = connection
    }

    @Test("the seed's front-end pipeline in Glue: filter, sort, map a set of rows")
    func rowsPipeline() {
        struct Row: Hashable {
            var id: Int
            var score: Int
            var done: Bool
        }
        let rows = SetVariable<Row>([Row(id: 1, score: 5, done: false), Row(id: 2, score: 3, done: true)])
        let view = rows.filter { !$0.done }.sorted { ($0.score, $0.id) < ($1.score, $1.id) }.map {
            "\($0.id):\($0.score)"
        }
        #expect(view.value == ["1:5"])
        rows.insert(Row(id: 3, score: 1, done: false))
        rows.replace(Row(id: 1, score: 5, done: false), with: Row(id: 1, score: 0, done: false))
        rows.replace(Row(id: 2, score: 3, done: true), with: Row(id: 2, score: 3, done: false))
        #expect(view.value == ["1:0", "3:1", "2:3"])
        rows.remove(Row(id: 3, score: 1, done: false))
        #expect(view.value == ["1:0", "2:3"])
    }

    @Test("reduce with an inverse and sum follow edits; one change per transaction")
    func reduceAndSum() {
        let prices = ArrayVariable([3, 4])
        let total = prices.sum()
        let count = prices.reduce(0, add: { count, _ in count + 1 }, remove: { count, _ in count - 1 })
        var totals: [Int] = []
        let connection = total.subscribe { totals.append($0) }
        prices.append(5)
        prices.withTransaction {
            prices[0] = 10
            prices.remove(at: 1)
        }
        #expect(totals == [7, 12, 15])
        #expect(count.value == 2)
        _ = connection
    }

    @Test("derived collections are freed with their last reference, and free their base")
    func lifetime() {
        weak var weakSource: ArrayVariable<Int>?
        weak var weakSorted: SortedObservableArray<Int>?
        var sum: ReducedObservable<Int>? = nil
        do {
            let source = ArrayVariable([3, 1, 2])
            let sorted = source.filter { $0 > 0 }.map { $0 * 2 }.sorted(by: <)
            sum = sorted.sum()
            (weakSource, weakSorted) = (source, sorted)
            #expect(sorted.value == [2, 4, 6])
        }
        #expect(weakSource != nil)
        #expect(sum?.value == 12)
        sum = nil
        #expect(weakSorted == nil)
        #expect(weakSource == nil)
    }

    @Test("an insert out of range is a precondition failure naming the index")
    func insertOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayVariable([1]).insert(2, at: 5)
        }
        expectStandardError(of: result, contains: "ArrayVariable.insert: index 5 out of 0...1")
    }

    @Test("ending an array or set transaction that was never begun is a precondition failure")
    func unbalancedCollectionTransactions() async {
        let array = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayVariable([1]).apply(.endTransaction)
        }
        expectStandardError(of: array, contains: "ArrayVariable: endTransaction without a matching beginTransaction")
        let set = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SetVariable([1]).apply(.endTransaction)
        }
        expectStandardError(of: set, contains: "SetVariable: endTransaction without a matching beginTransaction")
    }

    @Test("a comparator that changes under a sorted array is a precondition failure")
    func unstableComparator() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Flip { var descending = false }
            let flip = Flip()
            let set = SetVariable([1, 2, 3, 4, 5])
            let sorted = set.sorted { flip.descending ? $0 > $1 : $0 < $1 }
            flip.descending = true
            set.remove(1)
            _ = sorted
        }
        expectStandardError(
            of: result, contains: "SortedObservableArray: an element to remove is not where the comparator puts it")
    }
}

@Suite("Observable collections, misuse")
struct CollectionMisuseTests {
    @Test("a change built for another count is a precondition failure naming both counts")
    func wrongCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayVariable([1]).apply(.change(ArrayChange(initialCount: 5, modifications: [.insert(2, at: 0)])))
        }
        expectStandardError(of: result, contains: "ArrayVariable: a change for 5 elements applied to 1")
    }

    @Test("a replaced range out of bounds is a precondition failure naming the range")
    func replaceOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayVariable([1, 2]).replaceSubrange(1..<4, with: [])
        }
        expectStandardError(of: result, contains: "ArrayVariable.replaceSubrange: range 1..<4 out of 0..<2")
    }
}
