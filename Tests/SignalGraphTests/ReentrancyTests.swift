import ReactiveCore
import SignalGraph
import Synchronization
import TestSupport
import Testing

/// A sensor that rebuilds the state from the signals it receives, checks that every
/// termination carries the state it rebuilt, and runs a hook after each signal.
final class Rebuilder<Snapshot: Equatable, Transition>: Monitor {
    typealias IncomingSignal = StateSignal<Snapshot, Transition>

    let registration = SensorRegistration()
    private let apply: (Transition, inout Snapshot) -> Void
    /// The state rebuilt so far; `nil` before the initiation and after the termination.
    private(set) var rebuilt: Snapshot?
    /// What went wrong, in words.
    private(set) var problems: [String] = []
    /// Signals received, by kind: "i", "t" or "x".
    private(set) var kinds = ""
    var hook: () -> Void = {}

    init(apply: @escaping (Transition, inout Snapshot) -> Void) {
        self.apply = apply
    }

    func sense(_ signal: StateSignal<Snapshot, Transition>) {
        switch signal {
        case .initiation(let snapshot):
            if rebuilt != nil { problems.append("an initiation while initiated") }
            rebuilt = snapshot
            kinds += "i"
        case .transition(let transition):
            if rebuilt == nil {
                problems.append("a transition before the initiation")
            } else {
                apply(transition, &rebuilt!)
            }
            kinds += "t"
        case .termination(let snapshot):
            if rebuilt != snapshot {
                problems.append("a termination with \(snapshot), rebuilt \(String(describing: rebuilt))")
            }
            rebuilt = nil
            kinds += "x"
        }
        hook()
    }
}

typealias DictionaryRebuilder = Rebuilder<[Int: Int], DictionaryTransition<Int, Int>>
typealias ArrayRebuilder<Element: Equatable> = Rebuilder<[Element], ArrayTransition<Element>>

func dictionaryRebuilder() -> DictionaryRebuilder {
    DictionaryRebuilder { transition, state in transition.apply(to: &state) }
}

func arrayRebuilder<Element: Equatable>(of _: Element.Type = Element.self) -> ArrayRebuilder<Element> {
    ArrayRebuilder<Element> { transition, state in transition.apply(to: &state) }
}

@Suite("SignalGraph: writes, registrations and deregistrations from handlers")
struct ReentrancyTests {
    @Test("two writes to one new key from a handler: an insert, then an update (the key once in a sorted view)")
    func twoWritesToOneKey() {
        let rows = EditableDictionaryStorage<Int, Int>()
        let sorted = DictionarySortingArrayStorage<Int, Int> { $0.key < $1.key }
        rows.register(sorted)
        let writer = SignalSensor<DictionarySignal<Int, Int>> { signal in
            guard case .transition = signal, rows[5] == nil else { return }
            rows[5] = 5
            rows[5] = 6
        }
        rows.register(writer)
        rows[1] = 1
        #expect(sorted.state.map(\.key) == [1, 5])
        #expect(sorted.state.map(\.value) == [1, 6])
        #expect(rows.state == [1: 1, 5: 6])
        rows.deregister(writer)
        rows.deregister(sorted)
    }

    @Test("two appends from a handler come out in the order made")
    func twoAppendsFromAHandler() {
        let storage = EditableArrayStorage<String>()
        let editor = ArrayEditor(storage)
        let replica = ReplicatingArrayStorage<String>()
        storage.register(replica)
        let appender = SignalSensor<ArraySignal<String>> { signal in
            guard case .transition = signal, editor.count == 1 else { return }
            editor.append("b")
            editor.append("c")
            editor.remove(at: editor.count - 1)
            editor.append("d")
        }
        storage.register(appender)
        editor.append("a")
        #expect(storage.state == ["a", "b", "d"])
        #expect(replica.state == ["a", "b", "d"])
        storage.deregister(appender)
        storage.deregister(replica)
    }

