import Glue
import TestSupport
import Testing

@Suite("Observable dictionaries")
struct DictionaryTests {
    @Test("edits report what left, joined or changed value, with the old values")
    func changes() {
        let scores = DictionaryVariable<String, Int>()
        var changes: [DictionaryChange<String, Int>] = []
        let connection = scores.changes.subscribe { changes.append($0) }
        scores["ada"] = 3
        scores["ada"] = 5
        scores.removeValue(forKey: "nobody")
        scores["ada"] = nil
        scores.withTransaction {
            scores["a"] = 1
            scores["b"] = 2
            scores["a"] = nil
        }
        #expect(
            changes == [
                DictionaryChange(inserted: ["ada": 3]),
                DictionaryChange(removed: ["ada": 3], inserted: ["ada": 5]),
                DictionaryChange(removed: ["ada": 5]),
                DictionaryChange(inserted: ["b": 2]),
            ])
        connection.disconnect()
    }

    @Test(
        "random edits and transactions: filter, mapValues, keys and sortedKeys equal their from-scratch values, and their changes rebuild them"
    )
    func model() {
        var random = SeededGenerator(seed: 43)
        let scores = DictionaryVariable<Int, Int>()
        let passing = scores.filter { key, value in (key + value).isMultiple(of: 2) }
        let labels = passing.mapValues { "#\($0)" }
        let keys = scores.keys
        let sorted = scores.sortedKeys(by: >)
        let replicas = (Replica(of: scores), Replica(of: passing), Replica(of: labels), Replica(of: keys))
        for step in 0..<modelOperations {
            let key = Int.random(in: 0..<30, using: &random)
            let value = Int.random(in: 0..<10, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: scores[key] = value
            case 5..<8: scores[key] = nil
            case 8:
                scores.withTransaction {
                    scores[key] = value
                    scores[(key + 1) % 30] = nil
                    scores[key] = value + 1
                }
            default:
                scores.value = Dictionary(
                    uniqueKeysWithValues: (0..<Int.random(in: 0...5, using: &random)).map { ($0 * 3, value) })
            }
            let plain = scores.value
            let expectedPassing = plain.filter { ($0.key + $0.value).isMultiple(of: 2) }
            guard passing.value == expectedPassing, labels.value == expectedPassing.mapValues({ "#\($0)" }),
                keys.value == Set(plain.keys), sorted.value == plain.keys.sorted(by: >),
                replicas.0.value == plain, replicas.1.value == passing.value, replicas.2.value == labels.value,
                replicas.3.value == keys.value
            else {
                Issue.record("step \(step): \(plain)")
                return
            }
        }
    }

    @Test("an observer that edits the dictionary while it delivers: the edit follows the delivery")
    func reentrantEdit() {
        let scores = DictionaryVariable(["a": 1])
        let doubled = scores.mapValues { $0 * 2 }
        var seen: [[String: Int]] = []
        let connection = doubled.changes.subscribe { _ in
            seen.append(doubled.value)
            if doubled.value["b"] == nil { scores["b"] = 5 }
        }
        scores["a"] = 2
        #expect(seen == [["a": 4], ["a": 4, "b": 10]])
        connection.disconnect()
    }

    @Test("a replaced value is no change of the keys; setting the same keys reports only replacements")
    func keysIgnoreValues() {
        let scores = DictionaryVariable(["a": 1, "b": 2])
        let keys = scores.keys
        var keyChanges = 0
        let connection = keys.changes.subscribe { _ in keyChanges += 1 }
        scores["a"] = 10
        scores.value = ["a": 3, "b": 4]
        #expect(keyChanges == 0)
        scores.value = ["a": 3]
        #expect(keyChanges == 1)
        #expect(keys.value == ["a"])
        connection.disconnect()
    }

    @Test("the derived dictionaries are freed with the variable they hold")
    func freed() {
        weak var weakScores: DictionaryVariable<String, Int>?
        var sorted: SortedObservableArray<String>? = nil
        do {
            let scores = DictionaryVariable(["b": 1, "a": 2])
            weakScores = scores
            sorted = scores.filter { _, _ in true }.mapValues { $0 }.sortedKeys(by: <)
        }
        #expect(sorted?.value == ["a", "b"])
        #expect(weakScores != nil)
        sorted = nil
        #expect(weakScores == nil)
    }

    @Test("ending a dictionary transaction that was never begun is a precondition failure")
    func unbalancedTransaction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DictionaryVariable<Int, Int>().apply(.endTransaction)
        }
        expectStandardError(
            of: result, contains: "DictionaryVariable: endTransaction without a matching beginTransaction")
    }
}
