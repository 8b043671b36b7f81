import Foundation
import SignalGraph
import TestSupport
import Testing

struct Row: Equatable {
    var name: String
    var score: Int
    var done: Bool
}

/// Operations per model-based run; SIGNALGRAPH_MODEL_OPERATIONS raises it.
let modelOperations = Int(ProcessInfo.processInfo.environment["SIGNALGRAPH_MODEL_OPERATIONS"] ?? "") ?? 3_000

/// The seed's front-end pipeline, with a replica rebuilt from the final signals.
final class Pipeline {
    let rows = EditableDictionaryStorage<Int, Row>()
    let visible = DictionaryFilteringDictionaryStorage<Int, Row> { _, row in !row.done }
    let sorted = DictionarySortingArrayStorage<Int, Row> { ($0.value.score, $0.key) < ($1.value.score, $1.key) }
    let labels = ArraySignalMapStorage<(key: Int, value: Row), String> { "\($0.key):\($0.value.name)" }
    let replica = ReplicatingArrayStorage<String>()

    init() {
        rows.register(visible)
        visible.register(sorted)
        sorted.register(labels)
        labels.register(replica)
    }

    func tearDown() {
        labels.deregister(replica)
        sorted.deregister(labels)
        visible.deregister(sorted)
        rows.deregister(visible)
    }

    /// The view computed from scratch.
    func expected() -> [String] {
        rows.state.filter { !$0.value.done }.sorted { ($0.value.score, $0.key) < ($1.value.score, $1.key) }
            .map { "\($0.key):\($0.value.name)" }
    }
}

@Suite("SignalGraph")
struct SignalGraphTests {
    @Test(
        "the seed's pipeline stays in sync through inserts, updates, deletes and resets",
        arguments: [1, 2, 3] as [UInt64])
    func pipelineModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pipeline = Pipeline()
        for step in 0..<modelOperations {
            let key = Int.random(in: 0..<80, using: &random)
            let row = Row(
                name: "n\(Int.random(in: 0..<9, using: &random))", score: Int.random(in: 0..<30, using: &random),
                done: Bool.random(using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6: pipeline.rows[key] = row
            case 6..<9: pipeline.rows.removeValue(forKey: key)
            default:
                if Int.random(in: 0..<10, using: &random) == 0 {
                    pipeline.rows.state = Dictionary(uniqueKeysWithValues: (0..<10).map { ($0, row) })
                }
            }
            let expected = pipeline.expected()
            guard pipeline.labels.state == expected, pipeline.replica.state == expected else {
                Issue.record("pipeline diverged at step \(step); reproduce with seed \(seed)")
                break
            }
        }
        pipeline.tearDown()
    }