    @Test("a read right after a write in a handler returns what was written")
    func readAfterWrite() {
        let value = EditableValueStorage(0)
        let rows = EditableDictionaryStorage<Int, String>()
        var reads: [String] = []
        let sensor = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition(1) = signal else { return }
            value.state = 2
            reads.append("value \(value.state)")
            rows[7] = "seven"
            reads.append("row \(rows[7] ?? "nil")")
        }
        // `rows` is not delivering when the handler above writes it, so that write is
        // delivered at once, and the handler below writes `rows` during its own delivery.
        let rowWriter = SignalSensor<DictionarySignal<Int, String>> { signal in
            guard case .transition = signal, rows[8] == nil else { return }
            rows[8] = "eight"
            reads.append("row \(rows[8] ?? "nil") count \(rows.state.count)")
        }
        value.register(sensor)
        rows.register(rowWriter)
        value.state = 1
        #expect(reads == ["value 2", "row eight count 2", "row seven"])
        value.deregister(sensor)
        rows.deregister(rowWriter)
    }

    @Test("the signals of writes made during a delivery follow it, in the order made, to every sensor")
    func signalsOfReentrantWritesInOrder() {
        let storage = EditableValueStorage(0)
        var first: [Int] = []
        var second: [Int] = []
        let writer = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition(let value) = signal else { return }
            first.append(value)
            if value == 1 {
                storage.state = 2
                storage.state = 3
            }
        }
        let watcher = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition(let value) = signal else { return }
            second.append(value)
        }
        storage.register(writer)
        storage.register(watcher)
        storage.state = 1
        #expect(first == [1, 2, 3])
        #expect(second == [1, 2, 3])
        storage.deregister(writer)
        storage.deregister(watcher)
    }

    @Test("a sensor registered from a handler is initiated with the state and skips the changes it already holds")
    func registrationFromAHandler() {
        let storage = EditableDictionaryStorage<Int, Int>()
        let early = dictionaryRebuilder()
        let late = dictionaryRebuilder()
        let trigger = SignalSensor<DictionarySignal<Int, Int>> { signal in
            guard case .transition = signal, storage[2] == nil else { return }
            storage[2] = 2
            storage.register(late)
            storage[3] = 3
        }
        storage.register(trigger)
        storage.register(early)
        storage[1] = 1
        // `late` was initiated after the write of 2 and the write of 3 were both made: it
        // holds both and receives neither as a transition.
        #expect(late.kinds == "i")
        #expect(late.rebuilt == [1: 1, 2: 2, 3: 3])
        #expect(early.kinds == "ittt")
        #expect(early.rebuilt == storage.state)
        storage[4] = 4
        #expect(late.kinds == "it")
        #expect(late.rebuilt == storage.state)
        for sensor in [early, late] {
            #expect(sensor.problems.isEmpty)
            storage.deregister(sensor)
        }
        storage.deregister(trigger)
    }

    @Test(
        "a sensor deregistered from a handler receives the changes it has not seen, then a termination with the state")
    func deregistrationFromAHandler() {
        let storage = EditableValueStorage(0)
        let leaving = Rebuilder<Int, Int> { new, state in state = new }
        var leavingValues: [Int] = []
        let trigger = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition(1) = signal else { return }
            storage.state = 2
            storage.deregister(leaving)
            storage.state = 3
        }
        storage.register(trigger)
        storage.register(leaving)
        leaving.hook = { if let value = leaving.rebuilt { leavingValues.append(value) } }
        storage.state = 1
        #expect(leaving.kinds == "itttx")
        #expect(leavingValues == [1, 2, 3])
        #expect(leaving.problems.isEmpty)
        #expect(!leaving.registration.isRegistered)
        storage.deregister(trigger)
        leaving.hook = {}  // it captured `leaving`
    }

    @Test("a whole new state set from a handler: the reset follows the delivery")
    func resetFromAHandler() {
        let storage = EditableArrayStorage([1, 2])
        let rebuilder = arrayRebuilder(of: Int.self)
        let trigger = SignalSensor<ArraySignal<Int>> { signal in
            guard case .transition = signal, storage.state.count == 3 else { return }
            storage.state = [9]
            ArrayEditor(storage).append(10)
        }
        storage.register(trigger)
        storage.register(rebuilder)
        ArrayEditor(storage).append(3)
        #expect(storage.state == [9, 10])
        #expect(rebuilder.rebuilt == [9, 10])
        #expect(rebuilder.kinds == "itxit")
        #expect(rebuilder.problems.isEmpty)
        storage.deregister(rebuilder)
        storage.deregister(trigger)
    }

    /// Random writes, registrations and deregistrations, some made from handlers, against a
    /// plain dictionary that the same commands are applied to; views and rebuilt sensors are
    /// checked against it after every top-level operation.
    @Test(
        "model: reentrant dictionary writes and registrations against a plain dictionary",
        arguments: 0..<30 as Range<UInt64>)
    func dictionaryModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let storage = EditableDictionaryStorage<Int, Int>()
        let even = DictionaryFilteringDictionaryStorage<Int, Int> { _, value in value.isMultiple(of: 2) }
        let sorted = DictionarySortingArrayStorage<Int, Int> { ($0.value, $0.key) < ($1.value, $1.key) }
        storage.register(even)
        even.register(sorted)
        var reference: [Int: Int] = [:]
        var budget = 0
        var onStorage: [DictionaryRebuilder] = []
        var onSorted: [ArrayRebuilder<Int>] = []
        var gone: [DictionaryRebuilder] = []
        var keyMaps: [SignalMap<ArraySignal<(key: Int, value: Int)>, ArraySignal<Int>>] = []
        var problems: [String] = []

        func sortedReference() -> [Int] {
            reference.filter { $0.value.isMultiple(of: 2) }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(
                \.key)
        }
        func write() {
            let key = Int.random(in: 0..<6, using: &random)
            let value: Int? = Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: 0..<8, using: &random)
            // The reference first: handlers run by this write may write again, and their
            // writes come after it.
            reference[key] = value
            storage[key] = value
            if storage[key] != reference[key] {
                problems.append("read after writing \(key): \(String(describing: storage[key]))")
            }
        }
        func act() {
            switch Int.random(in: 0..<8, using: &random) {
            case 0..<4:
                write()
            case 4:
                let sensor = dictionaryRebuilder()
                sensor.hook = reenter
                onStorage.append(sensor)
                storage.register(sensor)
            case 5:
                let sensor = arrayRebuilder(of: Int.self)
                sensor.hook = reenter
                // A sorted view's elements are (key, value) pairs; record the keys.
                let keys = SignalMap<ArraySignal<(key: Int, value: Int)>, ArraySignal<Int>> { signal in
                    switch signal {
                    case .initiation(let entries): .initiation(entries.map(\.key))
                    case .termination(let entries): .termination(entries.map(\.key))
                    case .transition(let transition):
                        .transition(
                            ArrayTransition(
                                transition.mutations.map { mutation in
                                    switch mutation {
                                    case .insert(let entry, let index): .insert(entry.key, at: index)
                                    case .update(let entry, let index): .update(entry.key, at: index)
                                    case .delete(let index): .delete(at: index)
                                    }
                                }))
                    }
                }
                keys.register(sensor)
                onSorted.append(sensor)
                keyMaps.append(keys)
                sorted.register(keys)
            case 6:
                guard !onStorage.isEmpty else { return write() }
                let sensor = onStorage.remove(at: Int.random(in: 0..<onStorage.count, using: &random))
                gone.append(sensor)
                storage.deregister(sensor)
            default:
                guard !onSorted.isEmpty else { return write() }
                let index = Int.random(in: 0..<onSorted.count, using: &random)
                let sensor = onSorted.remove(at: index)
                let keys = keyMaps.remove(at: index)
                sorted.deregister(keys)
                keys.deregister(sensor)
            }
        }
        func reenter() {
            guard budget > 0, Int.random(in: 0..<3, using: &random) == 0 else { return }
            budget -= 1
            act()
        }

        for step in 0..<300 {
            budget = Int.random(in: 0..<4, using: &random)
            act()
            let want = sortedReference()
            if storage.state != reference {
                problems.append("step \(step): state \(storage.state), reference \(reference)")
            }
            if even.state != reference.filter({ $0.value.isMultiple(of: 2) }) {
                problems.append("step \(step): even view")
            }
            if sorted.state.map(\.key) != want {
                problems.append("step \(step): sorted \(sorted.state.map(\.key)), want \(want)")
            }
            for sensor in onStorage where sensor.rebuilt != reference {
                problems.append("step \(step): a sensor rebuilt \(String(describing: sensor.rebuilt))")
            }
            for sensor in onSorted where sensor.rebuilt != want {
                problems.append(
                    "step \(step): a sorted sensor rebuilt \(String(describing: sensor.rebuilt)), want \(want)")
            }
            if !problems.isEmpty { break }
        }
        budget = 0
        for sensor in onStorage { storage.deregister(sensor) }
        for (sensor, keys) in zip(onSorted, keyMaps) {
            sorted.deregister(keys)
            keys.deregister(sensor)
        }
        even.deregister(sorted)
        storage.deregister(even)
        // The hooks capture the lists that hold the sensors: break the cycles.
        for sensor in onStorage + gone {
            problems += sensor.problems
            sensor.hook = {}
        }
        for sensor in onSorted {
            problems += sensor.problems
            sensor.hook = {}
        }
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
        #expect(storage.sensorCount == 0 && even.sensorCount == 0 && sorted.sensorCount == 0)
    }

    /// The same for an array edited through `ArrayEditor`, with a mapped view, against a
    /// plain array.
    @Test("model: reentrant array edits against a plain array", arguments: 0..<30 as Range<UInt64>)
    func arrayModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let storage = EditableArrayStorage<Int>()
        let editor = ArrayEditor(storage)
        let doubled = ArraySignalMapStorage<Int, Int> { $0 * 2 }
        storage.register(doubled)
        var reference: [Int] = []
        var budget = 0
        var sensors: [ArrayRebuilder<Int>] = []
        var all: [ArrayRebuilder<Int>] = []
        var problems: [String] = []
        var next = 0

        // The reference is changed before the storage: handlers run by an edit may edit
        // again, and their edits come after it.
        func act() {
            next += 1
            switch Int.random(in: 0..<9, using: &random) {
            case 0..<3:
                reference.append(next)
                editor.append(next)
            case 3:
                let index = Int.random(in: 0...reference.count, using: &random)
                reference.insert(next, at: index)
                editor.insert(next, at: index)
            case 4 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                reference.remove(at: index)
                editor.remove(at: index)
            case 5 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                reference[index] = next
                editor[index] = next
            case 6:
                let sensor = arrayRebuilder(of: Int.self)
                sensor.hook = reenter
                sensors.append(sensor)
                all.append(sensor)
                doubled.register(sensor)
            case 7 where !sensors.isEmpty:
                doubled.deregister(sensors.remove(at: Int.random(in: 0..<sensors.count, using: &random)))
            case 8 where Int.random(in: 0..<4, using: &random) == 0:
                let elements = (0..<Int.random(in: 0..<4, using: &random)).map { next * 10 + $0 }
                reference = elements
                storage.state = elements
            default:
                reference.append(next)
                editor.append(next)
            }
            if Array(editor) != reference { problems.append("after an edit: \(Array(editor)), reference \(reference)") }
        }
        func reenter() {
            guard budget > 0, Int.random(in: 0..<3, using: &random) == 0 else { return }
            budget -= 1
            act()
        }

        for step in 0..<300 {
            budget = Int.random(in: 0..<4, using: &random)
            act()
            let want = reference.map { $0 * 2 }
            if storage.state != reference { problems.append("step \(step): \(storage.state), reference \(reference)") }
            if doubled.state != want { problems.append("step \(step): doubled \(doubled.state), want \(want)") }
            for sensor in sensors where sensor.rebuilt != want {
                problems.append("step \(step): a sensor rebuilt \(String(describing: sensor.rebuilt)), want \(want)")
            }
            if !problems.isEmpty { break }
        }
        budget = 0
        for sensor in sensors { doubled.deregister(sensor) }
        storage.deregister(doubled)
        // The hooks capture the list that holds the sensors: break the cycles.
        for sensor in all {
            problems += sensor.problems
            sensor.hook = {}
        }
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
        #expect(storage.sensorCount == 0 && doubled.sensorCount == 0)
    }
}

