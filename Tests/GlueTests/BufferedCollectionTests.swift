import Glue
import TestSupport
import Testing

@Suite("Buffered observable arrays and sets")
struct BufferedCollectionTests {
    @Test(
        "random edits and transactions: a buffered view equals its base, reports its changes, and keeps its transactions"
    )
    func model() {
        var random = SeededGenerator(seed: 43)
        let source = ArrayVariable<Int>()
        let sorted = source.filter { $0.isMultiple(of: 3) == false }.sorted(by: <)
        let buffered = sorted.buffered()
        let tags = SetVariable<Int>()
        let bufferedTags = tags.buffered()
        let replica = Replica(of: buffered)
        let sortedReplica = Replica(of: sorted)
        let tagReplica = Replica(of: bufferedTags)
        for step in 0..<modelOperations {
            let value = Int.random(in: 0..<40, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where source.count > 0: source.remove(at: Int.random(in: 0..<source.count, using: &random))
            case 1 where source.count > 0: source[Int.random(in: 0..<source.count, using: &random)] = value
            case 2:
                source.withTransaction {
                    source.append(value)
                    source.append(value + 1)
                }
            case 3: tags.insert(value % 10)
            case 4: tags.remove(value % 10)
            default: source.insert(value, at: Int.random(in: 0...source.count, using: &random))
            }
            guard buffered.value == sorted.value, replica.value == buffered.value,
                replica.transactions == sortedReplica.transactions, bufferedTags.value == tags.value,
                tagReplica.value == tags.value
            else {
                Issue.record("step \(step): \(buffered.value) against \(sorted.value)")
                return
            }
        }
    }

    @Test("an observer of a buffered array that edits the base while it delivers: the edit follows the delivery")
    func reentrantEdit() {
        let source = ArrayVariable([1])
        let buffered = source.buffered()
        var seen: [[Int]] = []
        let connection = buffered.changes.subscribe { _ in
            seen.append(buffered.value)
            if buffered.count == 2 { source.append(3) }
        }
        source.append(2)
        #expect(seen == [[1, 2], [1, 2, 3]])
        connection.disconnect()
    }

    @Test("a buffered view holds its base and is freed with it")
    func freed() {
        weak var weakSource: ArrayVariable<Int>?
        weak var weakBuffered: BufferedObservableArray<ArrayVariable<Int>>?
        do {
            let source = ArrayVariable([2, 1])
            let buffered = source.buffered()
            (weakSource, weakBuffered) = (source, buffered)
            #expect(buffered.value == [2, 1])
        }
        #expect(weakBuffered == nil)
        #expect(weakSource == nil)
    }
}
