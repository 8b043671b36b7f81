import Glue
import Incremental
import ReactiveCore
import SignalGraph
import TestSupport
import Testing

/// The signals a storage sends after the ones it sent on registration.
final class SignalLog<Snapshot, Transition> {
    var signals: [StateSignal<Snapshot, Transition>] = []
    var connection: Connection?

    init<Storage: Emitter>(_ storage: Storage) where Storage.OutgoingSignal == StateSignal<Snapshot, Transition> {
        connection = storage.subscribe { [weak self] in self?.signals.append($0) }
        signals = []
    }

    var transitions: [Transition] {
        signals.compactMap { if case .transition(let transition) = $0 { transition } else { nil } }
    }

    var initiations: Int {
        signals.count { if case .initiation = $0 { true } else { false } }
    }
}

@Suite("Collection bridges")
struct CollectionBridgeTests {
    @Test("a Glue transaction of several edits reaches a SignalGraph array storage as one transition of the same edits")
    func glueToSignalGraph() {
        let rows = ArrayVariable(["a", "b"])
        let mirror = EditableArrayStorage<String>()
        let bridge = rows.drive(mirror)
        #expect(mirror.state == ["a", "b"])
        let log = SignalLog(mirror)
        rows.withTransaction {
            rows.append("c")
            rows.remove(at: 0)
            rows[0] = "B"
        }
        #expect(mirror.state == ["B", "c"])
        #expect(log.signals.count == 1)
        #expect(log.transitions.first?.mutations == [.insert("c", at: 2), .delete(at: 0), .update("B", at: 0)])
        rows.replaceSubrange(0..<2, with: ["x"])
        #expect(mirror.state == ["x"])
        #expect(log.transitions.last?.mutations == [.update("x", at: 0), .delete(at: 1)])
        bridge.disconnect()
        rows.append("after")
        #expect(mirror.state == ["x"], "a disconnected bridge applies nothing")
    }

    @Test(
        "a SignalGraph dictionary transition reaches an Incremental dictionary as one propagation, derived glitch-free")
    func signalGraphToIncremental() {
        let rows = EditableDictionaryStorage<Int, String>([1: "a"])
        let graph = Graph()
        let input = graph.dictionaryInput([Int: String]())
        let bridge = rows.deltas().drive(input)
        let long = input.filterEntries { $1.count > 1 }
        var seen: [[Int: String]] = []
        let watch = long.observe { seen.append($0.entries) }
        rows.apply(DictionaryTransition([.insert(2, "bb"), .update(1, "aa"), .insert(3, "c")]))
        #expect(input.value.entries == [1: "aa", 2: "bb", 3: "c"])
        #expect(seen == [[:], [1: "aa", 2: "bb"]], "one propagation for the transition")
        #expect(input.value.edits.count == 3, "the edits arrive as edits, not as a reset")
        rows[2] = nil
        #expect(seen.last == [1: "aa"])
        watch.disconnect()
        bridge.disconnect()
    }

    @Test(
        "one Glue transaction over two variables is one Incremental batch: a value derived from both never mixes old and new"
    )
    func glueTransactionIsOneBatch() {
        let first = Variable("Ada")
        let last = Variable("Lovelace")
        let graph = Graph()
        let firstInput = graph.input("")
        let lastInput = graph.input("")
        let bridges = [first.drive(firstInput), last.drive(lastInput)]
        let full = map2(firstInput, lastInput) { "\($0) \($1)" }
        var seen: [String] = []
        let watch = full.observe { seen.append($0) }
        withTransaction([first, last]) {
            first.value = "Grace"
            last.value = "Hopper"
        }
        #expect(seen == ["Ada Lovelace", "Grace Hopper"])
        let propagations = graph.statistics.propagations
        first.value = "Anita"
        #expect(seen.last == "Anita Hopper")
        #expect(graph.statistics.propagations == propagations + 1)
        watch.disconnect()
        for bridge in bridges { bridge.disconnect() }
    }

    @Test("an Incremental batch of edits reaches a Glue array as one transaction of the derived array's edits")
    func incrementalToGlue() {
        let graph = Graph()
        let numbers = graph.arrayInput([1, 2, 3, 4])
        let even = numbers.filterElements { $0.isMultiple(of: 2) }
        let mirror = ArrayVariable<Int>()
        let bridge = even.elementDeltas().drive(mirror)
        #expect(mirror.value == [2, 4])
        var changes: [ArrayChange<Int>] = []
        let watch = mirror.changes.subscribe { changes.append($0) }
        graph.batch {
            numbers.append(6)
            numbers.remove(at: 1)
            numbers.insert(8, at: 0)
        }
        #expect(mirror.value == [8, 4, 6])
        #expect(changes.count == 1, "one Glue transaction for the batch")
        #expect(changes.first?.modifications.count == 3, "the derived array's three edits, not a replacement")
        watch.disconnect()
        bridge.disconnect()
    }

