import Cycle
import Foundation
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals
import TestSupport
import Testing

/// A program built on a recorder: how to send it one random input, and what it has shown so
/// far (each output with the virtual time it was shown).
private struct TapedProgram<Output: Equatable> {
    var sendRandom: (inout SeededGenerator) -> Void
    var outputs: () -> [Output]
    var close: () -> Void = {}
}

/// A value shown at a virtual time.
private struct Shown<Value: Equatable>: Equatable {
    var time: SchedulerInstant
    var value: Value
}

/// Records random inputs into a program, saves the tape as JSON and loads it, replays it into
/// the program built afresh on a fresh `TestScheduler`, and checks that the replay shows the
/// same outputs at the same times, and records the same tape.
private func expectRoundTrip<Output: Equatable>(
    seed: UInt64, steps: Int = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (TapeRecorder, TestScheduler, _ replaying: Bool) -> TapedProgram<Output>
) throws {
    let scheduler = TestScheduler()
    let recorder = TapeRecorder(scheduler: scheduler)
    let program = make(recorder, scheduler, false)
    var random = SeededGenerator(seed: seed)
    for _ in 0..<steps {
        program.sendRandom(&random)
        scheduler.advance(by: .milliseconds(Int.random(in: 0..<3, using: &random) * 10))
    }
    let recorded = program.outputs()
    program.close()
    let data = try JSONEncoder().encode(recorder.tape)
    let decoder = JSONDecoder()
    decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
    let tape = try decoder.decode(Tape.self, from: data)
    #expect(tape.entries.count == recorder.tape.entries.count, sourceLocation: sourceLocation)

    let replayScheduler = TestScheduler()
    let replayRecorder = TapeRecorder(scheduler: replayScheduler)
    let replayed = make(replayRecorder, replayScheduler, true)
    let playing = replayRecorder.replay(tape)
    replayScheduler.advance(to: scheduler.now)
    #expect(replayed.outputs() == recorded, sourceLocation: sourceLocation)
    #expect(recorded.count > 1, sourceLocation: sourceLocation)
    let again = replayRecorder.tape.entries.map { "\($0.time) \($0.channel)" }
    #expect(again == recorder.tape.entries.map { "\($0.time) \($0.channel)" }, sourceLocation: sourceLocation)
    playing.disconnect()
    replayed.close()
}

private struct Pair: Codable, Equatable {
    var key: Int
    var value: Int
}

private enum Count: Action, Codable {
    case add(Int)
    case reset
}

@Suite("Tapes: record, save, replay")
struct TapeTests {
    @Test("Incremental: writes to two inputs, replayed, show the same derived values at the same times")
    func incremental() throws {
        try expectRoundTrip(seed: 1) { recorder, scheduler, replaying -> TapedProgram<Shown<Int>> in
            let graph = Graph()
            let (a, b) = (graph.input(0), graph.input(0))
            let channels = [recorder.channel("a") { a.write($0) }, recorder.channel("b") { b.write($0) }]
            var shown: [Shown<Int>] = []
            let watching = map2(a, b) { $0 * 10 + $1 }.observe { shown.append(Shown(time: scheduler.now, value: $0)) }
            return TapedProgram(
                sendRandom: { random in
                    channels[Int.random(in: 0..<2, using: &random)].send(Int.random(in: 0..<5, using: &random))
                },
                outputs: { shown }, close: { watching.disconnect() })
        }
    }

    @Test("Glue: appends and removals of an array variable, replayed, give the same changes")
    func glue() throws {
        try expectRoundTrip(seed: 2) { recorder, scheduler, replaying -> TapedProgram<Shown<[Int]>> in
            let numbers = ArrayVariable<Int>()
            let append = recorder.channel("append") { numbers.append($0) }
            let remove = recorder.channel("remove") { (index: Int) in
                if !numbers.value.isEmpty { numbers.remove(at: index % numbers.value.count) }
            }
            var shown: [Shown<[Int]>] = []
            let watching = numbers.changes.subscribe { _ in
                shown.append(Shown(time: scheduler.now, value: numbers.value))
            }
            return TapedProgram(
                sendRandom: { random in
                    if Bool.random(using: &random) {
                        append.send(Int.random(in: 0..<9, using: &random))
                    } else {
                        remove.send(Int.random(in: 0..<9, using: &random))
                    }
                }, outputs: { shown }, close: { watching.disconnect() })
        }
    }

