import Foundation
import Incremental
import ReactiveCore
import Resin
import TestSupport
import Testing

/// A small Incremental program: two inputs, their sum, whether the sum is even (observed).
private final class SumProgram {
    let graph = Graph()
    let a: Input<Int>
    let b: Input<Int>
    let sum: I<Int>
    let even: I<Bool>
    var seen: [Bool] = []
    var observation: Connection?

    init() {
        a = graph.input(0)
        b = graph.input(0)
        a.debugName = "a"
        b.debugName = "b"
        sum = map(a, b) { $0 + $1 }
        sum.debugName = "sum"
        even = sum.map { $0 % 2 == 0 }
        even.debugName = "even"
        observation = even.observe { [unowned self] in seen.append($0) }
    }

    func inspect() -> Inspection { even.inspect() }
}

@Suite("Traces: what each input changed")
struct TraceRecorderTests {
    @Test("model: the nodes a step marks changed are those whose value a plain evaluation says changed")
    func changedMatchesPlainEvaluation() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            let scheduler = TestScheduler()
            let recorder = TapeRecorder(scheduler: scheduler)
            let program = SumProgram()
            let tracer = TraceRecorder(paradigm: "Incremental") { program.inspect() }
            let following = tracer.follow(recorder)
            let channels = [
                recorder.channel("a") { (value: Int) in program.a.write(value) },
                recorder.channel("b") { (value: Int) in program.b.write(value) },
            ]
            // The reference: the four values, evaluated from scratch after each input.
            var values = ["a": 0, "b": 0, "sum": 0, "even": 1]
            var expected: [Set<String>] = []
            for _ in 0..<40 {
                let channel = Int.random(in: 0..<2, using: &random)
                let value = Int.random(in: 0..<4, using: &random)
                var next = values
                next[channel == 0 ? "a" : "b"] = value
                next["sum"] = next["a"]! + next["b"]!
                next["even"] = next["sum"]! % 2 == 0 ? 1 : 0
                expected.append(Set(next.keys.filter { next[$0] != values[$0] }))
                values = next
                channels[channel].send(value)
                scheduler.advance(by: .milliseconds(10))
            }
            let trace = tracer.trace
            let names = Dictionary(uniqueKeysWithValues: trace.graph.nodes.map { ($0.id, $0.name ?? $0.kind) })
            #expect(trace.steps.count == 40)
            for (step, wanted) in zip(trace.steps, expected) {
                #expect(Set(step.changed.map { names[$0]! }) == wanted, "seed \(seed)")
                // Only the observed node tells observers.
                #expect(Set(step.told.map { names[$0]! }) == wanted.intersection(["even"]), "seed \(seed)")
                #expect(step.gone == 0)
            }
            #expect(trace.steps.map(\.time) == (1...40).map { .milliseconds(10 * ($0 - 1)) })
            following.disconnect()
        }
    }

    @Test("a write of the same value is a step that changes nothing; a counter that moved is reported")
    func sameValueChangesNothing() {
        let program = SumProgram()
        let tracer = TraceRecorder(paradigm: "Incremental") { program.inspect() }
        program.a.write(0)
        tracer.step(channel: "a", input: "0", time: .zero)
        program.a.write(3)
        tracer.step(channel: "a", input: "3", time: .seconds(1))
        let steps = tracer.trace.steps
        #expect(steps[0].changed.isEmpty && steps[0].told.isEmpty && steps[0].values.isEmpty)
        #expect(steps[1].changed.count == 3)
        #expect(steps[1].counters["recomputations", default: 0] > 0)
        #expect(steps[1].values.map(\.value).sorted() == ["3", "3", "false"])
    }

    @Test("a follower that sends into the program during a step takes its own step after it")
    func reentrantSend() {
        let scheduler = TestScheduler()
        let recorder = TapeRecorder(scheduler: scheduler)
        let program = SumProgram()
        let tracer = TraceRecorder(paradigm: "Incremental") { program.inspect() }
        let following = tracer.follow(recorder)
        // The recorder keeps each channel's apply, and a channel keeps its recorder: a's apply
        // reaches b through a box emptied at the end, or the three would keep one another.
        let later = Box<TapeChannel<Int>?>(nil)
        let b = recorder.channel("b") { (value: Int) in program.b.write(value) }
        let a = recorder.channel("a") { (value: Int) in
            program.a.write(value)
            if value == 1 { later.value?.send(2) }  // an input that makes another
        }
        later.value = b
        a.send(1)
        following.disconnect()
        later.value = nil
        let trace = tracer.trace
        // b's step ran inside a's apply, before a's step: each saw the graph after its own
        // input, and nothing is counted twice.
        #expect(trace.steps.map(\.channel) == ["b", "a"])
        let names = Dictionary(uniqueKeysWithValues: trace.graph.nodes.map { ($0.id, $0.name ?? $0.kind) })
        #expect(Set(trace.steps[0].changed.map { names[$0]! }) == ["a", "b", "sum", "even"])
        #expect(trace.steps[1].changed.isEmpty)
    }

    @Test("past its capacity, a trace drops its oldest steps and counts them")
    func capacity() {
        let program = SumProgram()
        let tracer = TraceRecorder(paradigm: "Incremental", capacity: 3) { program.inspect() }
        for value in 1...5 {
            program.a.write(value)
            tracer.step(channel: "a", input: "\(value)", time: .seconds(value))
        }
        let trace = tracer.trace
        #expect(trace.dropped == 2)
        #expect(trace.steps.map(\.input) == ["3", "4", "5"])
    }

    @Test("a node that changed and is gone from the last inspection is counted, not named")
    func goneNodes() {
        let graph = Graph()
        let a = graph.input(1)
        a.debugName = "a"
        var extra: I<Int>? = a.map { $0 * 2 }
        extra?.debugName = "extra"
        var observation: Connection? = extra?.observe { _ in }
        let tracer = TraceRecorder(paradigm: "Incremental") {
            extra.map { graph.inspect([$0, a]) } ?? graph.inspect([a])
        }
        a.write(2)
        tracer.step(channel: "a", input: "2", time: .zero)
        observation?.disconnect()
        observation = nil
        extra = nil
        a.write(3)
        tracer.step(channel: "a", input: "3", time: .seconds(1))
        let trace = tracer.trace
        #expect(trace.graph.nodes.count == 1)
        #expect(trace.steps[0].changed == [0] && trace.steps[0].gone == 1)
        #expect(trace.steps[1].changed == [0] && trace.steps[1].gone == 0)
    }

    @Test("a replayed tape traces the same steps as the live run")
    func replayTracesTheSame() {
        func run(replaying tape: Tape?) -> (Trace, Tape) {
            let scheduler = TestScheduler()
            let recorder = TapeRecorder(scheduler: scheduler)
            let program = SumProgram()
            let tracer = TraceRecorder(paradigm: "Incremental") { program.inspect() }
            let following = tracer.follow(recorder)
            let a = recorder.channel("a") { (value: Int) in program.a.write(value) }
            let b = recorder.channel("b") { (value: Int) in program.b.write(value) }
            if let tape {
                let playing = recorder.replay(tape)
                scheduler.advance(by: .seconds(10))
                playing.disconnect()
            } else {
                for value in 1...6 {
                    (value.isMultiple(of: 2) ? a : b).send(value)
                    scheduler.advance(by: .milliseconds(value))
                }
            }
            following.disconnect()
            return (tracer.trace, recorder.tape)
        }
        let (live, tape) = run(replaying: nil)
        let (replayed, _) = run(replaying: tape)
        #expect(live == replayed)
        #expect(live.steps.count == 6)
    }

    @Test("steps taken from several threads are each whole, in the order they were taken")
    func concurrentSteps() async {
        let counter = LockedCounter()
        let tracer = TraceRecorder(paradigm: "Test") {
            Inspection(
                paradigm: "Test", nodes: [.init(id: 0, kind: "count", value: "\(counter.value)")], edges: [],
                statistics: [:])
        }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<100 {
                        counter.increment()
                        tracer.step(channel: "t\(thread)", input: "\(index)", time: .zero)
                    }
                }
            }
        }
        let trace = tracer.trace
        #expect(trace.steps.count == 400)
        // Each step names the node it saw change, with a value no step before it had.
        let values = trace.steps.flatMap(\.values).map { Int($0.value)! }
        #expect(values == values.sorted() && Set(values).count == values.count)
        #expect(values.last == 400)
    }

    @Test("followers run after each input in the order added, a disconnected one no more")
    func followers() {
        let scheduler = TestScheduler()
        let recorder = TapeRecorder(scheduler: scheduler)
        var log: [String] = []
        let channel = recorder.channel("x") { (value: Int) in log.append("apply \(value)") }
        let first = recorder.afterEachInput { log.append("first \($0.channel) \($0.anyValue)") }
        let second = recorder.afterEachInput { log.append("second \($0.value(as: Int.self)!)") }
        channel.send(1)
        first.disconnect()
        channel.send(2)
        second.disconnect()
        channel.send(3)
        #expect(log == ["apply 1", "first x 1", "second 1", "apply 2", "second 2", "apply 3"])
    }

    @Test("a trace that names a node its graph lacks, or a negative count, does not decode")
    func decodingRefusesWhatNoRecorderMakes() throws {
        let graph = Inspection(paradigm: "p", nodes: [.init(id: 0, kind: "input")], edges: [], statistics: [:])
        let valid = Trace(
            paradigm: "p", graph: graph, initial: [.init(id: 0, value: "1")],
            steps: [
                .init(time: .seconds(1), channel: "c", input: "2", changed: [0], values: [.init(id: 0, value: "2")])
            ])
        let decoded = try JSONDecoder().decode(Trace.self, from: JSONEncoder().encode(valid))
        #expect(decoded == valid)
        var unknownNode = valid
        unknownNode.steps[0].told = [7]
        var unknownInitial = valid
        unknownInitial.initial = [.init(id: 3, value: "x")]
        var negative = valid
        negative.dropped = -1
        var negativeTime = valid
        negativeTime.steps[0].time = .seconds(-1)
        for hostile in [unknownNode, unknownInitial, negative, negativeTime] {
            let data = try JSONEncoder().encode(hostile)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Trace.self, from: data) }
        }
    }

    @Test("merged inspections keep every node and edge, renumbered, and add up their statistics")
    func merging() {
        let first = Inspection(
            paradigm: "p", nodes: [.init(id: 5, kind: "a"), .init(id: 9, kind: "b")], edges: [.init(from: 5, to: 9)],
            statistics: ["x": 1])
        let second = Inspection(
            paradigm: "p", nodes: [.init(id: 0, kind: "c")], edges: [.init(from: 0, to: 0, label: "self")],
            statistics: ["x": 2, "y": 3])
        let merged = Inspection(paradigm: "p", merging: [first, second])
        #expect(merged.nodes.map(\.id) == [0, 1, 2] && merged.nodes.map(\.kind) == ["a", "b", "c"])
        #expect(merged.edges == [.init(from: 0, to: 1), .init(from: 2, to: 2, label: "self")])
        #expect(merged.statistics == ["x": 3, "y": 3])
    }

    @Test("a capacity that is not positive stops with a message")
    func misuse() async {
        let zero = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TraceRecorder(paradigm: "Test", capacity: 0) {
                Inspection(paradigm: "Test", nodes: [], edges: [], statistics: [:])
            }
        }
        expectStandardError(of: zero, contains: "TraceRecorder: capacity must be positive, not 0")
    }

    @Test("Resin: a history's steps carry the state diff the test store prints, per action")
    func resinHistory() {
        struct State: Equatable {
            var count = 0
            var names: [String] = []
        }
        enum Edit: Action {
            case add(String)
            case increment
            case nothing
        }
        let store = Store(initialState: State(), scheduler: TestScheduler())
        let reducer = store.register(
            Reducer<State, Edit> { state, edit in
                switch edit {
                case .add(let name): state.names.append(name)
                case .increment: state.count += 1
                case .nothing: break
                }
            })
        let history = store.recordHistory()
        let edits: [Edit] = [.increment, .add("milk"), .nothing, .add("</script>"), .increment]
        // The reference: each state computed plainly, and the diff between consecutive ones.
        var states = [State()]
        for edit in edits {
            store.dispatch(edit)
            var next = states.last!
            switch edit {
            case .add(let name): next.names.append(name)
            case .increment: next.count += 1
            case .nothing: break
            }
            states.append(next)
        }
        let trace = history.trace(of: store)
        #expect(trace.steps.count == edits.count)
        for (index, step) in trace.steps.enumerated() {
            let expected = StateDiff(from: states[index], to: states[index + 1]).changes
            #expect(step.diff.map { $0.path } == expected.map { $0.path })
            #expect(step.diff.map { $0.old } == expected.map { $0.old })
            #expect(step.diff.map { $0.new } == expected.map { $0.new })
            #expect(step.changed.isEmpty == expected.isEmpty)
            #expect(step.channel == "Edit")
        }
        #expect(trace.steps[2].diff.isEmpty)
        #expect(trace.paradigm == "Resin")
        reducer.disconnect()
        history.disconnect()
    }

    @Test("Resin: stateChanges gives the diff since its last call; none for a no-op or once the store is gone")
    func resinStateChanges() {
        enum Edit: Action {
            case add(String)
            case nothing
        }
        var store: Store<[String]>? = Store(initialState: [], scheduler: TestScheduler())
        let reducer = store!.register(
            Reducer<[String], Edit> { names, edit in
                if case .add(let name) = edit { names.append(name) }
            })
        let changes = store!.stateChanges()
        store!.dispatch(Edit.add("milk"))
        #expect(changes().map(\.new) == ["\"milk\""])
        #expect(changes().isEmpty)  // nothing since
        store!.dispatch(Edit.nothing)
        #expect(changes().isEmpty)
        // Two actions, one call: their changes together, against a plain diff of the states.
        store!.dispatch(Edit.add("eggs"))
        store!.dispatch(Edit.add("tea"))
        let expected = StateDiff(from: ["milk"], to: ["milk", "eggs", "tea"]).changes
        #expect(changes().map(\.path) == expected.map(\.path))
        // An action that reverts the state in the reducer that made it: no change at all.
        let revert = store!.register(
            Reducer<[String], Edit> { names, edit in
                if case .add = edit { names.removeLast() }
            })
        store!.dispatch(Edit.add("salt"))
        #expect(changes().isEmpty)
        revert.disconnect()
        reducer.disconnect()
        weak let released = store
        store = nil
        #expect(released == nil)  // the function does not keep the store
        #expect(changes().isEmpty)
    }
}

/// A counter several tasks increment.
private final class LockedCounter: Sendable {
    private let state = LockedBox(0)
    var value: Int { state.read { $0 } }
    func increment() { state.mutate { $0 += 1 } }
}

/// A value a closure reads later, set after the closure was made.
private final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
