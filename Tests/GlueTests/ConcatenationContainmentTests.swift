import Glue
import TestSupport
import Testing

@Suite("Observable arrays: concatenation, distinct union, contains")
struct ConcatenationContainmentTests {
    @Test("an edit of the right part is reported at its index shifted by the left part's count")
    func shiftedChanges() {
        let left = ArrayVariable([1, 2])
        let right = ArrayVariable([3])
        let both = left + right
        var changes: [ArrayChange<Int>] = []
        let connection = both.changes.subscribe { changes.append($0) }
        right.append(4)
        left.insert(0, at: 0)
        right.remove(at: 0)
        #expect(both.value == [0, 1, 2, 4])
        #expect(both.count == 4 && both[3] == 4)
        #expect(
            changes == [
                ArrayChange(initialCount: 3, modifications: [.insert(4, at: 3)]),
                ArrayChange(initialCount: 4, modifications: [.insert(0, at: 0)]),
                ArrayChange(initialCount: 5, modifications: [.remove(3, at: 3)]),
            ])
        connection.disconnect()
    }

    @Test("a transaction over both parts, or of a variable on both sides, is one transaction of the concatenation")
    func joinedTransactions() {
        let left = ArrayVariable([1])
        let right = ArrayVariable([2])
        let both = left + right
        let twice = left + left
        let replica = Replica(of: both)
        let twiceReplica = Replica(of: twice)
        withTransaction([left, right]) {
            left.append(10)
            right.append(20)
        }
        #expect(replica.transactions == 1)
        #expect(replica.value == [1, 10, 2, 20])
        left.withTransaction {
            left.append(11)
            left.remove(at: 0)
        }
        #expect(twiceReplica.transactions == 2)
        #expect(twice.value == [10, 11, 10, 11])
        #expect(twiceReplica.value == twice.value)
    }

    @Test("an observer that edits a part while the concatenation delivers: the edit follows the delivery")
    func reentrantEdit() {
        let left = ArrayVariable([1])
        let right = ArrayVariable<Int>()
        let both = left + right
        var seen: [[Int]] = []
        let connection = both.changes.subscribe { _ in
            seen.append(both.value)
            if both.count == 2 { right.append(99) }
        }
        left.append(2)
        #expect(seen == [[1, 2], [1, 2, 99]])
        #expect(both.value == [1, 2, 99])
        connection.disconnect()
    }

    @Test("random edits of both parts: the concatenation equals the parts joined, and its changes rebuild it")
    func concatenationModel() {
        var random = SeededGenerator(seed: 43)
        let left = ArrayVariable<Int>()
        let right = ArrayVariable<Int>()
        let both = left + right
        let twice = right + right
        let replica = Replica(of: both)
        let twiceReplica = Replica(of: twice)
        for step in 0..<modelOperations {
            let part = Bool.random(using: &random) ? left : right
            let element = Int.random(in: 0..<20, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where part.count > 0: part.remove(at: Int.random(in: 0..<part.count, using: &random))
            case 1 where part.count > 0: part[Int.random(in: 0..<part.count, using: &random)] = element
            case 2:
                let lower = Int.random(in: 0...part.count, using: &random)
                let upper = Int.random(in: lower...min(part.count, lower + 3), using: &random)
                part.replaceSubrange(
                    lower..<upper, with: Array(repeating: element, count: Int.random(in: 0...3, using: &random)))
            case 3:
                withTransaction([left, right]) {
                    left.append(element)
                    if right.count > 0 { right.remove(at: 0) }
                }
            default: part.insert(element, at: Int.random(in: 0...part.count, using: &random))
            }
            guard both.value == left.value + right.value, twice.value == right.value + right.value,
                replica.value == both.value, twiceReplica.value == twice.value, both.count == both.value.count
            else {
                Issue.record("step \(step): \(both.value) against \(left.value) + \(right.value)")
                return
            }
        }
    }

    @Test(
        "random edits: the distinct union and contains, containsAll agree with plain sets, and report only real changes"
    )
    func containmentModel() {
        var random = SeededGenerator(seed: 39)
        let array = ArrayVariable<Int>()
        let union = array.distinctUnion()
        let unionReplica = Replica(of: union)
        let hasThree = array.contains(3)
        let hasOneAndTwo = array.containsAll([1, 2])
        let setHasFour = union.contains(4)
        var answers: [String: [Bool]] = [:]
        let connections = [
            hasThree.changes.subscribe { answers["three", default: []].append($0.new) },
            hasOneAndTwo.changes.subscribe { answers["oneAndTwo", default: []].append($0.new) },
        ]
        var expected: [String: [Bool]] = [:]
        var was = (three: false, oneAndTwo: false)
        for step in 0..<modelOperations {
            let element = Int.random(in: 0..<8, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where array.count > 0: array.remove(at: Int.random(in: 0..<array.count, using: &random))
            case 1 where array.count > 0: array[Int.random(in: 0..<array.count, using: &random)] = element
            case 2:
                let lower = Int.random(in: 0...array.count, using: &random)
                let upper = Int.random(in: lower...min(array.count, lower + 3), using: &random)
                array.replaceSubrange(lower..<upper, with: [element, (element + 1) % 8])
            default: array.insert(element, at: Int.random(in: 0...array.count, using: &random))
            }
            let plain = Set(array.value)
            let now = (three: plain.contains(3), oneAndTwo: plain.isSuperset(of: [1, 2]))
            if now.three != was.three { expected["three", default: []].append(now.three) }
            if now.oneAndTwo != was.oneAndTwo { expected["oneAndTwo", default: []].append(now.oneAndTwo) }
            was = now
            guard union.value == plain, unionReplica.value == plain, hasThree.value == now.three,
                hasOneAndTwo.value == now.oneAndTwo, setHasFour.value == plain.contains(4)
            else {
                Issue.record("step \(step): \(array.value)")
                return
            }
        }
        #expect(answers == expected)
        for connection in connections { connection.disconnect() }
    }

    @Test("a concatenation, a distinct union and a contains are freed with their arrays, which they hold")
    func freed() {
        weak var weakLeft: ArrayVariable<Int>?
        weak var weakBoth: ConcatenatedObservableArray<ArrayVariable<Int>, ArrayVariable<Int>>?
        weak var weakUnion:
            DistinctUnionObservableSet<ConcatenatedObservableArray<ArrayVariable<Int>, ArrayVariable<Int>>>?
        var contains: AnyObservableValue<Bool>? = nil
        do {
            let left = ArrayVariable([1])
            let right = ArrayVariable([2])
            let both = left + right
            let union = both.distinctUnion()
            contains = union.contains(3)
            (weakLeft, weakBoth, weakUnion) = (left, both, union)
            right.append(3)
            #expect(union.value == [1, 2, 3])
        }
        // The observable holds what it is made of.
        #expect(weakUnion != nil && weakBoth != nil && weakLeft != nil)
        #expect(contains?.value == true)
        contains = nil
        #expect(weakUnion == nil)
        #expect(weakBoth == nil)
        #expect(weakLeft == nil)
    }

    @Test("reading a concatenation out of its range is a precondition failure that names the index")
    func outOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (ArrayVariable([1]) + ArrayVariable([2]))[2]
        }
        expectStandardError(of: result, contains: "Glue: index 2 is out of range of a concatenated array of 2 elements")
    }
}