    @Test("SignalGraph: mutations of a dictionary storage, replayed, send the same signals")
    func signalGraph() throws {
        try expectRoundTrip(seed: 3) { recorder, scheduler, replaying -> TapedProgram<Shown<[Int: Int]>> in
            let rows = EditableDictionaryStorage<Int, Int>()
            let upsert = recorder.channel("upsert") { (pair: Pair) in rows[pair.key] = pair.value }
            let delete = recorder.channel("delete") { (key: Int) in rows[key] = nil }
            var shown: [Shown<[Int: Int]>] = []
            let watching = rows.subscribe { _ in shown.append(Shown(time: scheduler.now, value: rows.state)) }
            return TapedProgram(
                sendRandom: { random in
                    let key = Int.random(in: 0..<4, using: &random)
                    if Int.random(in: 0..<3, using: &random) == 0 {
                        delete.send(key)
                    } else {
                        upsert.send(Pair(key: key, value: Int.random(in: 0..<9, using: &random)))
                    }
                }, outputs: { shown }, close: { watching.disconnect() })
        }
    }

    @Test("Resin: actions, replayed, give the same states")
    func resin() throws {
        try expectRoundTrip(seed: 4) { recorder, scheduler, replaying -> TapedProgram<Shown<Int>> in
            let store = Store(initialState: 0, scheduler: scheduler)
            let reducer = store.register(
                Reducer<Int, Count> { state, action in
                    switch action {
                    case .add(let amount): state += amount
                    case .reset: state = 0
                    }
                })
            let actions = recorder.channel("actions") { (action: Count) in _ = store.dispatch(action) }
            var shown: [Shown<Int>] = []
            let watching = store.subscribe { shown.append(Shown(time: scheduler.now, value: $0)) }
            return TapedProgram(
                sendRandom: { random in
                    actions.send(
                        Int.random(in: 0..<5, using: &random) == 0
                            ? .reset : .add(Int.random(in: 1..<4, using: &random)))
                }, outputs: { shown },
                close: {
                    watching.disconnect()
                    reducer.disconnect()
                })
        }
    }

    @Test(
        "Cycle: a driver's events, recorded by a tape driver and replayed with no driver running, give the same models")
    func cycle() throws {
        try expectRoundTrip(seed: 5) { recorder, scheduler, replaying -> TapedProgram<Shown<Int>> in
            // Recording wraps a scripted driver the test plays; replaying runs no driver.
            let script = DriverScript<Int, String>()
            let screen =
                replaying
                ? TapeDriver<DriverScript<Int, String>>(replayingOn: recorder, channel: "screen")
                : TapeDriver(recording: script, on: recorder, channel: "screen")
            let loop = CycleLoop(program: Typing(screen: screen))
            var shown: [Shown<Int>] = []
            let watching = loop.modelChanges.subscribe { shown.append(Shown(time: scheduler.now, value: $0)) }
            return TapedProgram(
                sendRandom: { random in script.play(["a", "bb", "ccc"][Int.random(in: 0..<3, using: &random)]) },
                outputs: { shown },
                close: {
                    watching.disconnect()
                    loop.dispose()
                })
        }
    }

    @Test("Signals: writes to a property, replayed, reach an inline chain with the same values at the same times")
    func signals() throws {
        try expectRoundTrip(seed: 6) { recorder, scheduler, replaying -> TapedProgram<Shown<Int>> in
            let property = Property(value: 0)
            let set = recorder.channel("set") { property.value = $0 }
            let shown = LockedBox<[Shown<Int>]>([])
            let chains = ObservableCollection()
            property.didSet.noDispatch().map { $0 * 2 }.then { value in
                shown.mutate { $0.append(Shown(time: scheduler.now, value: value)) }
            }.append(to: chains)
            return TapedProgram(
                sendRandom: { random in set.send(Int.random(in: 0..<6, using: &random)) },
                outputs: { shown.read { $0 } }, close: { chains.removeAll() })
        }
    }

