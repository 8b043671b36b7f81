import TestSupport
import Testing

@testable import ReactiveCore

@Suite("PositionalTree")
struct PositionalTreeTests {
    @Test("random edits match an array model, with marked counts", arguments: [7, 8, 9] as [UInt64])
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var tree = PositionalTree<Int>()
        var model: [(Int, Bool)] = []
        for step in 0..<4_000 {
            let value = Int.random(in: 0..<1_000, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                let index = Int.random(in: 0...model.count, using: &random)
                let marked = Bool.random(using: &random)
                tree.insert(value, at: index, marked: marked)
                model.insert((value, marked), at: index)
            case 2 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                let removed = tree.remove(at: index)
                let expected = model.remove(at: index)
                #expect(removed.element == expected.0 && removed.marked == expected.1)
            case 3 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                tree[index] = value
                model[index].0 = value
                let marked = Bool.random(using: &random)
                tree.setMarked(marked, at: index)
                model[index].1 = marked
            default:
                let index = Int.random(in: 0...model.count, using: &random)
                let expected = model[..<index].filter(\.1).count
                guard tree.markedCount(before: index) == expected else {
                    Issue.record("marked count diverged at step \(step), seed \(seed)")
                    return
                }
            }
            guard tree.count == model.count, tree.markedTotal == model.filter(\.1).count else {
                Issue.record("counts diverged at step \(step), seed \(seed)")
                return
            }
        }
        #expect(tree.array == model.map(\.0))
        #expect((0..<model.count).allSatisfy { tree[$0] == model[$0].0 && tree.isMarked(at: $0) == model[$0].1 })
    }

    @Test("handles name their element through every other edit", arguments: [11, 12] as [UInt64])
    func handles(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var tree = PositionalTree<Int>()
        // The model: each element is a distinct number, kept with its handle and mark.
        var model: [(value: Int, handle: PositionalTree<Int>.Handle, marked: Bool)] = []
        for step in 0..<3_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1:
                let index = Int.random(in: 0...model.count, using: &random)
                let marked = Bool.random(using: &random)
                let handle = tree.insert(step, at: index, marked: marked)
                model.insert((step, handle, marked), at: index)
            case 2 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                #expect(tree.remove(at: index).element == model.remove(at: index).value)
            default:
                guard !model.isEmpty else { continue }
                let index = Int.random(in: 0..<model.count, using: &random)
                let marked = Bool.random(using: &random)
                tree.setMarked(marked, handle: model[index].handle)
                model[index].marked = marked
            }
            guard !model.isEmpty else { continue }
            let probe = Int.random(in: 0..<model.count, using: &random)
            let entry = model[probe]
            guard tree.index(of: entry.handle) == probe, tree[handle: entry.handle] == entry.value,
                tree.isMarked(handle: entry.handle) == entry.marked,
                tree.markedCount(before: probe) == model[..<probe].filter(\.marked).count
            else {
                Issue.record("handle of \(entry.value) diverged at step \(step), seed \(seed)")
                return
            }
        }
        #expect(model.indices.allSatisfy { tree.index(of: model[$0].handle) == $0 })
        #expect(tree.markedTotal == model.filter(\.marked).count)
    }

    @Test("a handle whose element was removed is a precondition failure")
    func staleHandle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var tree = PositionalTree([1, 2])
            let handle = tree.insert(3, at: 1)
            tree.remove(at: 1)
            _ = tree.index(of: handle)
        }
        expectStandardError(
            of: result, contains: "PositionalTree: a handle names no element of the tree (its element was removed)")
    }

    @Test("partitionIndex finds insertion points in a sorted tree")
    func partition() {
        let tree = PositionalTree([1, 3, 3, 5, 8])
        #expect(tree.partitionIndex { $0 < 3 } == 1)
        #expect(tree.partitionIndex { $0 <= 3 } == 3)
        #expect(tree.partitionIndex { $0 < 100 } == 5)
        #expect(tree.partitionIndex { $0 < 0 } == 0)
    }

    @Test("an index out of range is a precondition failure")
    func outOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PositionalTree([1, 2])[2]
        }
        expectStandardError(of: result, contains: "PositionalTree: index 2 out of 0..<2")
    }

    @Test("an insertion index out of range is a precondition failure")
    func insertionOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var tree = PositionalTree([1, 2])
            tree.insert(3, at: 3)
        }
        expectStandardError(of: result, contains: "PositionalTree: insertion index 3 out of 0...2")
    }
}