    @Test("an update that crosses the filter or moves in the sort order is sent as such")
    func crossingUpdates() {
        let pipeline = Pipeline()
        var transitions: [[ArrayMutation<String>]] = []
        let handler = StateHandler<[String], ArrayTransition<String>>(didTransition: {
            transitions.append($0.mutations)
        })
        pipeline.labels.register(handler)
        pipeline.rows[1] = Row(name: "a", score: 5, done: false)
        pipeline.rows[2] = Row(name: "b", score: 7, done: false)
        pipeline.rows[1] = Row(name: "a", score: 9, done: false)
        pipeline.rows[2] = Row(name: "b", score: 7, done: true)
        pipeline.rows[1] = Row(name: "A", score: 9, done: false)
        #expect(
            transitions == [
                [.insert("1:a", at: 0)], [.insert("2:b", at: 1)], [.delete(at: 0), .insert("1:a", at: 1)],
                [.delete(at: 0)], [.update("1:A", at: 0)],
            ])
        pipeline.labels.deregister(handler)
        pipeline.tearDown()
    }

    @Test("registering sends an initiation, deregistering a termination; replications follow their origin")
    func replicationFollowsOrigin() {
        let origin = EditableSetStorage<Int>([1, 2])
        let replica = ReplicatingSetStorage<Int>()
        var log: [String] = []
        let handler = StateHandler<Set<Int>, SetTransition<Int>>(
            didInitiate: { log.append("initiation \($0.sorted())") },
            didTransition: { log.append("transition +\($0.inserted.sorted()) -\($0.deleted.sorted())") },
            willTerminate: { log.append("termination \($0.sorted())") })
        replica.register(handler)
        origin.register(replica)
        #expect(replica.state == [1, 2])
        origin.insert(3)
        origin.remove(1)
        origin.state = [7]
        #expect(replica.state == origin.state)
        origin.deregister(replica)
        #expect(replica.state.isEmpty)
        replica.deregister(handler)
        #expect(
            log == [
                "initiation []", "termination []", "initiation [1, 2]", "transition +[3] -[]", "transition +[] -[1]",
                "transition +[7] -[2, 3]", "termination [7]", "initiation []", "termination []",
            ])
    }

    @Test("value storages: editable, replicating (keeps its value on termination), read-only")
    func values() {
        let origin = EditableValueStorage(1)
        let replica = ReplicatingValueStorage(0)
        let plain = ValueStorage("x")
        let sensor = SignalSensor<ValueSignal<String>>()
        plain.register(sensor)
        plain.update("y")
        origin.register(replica)
        origin.state = 5
        #expect(replica.state == 5)
        origin.deregister(replica)
        #expect(replica.state == 5)
        plain.deregister(sensor)
        #expect(plain.state == "y")
    }

    @Test("arrays: an editable storage starts from its elements; the editor and maps follow")
    func arrays() {
        let storage = EditableArrayStorage(["a", "b"])
        let upper = ArraySignalMap<String, String> { $0.uppercased() }
        let replica = ReplicatingArrayStorage<String>()
        upper.register(replica)
        storage.register(upper)
        #expect(replica.state == ["A", "B"])
        let editor = ArrayEditor(storage)
        editor.append("c")
        editor[0] = "z"
        editor.remove(at: 1)
        editor.insert("q", at: 0)
        #expect(Array(editor) == ["q", "z", "c"])
        #expect(replica.state == ["Q", "Z", "C"])
        storage.deregister(upper)
        upper.deregister(replica)
    }

    @Test("a sensor that mutates the storage during a delivery: the mutation is queued, FIFO")
    func reentrancy() {
        let storage = EditableValueStorage(0)
        var first: [Int] = []
        var second: [Int] = []
        let bumper = SignalSensor<ValueSignal<Int>> { signal in
            if case .transition(let value) = signal {
                first.append(value)
                if value == 1 { storage.state = 2 }
            }
        }
        let watcher = SignalSensor<ValueSignal<Int>> { signal in
            if case .transition(let value) = signal { second.append(value) }
        }
        storage.register(bumper)
        storage.register(watcher)
        storage.state = 1
        #expect(first == [1, 2])
        #expect(second == [1, 2])
        #expect(storage.state == 2)
        storage.deregister(bumper)
        storage.deregister(watcher)
    }

    @Test("signal maps, filters and dispatchers relay what flows through them")
    func relays() {
        let dispatcher = SignalEmitter<Int>()
        let doubled = SignalMap<Int, Int> { $0 * 2 }
        let even = SignalFilter<Int> { $0.isMultiple(of: 4) }
        var seen: [Int] = []
        let sensor = SignalSensor<Int> { seen.append($0) }
        even.register(sensor)
        doubled.register(even)
        dispatcher.register(doubled)
        for value in 1...4 { dispatcher.dispatch(value) }
        #expect(seen == [4, 8])
        dispatcher.deregister(doubled)
        doubled.deregister(even)
        even.deregister(sensor)
        #expect(dispatcher.sensorCount == 0)
    }

    @Test("everything is freed after teardown")
    func freed() {
        weak var weakPipeline: Pipeline?
        weak var weakSorted: DictionarySortingArrayStorage<Int, Row>?
        do {
            let pipeline = Pipeline()
            pipeline.rows[1] = Row(name: "a", score: 1, done: false)
            (weakPipeline, weakSorted) = (pipeline, pipeline.sorted)
            pipeline.tearDown()
        }
        #expect(weakPipeline == nil)
        #expect(weakSorted == nil)
    }

    @Test("an emitter released with sensors registered is a debug assertion")
    func emitterDiesWithSensors() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let sensor = SignalSensor<ValueSignal<Int>>()
            do {
                let storage = ValueStorage(1)
                storage.register(sensor)
            }
            _ = sensor
        }
        expectStandardError(of: result, contains: "SignalGraph: an emitter died with 1 sensor(s) still registered")
    }

    @Test("a sensor registered on two emitters is a debug assertion")
    func sensorOnTwoEmitters() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let sensor = SignalSensor<ValueSignal<Int>>()
            let first = ValueStorage(1)
            let second = ValueStorage(2)
            first.register(sensor)
            second.register(sensor)
        }
        expectStandardError(of: result, contains: "SignalGraph: a sensor was registered on a second emitter")
    }

    @Test("deregistering an unknown sensor is a debug assertion")
    func deregisterUnknown() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let storage = ValueStorage(1)
            storage.deregister(SignalSensor<ValueSignal<Int>>())
        }
        expectStandardError(
            of: result, contains: "SignalGraph: deregistering a sensor that is not registered on this emitter")
    }

    @Test("a plain emitter (the relays' kind) checks the same mistakes as a storage")
    func plainEmitterMistakes() async {
        let died = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let sensor = SignalSensor<Int>()
            do {
                let emitter = SignalEmitter<Int>()
                emitter.register(sensor)
            }
            _ = sensor
        }
        expectStandardError(of: died, contains: "SignalGraph: an emitter died with 1 sensor(s) still registered")
        let twice = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let sensor = SignalSensor<Int>()
            let first = SignalEmitter<Int>()
            let second = SignalEmitter<Int>()
            first.register(sensor)
            second.register(sensor)
        }
        expectStandardError(of: twice, contains: "SignalGraph: a sensor was registered on a second emitter")
        let unknown = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SignalEmitter<Int>().deregister(SignalSensor<Int>())
        }
        expectStandardError(
            of: unknown, contains: "SignalGraph: deregistering a sensor that is not registered on this emitter")
    }

    @Test("a sensor released while registered is a debug assertion")
    func sensorReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let storage = ValueStorage(1)
            do {
                let sensor = SignalSensor<ValueSignal<Int>>()
                storage.register(sensor)
            }
            _ = storage
        }
        expectStandardError(of: result, contains: "SignalGraph: a sensor was released while still registered")
    }
}