    @Test("a tape with a value that is not Codable cannot be saved, and says which channel")
    func notCodable() {
        final class Opaque {}
        let recorder = TapeRecorder(scheduler: TestScheduler())
        recorder.channel("opaque") { (_: Opaque) in }.send(Opaque())
        #expect(recorder.valueTypes.channels.isEmpty)
        #expect(recorder.tape.entries.first?.value(as: Opaque.self) != nil)
        do {
            _ = try JSONEncoder().encode(recorder.tape)
            Issue.record("encoded a value that is not Codable")
        } catch {
            #expect("\(error)".contains("channel \"opaque\""))
        }
    }

    @Test("a tape read without its channels' types says which channel is unknown")
    func unknownChannel() throws {
        let recorder = TapeRecorder(scheduler: TestScheduler())
        recorder.channel("a") { (_: Int) in }.send(1)
        let data = try JSONEncoder().encode(recorder.tape)
        #expect(throws: TapeError.self) { try JSONDecoder().decode(Tape.self, from: data) }
    }

    @Test("a second channel of one name, and a replay of a channel the program lacks, stop with a message")
    func misuse() async {
        let twice = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TapeRecorder(scheduler: TestScheduler())
            _ = recorder.channel("a") { (_: Int) in }
            _ = recorder.channel("a") { (_: Int) in }
        }
        expectStandardError(of: twice, contains: "TapeRecorder: a second channel named a;")
        let unknown = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TapeRecorder(scheduler: TestScheduler())
            recorder.channel("a") { (_: Int) in }.send(1)
            _ = TapeRecorder(scheduler: TestScheduler()).replay(recorder.tape)
        }
        expectStandardError(of: unknown, contains: "TapeRecorder.replay: the tape has channel a,")
    }

    @Test(
        "a tape in memory replayed into a program whose channel changed type is refused before anything runs, naming the channel"
    )
    func changedType() async {
        let changed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TapeRecorder(scheduler: TestScheduler())
            recorder.channel("count") { (_: Int) in }.send(1)
            let scheduler = TestScheduler()
            let replaying = TapeRecorder(scheduler: scheduler)
            _ = replaying.channel("count") { (_: String) in }
            _ = replaying.replay(recorder.tape)
            scheduler.advance()
        }
        expectStandardError(
            of: changed, contains: "TapeRecorder.replay: channel count takes String, but the tape holds a Int for it")
    }

    @Test("a tape's times: one past 64 bits of nanoseconds is not encoded, a negative one is not decoded")
    func extremeTimes() throws {
        let scheduler = TestScheduler()
        let recorder = TapeRecorder(scheduler: scheduler)
        let channel = recorder.channel("a") { (_: Int) in }
        scheduler.advance(by: .seconds(Int64.max / 2))
        channel.send(1)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(recorder.tape) }
        let negative = Data(#"{"entries":[{"time":-1,"channel":"a","value":1}]}"#.utf8)
        let decoder = JSONDecoder()
        decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
        #expect(throws: DecodingError.self) { try decoder.decode(Tape.self, from: negative) }
    }
}

/// A Cycle program: the screen driver reports typed words; the model is the letters typed.
private struct Typing: SinkSourceConverting {
    let screen: TapeDriver<DriverScript<Int, String>>

    func eventsFrom(effects: EventStream<Int>) -> EventStream<String> {
        screen.rendered(effects)
    }

    func effectsFrom(events: EventStream<(String, Int)>) -> EventStream<Int> {
        events.map { word, letters in letters + word.count }
    }

    func start() -> (String, Int) { ("", 0) }
}
