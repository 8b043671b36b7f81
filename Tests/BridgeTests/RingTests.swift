import Glue
import Incremental
import ReactiveCore
import SignalGraph
import Signals
import TestSupport
import Testing

/// Bridges that form rings: two-way bindings and rings of three, within a paradigm and
/// across them. A change reaches every member once and stops where it began; transactions
/// stay balanced, so the bridges go on working.
@Suite("Rings of bridges")
struct RingTests {
    @Test("two Glue variables bound both ways: a write to either reaches the other once, and the bridges keep working")
    func glueTwoWay() {
        let a = Variable(0)
        let b = Variable(0)
        var seenA: [Int] = []
        var seenB: [Int] = []
        let ab = a.drive(b)
        let ba = b.drive(a)
        let watchA = a.changes.subscribe { seenA.append($0.new) }
        let watchB = b.changes.subscribe { seenB.append($0.new) }
        a.value = 1
        #expect((a.value, b.value) == (1, 1))
        b.value = 2
        #expect((a.value, b.value) == (2, 2))
        a.withTransaction {
            a.value = 3
            a.value = 4
        }
        #expect((a.value, b.value) == (4, 4))
        #expect(seenA == [1, 2, 4], "a transaction is one change of a Glue variable")
        #expect(seenB == [1, 2, 4], "b sees a's transaction as one change")
        ab.disconnect()
        a.value = 5
        #expect(b.value == 4, "one direction disconnected")
        b.value = 6
        #expect(a.value == 6, "the other still works")
        _ = (ba, watchA, watchB)
    }

    @Test("two Signals properties bound both ways: each write returns, and reaches the other once")
    func signalsTwoWay() {
        let a = Property(value: 0)
        let b = Property(value: 0)
        let ab = a.drive(b)
        let ba = b.drive(a)
        let writesToB = LockedBox(0)
        let watch = b.didSet.noDispatch().subscribe { _ in writesToB.mutate { $0 += 1 } }
        writesToB.mutate { $0 = 0 }
        a.value = 1
        #expect((a.value, b.value) == (1, 1))
        #expect(writesToB.read { $0 } == 1)
        b.value = 2
        #expect((a.value, b.value) == (2, 2))
        #expect(writesToB.read { $0 } == 2)
        _ = (ab, ba, watch)
    }

    @Test(
        "a ring of three across paradigms (Glue → Incremental → Signals → Glue): a write anywhere reaches every member once"
    )
    func threeParadigmRing() {
        let variable = Variable(0)
        let graph = Graph()
        let input = graph.input(0)
        let property = Property(value: 0)
        var inputValues: [Int] = []
        let bridges = [variable.drive(input), input.drive(property), property.driveOnWritingThread(variable)]
        let watch = input.observe { inputValues.append($0) }
        inputValues = []
        let writes: [() -> Void] = [{ variable.value = 1 }, { input.write(2) }, { property.value = 3 }]
        for (index, write) in writes.enumerated() {
            write()
            let expected = index + 1
            #expect(variable.value == expected && input.value == expected && property.value == expected)
        }
        #expect(inputValues == [1, 2, 3], "each value reached the input once")
        _ = (bridges, watch)
    }

    @Test("a Glue array and an Incremental array input bound both ways: every edit arrives once, no element doubles")
    func collectionTwoWay() {
        let rows = ArrayVariable([1, 2])
        let graph = Graph()
        let input = graph.arrayInput([Int]())
        let bridges = [rows.drive(input), input.elementDeltas().drive(rows)]
        #expect(input.value.elements == [1, 2] && rows.value == [1, 2])
        rows.append(3)
        #expect(input.value.elements == [1, 2, 3] && rows.value == [1, 2, 3])
        input.insert(0, at: 0)
        #expect(input.value.elements == [0, 1, 2, 3] && rows.value == [0, 1, 2, 3])
        graph.batch {
            input.remove(at: 1)
            input.append(9)
        }
        #expect(input.value.elements == [0, 2, 3, 9] && rows.value == [0, 2, 3, 9])
        _ = bridges
    }

    /// Random edits at random members of a ring of three collections (Glue, Incremental,
    /// SignalGraph), against one plain array.
    @Test(
        "a ring of three collections (Glue → Incremental → SignalGraph → Glue): random edits anywhere keep all three equal to a plain array",
        arguments: [1, 2, 3] as [UInt64])
    func collectionRingModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let rows = ArrayVariable<Int>([])
        let graph = Graph()
        let input = graph.arrayInput([Int]())
        let storage = EditableArrayStorage<Int>()
        let bridges = [rows.drive(input), input.elementDeltas().drive(storage), storage.deltas().drive(rows)]
        var model: [Int] = []
        for step in 0..<300 {
            let value = Int.random(in: 0..<100, using: &random)
            let index = Int.random(in: 0...model.count, using: &random)
            let removes = !model.isEmpty && Bool.random(using: &random)
            let removal = Int.random(in: 0..<max(model.count, 1), using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                if removes { rows.remove(at: removal) } else { rows.insert(value, at: index) }
            case 1:
                if removes { input.remove(at: removal) } else { input.insert(value, at: index) }
            case 2:
                storage.apply(ArrayTransition([removes ? .delete(at: removal) : .insert(value, at: index)]))
            default:
                graph.batch {
                    input.insert(value, at: index)
                    if removes { input.remove(at: removal) }
                }
                model.insert(value, at: index)
                if removes { model.remove(at: removal) }
                #expect(
                    rows.value == model && input.value.elements == model && storage.state == model,
                    "seed \(seed), step \(step)")
                continue
            }
            if removes { model.remove(at: removal) } else { model.insert(value, at: index) }
            #expect(rows.value == model, "seed \(seed), step \(step): Glue")
            #expect(input.value.elements == model, "seed \(seed), step \(step): Incremental")
            #expect(storage.state == model, "seed \(seed), step \(step): SignalGraph")
        }
        _ = bridges
    }

    @Test(
        "a handler that writes the source while the ring applies a change is not an echo: its write reaches the other side"
    )
    func handlerWriteIsNotAnEcho() {
        let a = Variable(0)
        let b = Variable(0)
        let bridges = [a.drive(b), b.drive(a)]
        // When b becomes 1, a handler on b's side asks a for 10.
        let handler = b.changes.subscribe { change in
            if change.new == 1 { a.value = 10 }
        }
        a.value = 1
        #expect((a.value, b.value) == (10, 10))
        _ = (bridges, handler)
    }

    @Test("a bridge of a ring disconnected by a handler while the ring applies: what is left keeps working")
    func disconnectInsideRing() {
        let a = Variable(0)
        let b = Variable(0)
        var ba: Connection?
        let ab = a.drive(b)
        ba = b.drive(a)
        let handler = b.changes.subscribe { change in
            if change.new == 1 { ba?.disconnect() }
        }
        a.value = 1
        #expect(b.value == 1)
        b.value = 2
        #expect(a.value == 1, "disconnected")
        a.value = 3
        #expect(b.value == 3, "the other direction still applies: its transactions are balanced")
        _ = (ab, handler)
    }

    @Test("a ring's bridges and members are freed when the bridges disconnect")
    func ringIsFreed() {
        weak var weakA: Variable<Int>?
        weak var weakB: Variable<Int>?
        do {
            let a = Variable(1)
            let b = Variable(2)
            weakA = a
            weakB = b
            let bridges = [a.drive(b), b.drive(a)]
            a.value = 3
            #expect(b.value == 3)
            for bridge in bridges { bridge.disconnect() }
        }
        #expect(weakA == nil && weakB == nil)
    }
}
