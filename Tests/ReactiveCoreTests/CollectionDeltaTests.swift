import Foundation
import ReactiveCore
import TestSupport
import Testing

@Suite("Collection deltas")
struct CollectionDeltaTests {
    @Test("an array delta's edits apply in order, each at positions after the ones before")
    func arrayEdits() {
        var names = ["a", "b", "c"]
        let delta = ArrayDelta<String>([
            .insert("x", at: 1), .remove(at: 0), .update("y", at: 2), .move(from: 0, to: 2), .move(from: 2, to: 0),
        ])
        delta.apply(to: &names)
        #expect(names == ["x", "b", "y"])
        #expect(delta.count(after: 3) == 3)
        #expect(ArrayDelta<String>.reset(to: ["q"]).count(after: 10) == 1)
        #expect(!delta.isEmpty)
        #expect(ArrayDelta<String>().isEmpty)
    }

    @Test(
        "random array edits: applying a delta equals applying each edit to a plain array, and appended deltas equal one"
    )
    func arrayModel() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            var reference = Array(0..<Int.random(in: 0..<6, using: &random))
            var applied = reference
            var first = ArrayDelta<Int>()
            var second = ArrayDelta<Int>()
            for step in 0..<12 {
                let edit: ArrayDelta<Int>.Edit
                let value = Int.random(in: 100..<200, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !reference.isEmpty:
                    let index = Int.random(in: 0..<reference.count, using: &random)
                    edit = .remove(at: index)
                    reference.remove(at: index)
                case 1 where !reference.isEmpty:
                    let index = Int.random(in: 0..<reference.count, using: &random)
                    edit = .update(value, at: index)
                    reference[index] = value
                case 2 where !reference.isEmpty:
                    let from = Int.random(in: 0..<reference.count, using: &random)
                    let to = Int.random(in: 0..<reference.count, using: &random)
                    edit = .move(from: from, to: to)
                    let element = reference.remove(at: from)
                    reference.insert(element, at: to)
                case 3 where step == 6:
                    edit = .reset([value, value + 1])
                    reference = [value, value + 1]
                default:
                    let index = Int.random(in: 0...reference.count, using: &random)
                    edit = .insert(value, at: index)
                    reference.insert(value, at: index)
                }
                if step < 6 { first.append(edit) } else { second.append(edit) }
            }
            let count = applied.count
            var whole = first
            whole.append(contentsOf: second)
            whole.apply(to: &applied)
            #expect(applied == reference)
            #expect(whole.count(after: count) == reference.count)
        }
    }

    @Test("a mapped array delta applied to the mapped array gives the mapped result")
    func arrayMap() {
        let delta = ArrayDelta<Int>([.insert(4, at: 0), .update(5, at: 1), .move(from: 0, to: 1), .reset([1, 2])])
        var plain = [1, 2]
        var mapped = plain.map(String.init)
        delta.apply(to: &plain)
        delta.map(String.init).apply(to: &mapped)
        #expect(mapped == plain.map(String.init))
    }

    @Test("a dictionary delta stores inserts and updates, removes by key, resets, and ignores absent removals")
    func dictionaryEdits() {
        var scores = ["a": 1, "b": 2]
        DictionaryDelta([.update("a", 3), .insert("c", 4), .remove("b"), .remove("zz")]).apply(to: &scores)
        #expect(scores == ["a": 3, "c": 4])
        DictionaryDelta([.reset(["q": 1]), .insert("r", 2)]).apply(to: &scores)
        #expect(scores == ["q": 1, "r": 2])
        var doubled = ["q": 2]
        DictionaryDelta<String, Int>([.insert("r", 2)]).mapValues { $0 * 2 }.apply(to: &doubled)
        #expect(doubled == ["q": 2, "r": 4])
    }

    @Test("random set edits: a set delta's net effect, applied, equals applying its edits")
    func setNetModel() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let start = Set(
                (0..<Int.random(in: 0..<5, using: &random)).map { _ in Int.random(in: 0..<8, using: &random) })
            var delta = SetDelta<Int>()
            for _ in 0..<Int.random(in: 0..<10, using: &random) {
                let element = Int.random(in: 0..<8, using: &random)
                switch Int.random(in: 0..<7, using: &random) {
                case 0: delta.append(.reset([element, element + 1]))
                case 1, 2, 3: delta.append(.remove(element))
                default: delta.append(.insert(element))
                }
            }
            var applied = start
            delta.apply(to: &applied)
            let (removed, inserted) = delta.net(against: start)
            #expect(removed.isSubset(of: start) && inserted.isDisjoint(with: start))
            #expect(start.subtracting(removed).union(inserted) == applied)
        }
    }

    @Test("deltas round-trip through JSON")
    func codable() throws {
        let array = ArrayDelta<Int>([
            .insert(1, at: 0), .remove(at: 0), .update(2, at: 0), .move(from: 1, to: 0), .reset([3]),
        ])
        let dictionary = DictionaryDelta<String, Int>([
            .insert("a", 1), .update("a", 2), .remove("a"), .reset(["b": 3]),
        ])
        let set = SetDelta<Int>([.insert(1), .remove(2), .reset([3])])
        let coder = (JSONEncoder(), JSONDecoder())
        #expect(try coder.1.decode(ArrayDelta<Int>.self, from: coder.0.encode(array)) == array)
        #expect(try coder.1.decode(DictionaryDelta<String, Int>.self, from: coder.0.encode(dictionary)) == dictionary)
        #expect(try coder.1.decode(SetDelta<Int>.self, from: coder.0.encode(set)) == set)
    }

    @Test("an array delta's edit out of range stops with a message naming the edit")
    func arrayOutOfRange() async {
        let insert = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var array = [1]
            ArrayDelta([.insert(0, at: 3)]).apply(to: &array)
        }
        expectStandardError(of: insert, contains: "ArrayDelta: insert at 3 into an array of 1 elements")
        let move = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var array = [1]
            ArrayDelta<Int>([.move(from: 0, to: 1)]).apply(to: &array)
        }
        expectStandardError(of: move, contains: "ArrayDelta: move at 1 in an array of 1 elements")
    }
}