@Suite("SignalGraph: emitters as Subscribable")
struct SubscribableEmitterTests {
    @Test("subscribe registers a sensor; the connection deregisters it, which sends the termination")
    func subscribe() {
        let rows = EditableDictionaryStorage<Int, String>()
        var kinds: [String] = []
        let connection = rows.subscribe { signal in
            switch signal {
            case .initiation(let entries): kinds.append("initiation \(entries.count)")
            case .transition: kinds.append("transition")
            case .termination(let entries): kinds.append("termination \(entries.count)")
            }
        }
        #expect(rows.sensorCount == 1)
        rows[1] = "Ada"
        connection.disconnect()
        rows[2] = "Bob"
        #expect(kinds == ["initiation 0", "transition", "termination 1"])
        #expect(rows.sensorCount == 0)
    }

    @Test("code written against Subscribable takes a storage, a view or a plain emitter")
    func generic() {
        // Subscribable's requirement takes a @Sendable sink; the log is behind a mutex.
        let log = Mutex<[String]>([])
        func collect(_ source: some Subscribable) -> Connection {
            source.subscribe { value in log.withLock { $0.append("\(value)") } }
        }
        let value = EditableValueStorage(1)
        let emitter = SignalEmitter<Int>()
        let connections = [collect(value), collect(emitter)]
        value.state = 2
        emitter.dispatch(7)
        for connection in connections { connection.disconnect() }
        #expect(log.withLock { $0 } == ["initiation(1)", "transition(2)", "7", "termination(2)"])
        #expect(value.sensorCount == 0 && emitter.sensorCount == 0)
    }

    @Test("a subscription made and disconnected from a handler waits its turn")
    func subscribeFromAHandler() {
        let value = EditableValueStorage(0)
        var late: [String] = []
        var lateConnection: Connection?
        let trigger = value.subscribe { signal in
            guard case .transition(1) = signal else { return }
            value.state = 2
            lateConnection = value.subscribe { late.append("\($0)") }
            value.state = 3
        }
        value.state = 1
        #expect(late == ["initiation(3)"])
        lateConnection?.disconnect()
        #expect(late == ["initiation(3)", "termination(3)"])
        trigger.disconnect()
        #expect(value.sensorCount == 0)
    }

    @Test("a released connection deregisters, and the storage is freed after the last one goes")
    func releaseFrees() {
        weak var weakStorage: EditableValueStorage<Int>?
        var connection: Connection?
        do {
            let storage = EditableValueStorage(0)
            weakStorage = storage
            connection = storage.subscribe { _ in }
        }
        #expect(weakStorage != nil)  // the connection keeps it while connected
        #expect(weakStorage?.sensorCount == 1)
        connection = nil
        #expect(weakStorage == nil)
        _ = connection
    }
}