@Suite("SignalGraph teardown mistakes of storages and views")
struct ViewTeardownMisuseTests {
    @Test("a replication released while registered is a debug assertion")
    func replicationReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let storage = ValueStorage(1)
            do { storage.register(ReplicatingValueStorage(0)) }
            _ = storage
        }
        expectStandardError(of: result, contains: "SignalGraph: a replication was released while still registered")
    }

    @Test("a filtering view released while registered is a debug assertion")
    func filterReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rows = DictionaryStorage([1: 1])
            do { rows.register(DictionaryFilteringDictionaryStorage<Int, Int> { _, _ in true }) }
            _ = rows
        }
        expectStandardError(of: result, contains: "SignalGraph: a filtering view was released while still registered")
    }

    @Test("a sorting view released while registered is a debug assertion")
    func sortingViewReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rows = DictionaryStorage([1: 1])
            do { rows.register(DictionarySortingArrayStorage<Int, Int> { $0.value < $1.value }) }
            _ = rows
        }
        expectStandardError(of: result, contains: "SignalGraph: a view was released while still registered")
    }

    @Test("a relay released while registered is a debug assertion")
    func relayReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dispatcher = SignalEmitter<Int>()
            do { dispatcher.register(SignalMap<Int, Int> { $0 * 2 }) }
            _ = dispatcher
        }
        expectStandardError(of: result, contains: "SignalGraph: a relay was released while still registered")
    }

    @Test("a state handler released while registered is a debug assertion")
    func handlerReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let storage = ValueStorage(1)
            do { storage.register(StateHandler<Int, Int>()) }
            _ = storage
        }
        expectStandardError(of: result, contains: "SignalGraph: a state handler was released while still registered")
    }
}

@Suite("SignalGraph read-only storages")
struct ReadOnlyStorageTests {
    @Test("set, dictionary and array storages send an initiation on registration and their transitions")
    func readOnlyStorages() {
        let set = SetStorage<Int>([1])
        let dictionary = DictionaryStorage<String, Int>(["a": 1])
        let array = ArrayStorage<Int>([1, 2])
        let setReplica = ReplicatingSetStorage<Int>()
        let dictionaryReplica = ReplicatingDictionaryStorage<String, Int>()
        let arrayReplica = ReplicatingArrayStorage<Int>()
        set.register(setReplica)
        dictionary.register(dictionaryReplica)
        array.register(arrayReplica)
        #expect(setReplica.state == [1])
        #expect(dictionaryReplica.state == ["a": 1])
        #expect(arrayReplica.state == [1, 2])
        set.apply(SetTransition(deleted: [1], inserted: [5]))
        dictionary.apply(DictionaryTransition([.update("a", 2), .insert("b", 3), .delete("a")]))
        array.apply(ArrayTransition([.delete(at: 0), .insert(9, at: 1), .update(7, at: 0)]))
        #expect(setReplica.state == set.state && set.state == [5])
        #expect(dictionaryReplica.state == dictionary.state && dictionary.state == ["b": 3])
        #expect(arrayReplica.state == array.state && array.state == [7, 9])
        #expect(set.sensorCount == 1)
        set.deregister(setReplica)
        dictionary.deregister(dictionaryReplica)
        array.deregister(arrayReplica)
    }
}

@Suite("SignalGraph misuse")
struct MisuseTests {
    @Test("ArrayEditor indices out of range are precondition failures")
    func editorIndices() async {
        let insert = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayEditor(EditableArrayStorage([1])).insert(0, at: 3)
        }
        expectStandardError(of: insert, contains: "ArrayEditor.insert: index 3 out of 0...1")
        let remove = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ArrayEditor(EditableArrayStorage([1])).remove(at: 1)
        }
        expectStandardError(of: remove, contains: "ArrayEditor.remove: index 1 out of 0..<1")
    }

    @Test("a sort order that changes under a sorting view is a precondition failure")
    func unstableSort() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Flip { var descending = false }
            let flip = Flip()
            let rows = EditableDictionaryStorage<Int, Int>([1: 1, 2: 2, 3: 3])
            let sorted = DictionarySortingArrayStorage<Int, Int> {
                flip.descending ? $0.value > $1.value : $0.value < $1.value
            }
            rows.register(sorted)
            flip.descending = true
            rows.removeValue(forKey: 1)
        }
        expectStandardError(of: result, contains: "SignalGraph: an entry is not where the sort order puts it")
    }
}
