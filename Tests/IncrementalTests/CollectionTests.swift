import Foundation
import Incremental
import TestSupport
import Testing

/// Operations per model-based run; INCREMENTAL_MODEL_OPERATIONS raises it.
let modelOperations = Int(ProcessInfo.processInfo.environment["INCREMENTAL_MODEL_OPERATIONS"] ?? "") ?? 3_000

@Suite("Incremental collections")
struct CollectionTests {
    @Test(
        "array map, filter, sorted and sum match recomputation through random edits", arguments: [1, 2, 3] as [UInt64])
    func arrayModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let graph = Graph()
        let source = graph.arrayInput((0..<20).map { _ in Int.random(in: 0..<50, using: &random) })
        let evens = source.filterElements { $0.isMultiple(of: 2) }
        let labels = evens.mapElements { "#\($0)" }
        let sorted = source.sortedElements(by: <)
        let total = source.sum()
        var labelEdits = 0
        let connections = [
            labels.observe { labelEdits += $0.edits.count }, sorted.observe { _ in }, total.observe { _ in },
        ]
        var model = (0..<source.count).map { source[$0] }
        for step in 0..<modelOperations {
            let value = Int.random(in: 0..<50, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                let index = Int.random(in: 0...model.count, using: &random)
                source.insert(value, at: index)
                model.insert(value, at: index)
            case 2 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                source.remove(at: index)
                model.remove(at: index)
            case 3 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                source[index] = value
                model[index] = value
            default:
                graph.batch {
                    source.append(value)
                    if !model.isEmpty { source.remove(at: 0) }
                }
                model.append(value)
                model.remove(at: 0)
            }
            guard labels.value.elements == model.filter({ $0.isMultiple(of: 2) }).map({ "#\($0)" }),
                sorted.value.elements == model.sorted(), total.value == model.reduce(0, +)
            else {
                Issue.record("array model diverged at step \(step); reproduce with seed \(seed)")
                return
            }
        }
        #expect(labelEdits > 0)
        _ = connections
    }

    @Test(
        "dictionary filter, map, sorted and fold match recomputation through random edits",
        arguments: [4, 5] as [UInt64])
    func dictionaryModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let graph = Graph()
        let rows = graph.dictionaryInput([Int: Int]())
        let open = rows.filterEntries { _, score in score % 3 != 0 }
        let scaled = open.mapEntryValues { $0 * 10 }
        let ranked = scaled.sortedEntries { ($0.value, $0.key) < ($1.value, $1.key) }
        let total = rows.foldEntries(0, add: { $0 + $2 }, remove: { $0 - $2 })
        let connections = [ranked.observe { _ in }, total.observe { _ in }]
        var model: [Int: Int] = [:]
        for step in 0..<modelOperations {
            let key = Int.random(in: 0..<60, using: &random)
            let value = Int.random(in: 0..<40, using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 {
                rows.removeValue(forKey: key)
                model[key] = nil
            } else {
                rows[key] = value
                model[key] = value
            }
            let expected = model.filter { $0.value % 3 != 0 }.mapValues { $0 * 10 }
                .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            guard ranked.value.elements.map(\.key) == expected.map(\.key),
                ranked.value.elements.map(\.value) == expected.map(\.value),
                total.value == model.values.reduce(0, +), rows.count == model.count
            else {
                Issue.record("dictionary model diverged at step \(step); reproduce with seed \(seed)")
                return
            }
        }
        _ = connections
    }

    @Test("one edit makes one edit downstream, not a rebuild")
    func editsAreIncremental() {
        let graph = Graph()
        let source = graph.arrayInput(Array(0..<1_000))
        let sorted = source.mapElements { -$0 }.sortedElements(by: <)
        var lastEdits: [ArrayEdit<Int>] = []
        var resets = 0
        let connection = sorted.observe {
            lastEdits = $0.edits
            if $0.isReset { resets += 1 }
        }
        source[500] = 2_000
        #expect(lastEdits == [.remove(-500, at: 499), .insert(-2_000, at: 0)])
        #expect(resets == 1)
        #expect(sorted.value[0] == -2_000 && sorted.value.count == 1_000)
        _ = connection
    }

    @Test("a derived collection that missed changes while unobserved rebuilds correctly")
    func rebuildAfterGap() {
        let graph = Graph()
        let source = graph.arrayInput([3, 1, 2])
        let sorted = source.sortedElements(by: <)
        var connection = sorted.observe { _ in }
        connection.disconnect()
        source.append(0)
        source.remove(at: 0)
        connection = sorted.observe { _ in }
        #expect(sorted.value.elements == [0, 1, 2])
        source.replaceAll(with: [9, 8])
        #expect(sorted.value.elements == [8, 9])
        _ = connection
    }

    @Test("a change a filter drops costs the nodes below nothing, and the next change is still applied as an edit")
    func droppedChangeDoesNotRebuild() {
        final class Calls { var count = 0 }
        let calls = Calls()
        let graph = Graph()
        let rows = graph.dictionaryInput(Dictionary(uniqueKeysWithValues: (0..<90).map { ($0, $0) }))
        let labels = rows.filterEntries { _, value in value % 3 != 0 }.sortedEntries { $0.value < $1.value }
            .mapElements { entry -> String in
                calls.count += 1
                return "\(entry.key)"
            }
        let connection = labels.observe { _ in }
        calls.count = 0
        rows[3] = 6  // filtered out before and after: the filter has no edits
        rows[4] = 400  // passes the filter: one edit all the way down
        #expect(calls.count == 1)
        #expect(labels.value.elements == (0..<90).filter { $0 % 3 != 0 && $0 != 4 }.map(String.init) + ["4"])
        _ = connection
    }

    @Test("writes from an observer reach derived collections in the next propagation")
    func observerWritesCollections() {
        let graph = Graph()
        let trigger = graph.input(0)
        let items = graph.arrayInput([Int]())
        let total = items.sum()
        var totals: [Int] = []
        let connections = [
            trigger.observe { if $0 > 0 { items.append($0) } },
            total.observe { totals.append($0) },
        ]
        trigger.write(5)
        trigger.write(7)
        #expect(totals == [0, 5, 12])
        _ = connections
    }

    @Test("an insert out of range is a precondition failure")
    func insertOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Graph().arrayInput([1]).insert(0, at: 3)
        }
        expectStandardError(of: result, contains: "ArrayInput.insert: index 3 out of 0...1")
    }

    @Test("a removal out of range is a precondition failure")
    func removeOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Graph().arrayInput([1]).remove(at: 1)
        }
        expectStandardError(of: result, contains: "ArrayInput.remove: index 1 out of 0..<1")
    }

    @Test("a replacement out of range is a precondition failure")
    func replaceOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let input = Graph().arrayInput([1])
            input[3] = 2
        }
        expectStandardError(of: result, contains: "ArrayInput[index]: index 3 out of 0..<1")
    }
}

@Suite("Incremental collections, misuse")
struct CollectionMisuseTests {
    @Test("a sort order that changes under a sorted collection is a precondition failure")
    func unstableOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Flip { var descending = false }
            let flip = Flip()
            let graph = Graph()
            let source = graph.arrayInput([1, 2, 3, 4, 5])
            let sorted = source.sortedElements { flip.descending ? $0 > $1 : $0 < $1 }
            let connection = sorted.observe { _ in }
            flip.descending = true
            source.remove(at: 0)
            _ = connection
        }
        expectStandardError(
            of: result, contains: "Incremental: an element to remove is not where the sort order puts it")
    }
}