    @Test("a SignalGraph set storage drives a Glue set, and a Glue set a SignalGraph set, one change per transition")
    func sets() {
        let tags = EditableSetStorage<String>(["a"])
        let glue = SetVariable<String>()
        let back = EditableSetStorage<String>()
        let bridges = [tags.deltas().drive(glue), glue.drive(back)]
        let log = SignalLog(back)
        tags.apply(SetTransition(deleted: ["a"], inserted: ["b", "c"]))
        #expect(glue.value == ["b", "c"])
        #expect(back.state == ["b", "c"])
        #expect(log.transitions == [SetTransition(deleted: ["a"], inserted: ["b", "c"])])
        for bridge in bridges { bridge.disconnect() }
    }

    @Test("moves and resets: an Incremental array input and a SignalGraph storage follow an array delta source exactly")
    func movesAndResets() {
        let source = ScriptedArraySource(["a", "b", "c"])
        let graph = Graph()
        let input = graph.arrayInput([String]())
        let storage = ArrayStorage<String>()
        let glue = ArrayVariable<String>()
        let bridges = [source.drive(input), source.drive(storage), source.drive(glue)]
        let log = SignalLog(storage)
        source.send([.move(from: 0, to: 2), .insert("d", at: 1), .move(from: 3, to: 0)])
        let expected = ["a", "b", "d", "c"]
        #expect(source.state == expected)
        #expect(input.value.elements == expected && storage.state == expected && glue.value == expected)
        #expect(log.transitions.count == 1)
        source.send([.remove(at: 0), .reset(["x", "y"]), .move(from: 1, to: 0)])
        #expect(input.value.elements == ["y", "x"] && storage.state == ["y", "x"] && glue.value == ["y", "x"])
        #expect(
            log.initiations == 1, "a transaction holding a reset reaches a storage as a termination and an initiation")
        for bridge in bridges { bridge.disconnect() }
    }

    @Test(
        "random Glue edits and transactions through SignalGraph, Incremental and back to Glue: every hop equals the source, by edits alone"
    )
    func model() {
        var random = SeededGenerator(seed: 42)
        let source = ArrayVariable<Int>()
        let storage = EditableArrayStorage<Int>()
        let graph = Graph()
        let input = graph.arrayInput([Int]())
        let doubled = input.mapElements { $0 * 2 }
        let back = ArrayVariable<Int>()
        let bridges = [source.drive(storage), storage.deltas().drive(input), doubled.elementDeltas().drive(back)]
        let log = SignalLog(storage)
        var (sourceChanges, backChanges) = (0, 0)
        let counting = [
            source.changes.subscribe { if !$0.delta.isEmpty { sourceChanges += 1 } },
            back.changes.subscribe { _ in backChanges += 1 },
        ]
        var reference: [Int] = []
        for step in 0..<400 {
            let value = Int.random(in: 0..<100, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                source.remove(at: index)
                reference.remove(at: index)
            case 1 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                source[index] = value
                reference[index] = value
            case 2:
                source.withTransaction {
                    source.append(value)
                    source.insert(value + 1, at: 0)
                }
                reference.append(value)
                reference.insert(value + 1, at: 0)
            case 3 where reference.count > 1:
                let range = 1..<Int.random(in: 1...reference.count, using: &random)
                let new = (0..<Int.random(in: 0..<3, using: &random)).map { value + $0 }
                source.replaceSubrange(range, with: new)
                reference.replaceSubrange(range, with: new)
            case 4:
                source.withTransaction {}
            default:
                let index = Int.random(in: 0...reference.count, using: &random)
                source.insert(value, at: index)
                reference.insert(value, at: index)
            }
            guard storage.state == reference, input.value.elements == reference, back.value == reference.map({ $0 * 2 })
            else {
                Issue.record(
                    "step \(step): \(storage.state), \(input.value.elements), \(back.value) against \(reference)")
                return
            }
        }
        #expect(log.initiations == 0, "no hop fell back to a reset")
        #expect(log.transitions.count == sourceChanges, "one transition per Glue transaction that edits")
        #expect(backChanges == sourceChanges, "one Glue transaction per Incremental propagation, back")
        for connection in counting { connection.disconnect() }
        for bridge in bridges { bridge.disconnect() }
    }
}

/// An array source driven by the test, applying what it sends to its own state.
final class ScriptedArraySource: DeltaSource {
    private(set) var state: [String]
    private var sinks: [Int: (DeltaEvent<ArrayDelta<String>>) -> Void] = [:]
    private var next = 0

    init(_ state: [String]) {
        self.state = state
    }

    func subscribeDeltas(_ sink: @escaping (DeltaEvent<ArrayDelta<String>>) -> Void) -> Connection {
        let token = next
        next += 1
        sinks[token] = sink
        sink(.begin)
        sink(.delta(.reset(to: state)))
        sink(.end)
        return Connection(isolated: { [weak self] in self?.sinks[token] = nil })
    }

    func send(_ edits: [ArrayDelta<String>.Edit]) {
        let delta = ArrayDelta(edits)
        delta.apply(to: &state)
        for sink in sinks.values {
            sink(.begin)
            sink(.delta(delta))
            sink(.end)
        }
    }
}
