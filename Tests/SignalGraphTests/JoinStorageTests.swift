import SignalGraph
import TestSupport
import Testing

/// Records every state a storage's sensors can see: the initiation's, then the state after
/// each transition.
private final class JoinStateRecorder<Key: Hashable, Value> {
    private(set) var states: [[Key: Value]] = []
    let sensor: SignalSensor<DictionarySignal<Key, Value>>

    init() {
        var current: [Key: Value] = [:]
        var states: [[Key: Value]] = []
        let record = { states.append(current) }
        sensor = SignalSensor { signal in
            switch signal {
            case .initiation(let snapshot): current = snapshot
            case .transition(let transition): transition.apply(to: &current)
            case .termination: return
            }
            record()
        }
        self.read = { states }
    }

    private var read: () -> [[Key: Value]] = { [] }
    var seen: [[Key: Value]] { read() }
}

/// The diamond the value-join tests drive: rows folded into a sum and a count, the two joined.
/// Sensors added with `watch` are registered after the join's inputs and deregistered first.
private final class FoldedRows<Value: Equatable> {
    let rows: EditableDictionaryStorage<Int, Int>
    let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
    let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
    let join: ValueJoinStorage<Int, Int, Value>
    private var teardown: [() -> Void] = []

    init(_ entries: [Int: Int] = [:], combine: @escaping (_ total: Int, _ count: Int) -> Value) {
        rows = EditableDictionaryStorage(entries)
        join = ValueJoinStorage(0, 0, combine: combine)
        rows.register(total)
        rows.register(count)
        total.register(join.first)
        count.register(join.second)
    }

    /// Registers `handler` on the total's, the count's or the join's signals.
    func watchTotal(_ handler: @escaping (ValueSignal<Int>) -> Void) { watch(total, handler) }
    func watchCount(_ handler: @escaping (ValueSignal<Int>) -> Void) { watch(count, handler) }
    func watchJoin(_ handler: @escaping (ValueSignal<Value>) -> Void) { watch(join, handler) }

    private func watch<Emitted: Emitter>(_ emitter: Emitted, _ handler: @escaping (Emitted.OutgoingSignal) -> Void) {
        let sensor = SignalSensor(handler)
        emitter.register(sensor)
        teardown.append { emitter.deregister(sensor) }
    }

    /// Deregisters everything, in the reverse order of setting it up.
    func tearDown() {
        for step in teardown.reversed() { step() }
        count.deregister(join.second)
        total.deregister(join.first)
        rows.deregister(count)
        rows.deregister(total)
    }
}

/// A relay of value signals through `transform`.
private func relay(_ transform: @escaping (Int) -> Int) -> SignalMap<ValueSignal<Int>, ValueSignal<Int>> {
    SignalMap { signal in
        switch signal {
        case .initiation(let value): .initiation(transform(value))
        case .transition(let value): .transition(transform(value))
        case .termination(let value): .termination(transform(value))
        }
    }
}

@Suite("SignalGraph: joins")
struct JoinStorageTests {
    @Test(
        "joins of joins: a join fed by a join and by a relay of the same storage changes once per mutation, whatever order they were made in"
    )
    func nestedJoins() {
        // a; b = a + a (a join); c = max(b, a) (a join of a join); d = c, clamped (a relay);
        // m = 2a (a relay); e = d · m (a join two joins deep). Written once, e must go from its
        // old value to its new one in one transition. `m` is registered on `a` before `c`, so
        // `e` hears of the mutation before `c` has computed: e must wait for c.
        let a = EditableValueStorage(2)
        let b = ValueJoinStorage(2, 2) { $0 + $1 }
        let c = ValueJoinStorage(4, 2) { max($0, $1) }
        let clamp = relay { min($0, 100) }
        let d = ReplicatingValueStorage(4)
        let double = relay { 2 * $0 }
        let m = ReplicatingValueStorage(4)
        let e = ValueJoinStorage(4, 4) { $0 * $1 }
        a.register(b.first)
        a.register(b.second)
        a.register(double)
        double.register(m)
        m.register(e.second)
        a.register(c.second)
        b.register(c.first)
        c.register(clamp)
        clamp.register(d)
        d.register(e.first)
        var seen: [Int] = []
        let watching = e.subscribe { signal in
            if case .transition(let value) = signal { seen.append(value) }
        }
        #expect(e.state == 16)
        a.state = 3
        #expect(seen == [36], "one transition, from 4 · 4 to 6 · 6, never 4 · 6")
        a.state = 7
        #expect(seen == [36, 196])
        watching.disconnect()
        d.deregister(e.first)
        clamp.deregister(d)
        c.deregister(clamp)
        b.deregister(c.first)
        a.deregister(c.second)
        m.deregister(e.second)
        double.deregister(m)
        a.deregister(double)
        a.deregister(b.second)
        a.deregister(b.first)
    }

