import Incremental
import Observation
import TestSupport
import Testing

@Suite("Incremental: observed arrays for Observation and SwiftUI")
struct ObservedArrayTests {
    @Test(
        "random edits, batches and resets: the observed array matches a plain array, and a view re-evaluates once per change",
        arguments: [1, 2, 3, 4] as [UInt64])
    func modelBased(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let graph = Graph()
        let input = graph.arrayInput([Int]())
        let evens = input.filterElements { $0 % 2 == 0 }
        let observed = evens.observedElements()
        var reference: [Int] = []
        var shown: [Int] = []
        let view = ViewEvaluation { shown = Array(observed) }
        for step in 0..<400 {
            let before = reference.filter { $0 % 2 == 0 }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let index = Int.random(in: 0...reference.count, using: &random)
                let value = Int.random(in: 0..<50, using: &random)
                input.insert(value, at: index)
                reference.insert(value, at: index)
            case 4..<6 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                input.remove(at: index)
                reference.remove(at: index)
            case 6..<8 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                let value = Int.random(in: 0..<50, using: &random)
                input[index] = value
                reference[index] = value
            case 8:
                // A batch that may revert what it did.
                graph.batch {
                    input.append(2)
                    if Bool.random(using: &random) { input.remove(at: input.count - 1) }
                }
                if input.count > reference.count { reference.append(2) }
            default:
                let elements = (0..<Int.random(in: 0..<8, using: &random)).map { _ in
                    Int.random(in: 0..<50, using: &random)
                }
                input.replaceAll(with: elements)
                reference = elements
            }
            let expected = reference.filter { $0 % 2 == 0 }
            #expect(Array(observed) == expected, "seed \(seed), step \(step)")
            let rendered = view.renderIfNeeded()
            if expected != before {
                #expect(rendered, "seed \(seed), step \(step): a change the view did not see")
            }
            #expect(shown == expected)
        }
    }

    @Test("a change that edits nothing the observed array holds tells no one")
    func noOpChange() {
        let graph = Graph()
        let input = graph.arrayInput([1, 2, 3])
        let evens = input.filterElements { $0 % 2 == 0 }
        let observed = evens.observedElements()
        let view = ViewEvaluation { _ = observed.count }
        let changes = observed.changeCount
        input.append(5)  // odd: the filtered array has no edit
        graph.batch {}
        #expect(!view.renderIfNeeded())
        #expect(observed.changeCount == changes)
        input.append(4)
        #expect(view.renderIfNeeded())
        #expect(Array(observed) == [2, 4])
    }

    @Test("an observer that writes to the input while told of a change: the write applies after, and is seen")
    func reentrantWrite() {
        let graph = Graph()
        let input = graph.arrayInput([1])
        let observed = input.observedElements()
        // Observation calls onChange on the thread that changes the value: this test's.
        nonisolated(unsafe) let (unsafeInput, unsafeObserved) = (input, observed)
        nonisolated(unsafe) var counts: [Int] = []
        withObservationTracking {
            _ = observed.count
        } onChange: {
            // Told before the change applies (willSet): the old count, and a write that waits.
            counts.append(unsafeObserved.count)
            unsafeInput.append(3)
        }
        input.append(2)
        #expect(counts == [1])
        #expect(Array(observed) == [1, 2, 3])
        #expect(observed.changeCount == 3)
    }

    @Test("the observed array keeps its node necessary while it lives and lets it go when released")
    func lifetime() {
        let graph = Graph()
        let input = graph.arrayInput([1, 2])
        let doubled = input.mapElements { $0 * 2 }
        weak var weakObserved: ObservedArray<Int>?
        do {
            let observed = doubled.observedElements()
            weakObserved = observed
            #expect(doubled.isNecessary)
            input.append(3)
            #expect(Array(observed) == [2, 4, 6])
        }
        #expect(weakObserved == nil)
        #expect(!doubled.isNecessary)
        let kept = doubled.observedElements()
        kept.disconnect()
        input.append(4)
        #expect(Array(kept) == [2, 4, 6])
        #expect(!doubled.isNecessary)
    }

    @Test("an edit costs the observed array O(log n): its storage is its own, so no edit copies the array")
    func noWholeCopies() {
        let graph = Graph()
        let input = graph.arrayInput(Array(0..<10_000))
        let observed = input.observedElements()
        for index in 0..<1_000 { input[index] = -index }
        #expect(observed[999] == -999)
        #expect(observed.count == 10_000)
        #expect(observed.changeCount == 1_001)
    }
}