    @Test("a diamond through two folds of one dictionary changes its join once per mutation, never mixed")
    func valueDiamond() {
        let diamond = FoldedRows { total, count in [total, count] }
        var seen: [[Int]] = []
        diamond.watchJoin { signal in
            if case .transition(let value) = signal { seen.append(value) }
        }
        diamond.rows[1] = 10
        diamond.rows[2] = 20
        diamond.rows[1] = 5  // the count does not change: one side only
        diamond.rows[2] = nil
        #expect(seen == [[10, 1], [30, 2], [25, 2], [5, 1]])
        diamond.tearDown()
    }

    @Test(
        "a join keys a filter and a map of one dictionary glitch-free through random mutations",
        arguments: [1, 2, 3] as [UInt64])
    func dictionaryModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let rows = EditableDictionaryStorage<Int, Int>()
        let even = DictionaryFilteringDictionaryStorage<Int, Int> { _, value in value.isMultiple(of: 2) }
        let labels = DictionaryMappingValuesDictionaryStorage<Int, Int, String> { "#\($0)" }
        let join = DictionaryJoinStorage<Int, Int, String, String> { value, label in "\(value)\(label)" }
        let recorder = JoinStateRecorder<Int, String>()
        rows.register(even)
        rows.register(labels)
        even.register(join.left)
        labels.register(join.right)
        join.register(recorder.sensor)
        // Every state the join may show: the join of the two views computed from the rows after
        // each mutation, from scratch.
        func expected(_ rows: [Int: Int]) -> [Int: String] {
            rows.filter { $0.value.isMultiple(of: 2) }.mapValues { "\($0)#\($0)" }
        }
        var model: [Int: Int] = [:]
        var consistent: [[Int: String]] = [[:]]
        var transitions = 0
        for step in 0..<1_500 {
            let key = Int.random(in: 0..<12, using: &random)
            let before = recorder.seen.count
            if Int.random(in: 0..<4, using: &random) == 0 {
                rows[key] = nil
                model[key] = nil
            } else {
                let value = Int.random(in: 0..<9, using: &random)
                rows[key] = value
                model[key] = value
            }
            let state = expected(model)
            consistent.append(state)
            transitions += recorder.seen.count - before
            guard join.state == state, recorder.seen.count - before <= 1 else {
                Issue.record("the join diverged, or changed more than once, at step \(step), seed \(seed)")
                return
            }
        }
        // Every state an observer saw is one the rows really produced.
        #expect(recorder.seen.allSatisfy { consistent.contains($0) })
        #expect(transitions > 100)
        join.deregister(recorder.sensor)
        labels.deregister(join.right)
        even.deregister(join.left)
        rows.deregister(labels)
        rows.deregister(even)
        #expect(join.state.isEmpty)
    }

    @Test("a handler that mutates the root while a side delivers is folded into the same join change")
    func reentrantFold() {
        let diamond = FoldedRows { total, count in [total, count] }
        let rows = diamond.rows
        var seen: [[Int]] = []
        // Each new row drags a twin in, from inside the total's delivery.
        diamond.watchTotal { signal in
            if case .transition = signal, rows[100] == nil { rows[100] = 1 }
        }
        diamond.watchJoin { signal in
            guard case .transition(let value) = signal else { return }
            seen.append(value)
            // A handler of the join that writes: its change is joined after this delivery.
            if value == [11, 2] { rows[101] = 2 }
        }
        rows[1] = 10
        #expect(seen == [[11, 2], [13, 3]])
        #expect(diamond.join.state == [diamond.total.state, diamond.count.state])
        diamond.tearDown()
    }

    @Test("a mutation that leaves the joined value equal, or that a handler undoes, sends nothing")
    func noOp() {
        let diamond = FoldedRows([1: 4]) { total, count in count == 0 ? 0 : total / count }
        let rows = diamond.rows
        var transitions = 0
        diamond.watchCount { signal in
            if case .transition(let count) = signal, count == 3 { rows[3] = nil }
        }
        diamond.watchJoin { signal in
            if case .transition = signal { transitions += 1 }
        }
        #expect(diamond.join.state == 4)
        rows[2] = 4  // the mean stays 4
        rows[3] = 100  // undone by a handler within the same delivery
        #expect(transitions == 0 && diamond.join.state == 4 && rows.state == [1: 4, 2: 4])
        diamond.tearDown()
    }

    @Test("a side deregistered: a value join keeps its value, a dictionary join loses that side's keys; both free")
    func teardown() {
        weak var weakValueJoin: ValueJoinStorage<Int, Int, Int>?
        weak var weakDictionaryJoin: DictionaryJoinStorage<Int, String, Int, String>?
        do {
            let a = EditableValueStorage(1)
            let b = EditableValueStorage(2)
            let sum = ValueJoinStorage(0, 0, combine: +)
            weakValueJoin = sum
            a.register(sum.first)
            b.register(sum.second)
            #expect(sum.state == 3)
            b.deregister(sum.second)
            a.state = 10
            #expect(sum.state == 3)
            b.register(sum.second)
            #expect(sum.state == 12)
            a.deregister(sum.first)
            b.deregister(sum.second)

            let names = EditableDictionaryStorage([1: "ada", 2: "grace"])
            let scores = EditableDictionaryStorage([1: 3, 3: 9])
            let board = DictionaryJoinStorage<Int, String, Int, String> { "\($0): \($1)" }
            weakDictionaryJoin = board
            names.register(board.left)
            scores.register(board.right)
            #expect(board.state == [1: "ada: 3"])
            scores[2] = 5
            names[3] = "linus"
            #expect(board.state == [1: "ada: 3", 2: "grace: 5", 3: "linus: 9"])
            names.deregister(board.left)
            #expect(board.state.isEmpty)
            scores.deregister(board.right)
        }
        #expect(weakValueJoin == nil && weakDictionaryJoin == nil)
    }

    @Test(
        "a handler that tears a join down, and code after it that releases it while its update waits, leave nothing behind"
    )
    func teardownFromHandler() {
        let a = EditableValueStorage(1)
        var join: ValueJoinStorage<Int, Int, Int>? = ValueJoinStorage(0, 0, combine: +)
        weak let weakJoin = join
        a.register(join!.first)
        a.register(join!.second)
        // Registered from the handler, so initiated after the deregistrations queued before it
        // have taken effect: the join may go then, before the delivery ends.
        let releaser = SignalSensor<ValueSignal<Int>> { signal in
            if case .initiation = signal { join = nil }
        }
        let tearDown = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition = signal, let current = join else { return }
            a.deregister(current.first)
            a.deregister(current.second)
            a.register(releaser)
        }
        a.register(tearDown)
        #expect(weakJoin?.state == 2)
        a.state = 5  // the join hears its first side, then goes before its update runs
        #expect(weakJoin == nil && a.sensorCount == 2)
        a.deregister(releaser)
        a.deregister(tearDown)
    }

    @Test("a join released while an input is registered is a debug assertion")
    func joinReleasedWhileRegistered() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = EditableValueStorage(1)
            do {
                let join = ValueJoinStorage(0, 0, combine: +)
                a.register(join.first)
            }
            _ = a
        }
        expectStandardError(
            of: result, contains: "SignalGraph: a join was released while an input was still registered")
    }
}
