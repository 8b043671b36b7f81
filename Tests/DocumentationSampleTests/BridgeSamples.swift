// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of the change vocabulary and the bridges (ReactiveCore's `Deltas` and each
// module's `Interop/Deltas.swift`), verbatim, with what they need around them.

import Cycle
import Dispatch
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals
import Testing

@Test func arrayDeltaSample() {
    var delta = ArrayDelta<String>()
    delta.append(.insert("Ada", at: 0))
    delta.append(.move(from: 0, to: 1))
    var names = ["Grace"]
    delta.apply(to: &names)   // ["Grace", "Ada"]
    #expect(names == ["Grace", "Ada"])
}

@Test func dictionaryDeltaSample() {
    var scores = ["Ada": 1]
    DictionaryDelta([.update("Ada", 2), .insert("Grace", 3)]).apply(to: &scores)
    // ["Ada": 2, "Grace": 3]
    #expect(scores == ["Ada": 2, "Grace": 3])
}

@Test func setDeltaSample() {
    var tags: Set = ["swift"]
    SetDelta([.insert("reactive"), .remove("swift")]).apply(to: &tags)   // ["reactive"]
    #expect(tags == ["reactive"])
}

@Test func driveSample() {
    let rows = ArrayVariable(["a", "b"])          // Glue
    let mirror = EditableArrayStorage<String>()    // SignalGraph
    let bridge = rows.drive(mirror)                // mirror.state == ["a", "b"]
    rows.append("c")                               // one transition: insert "c" at 2
    #expect(mirror.state == ["a", "b", "c"])
    bridge.disconnect()
}

private struct Tally { var count = 0 }

@Test func valueDeltasSample() {
    let store = Store(initialState: Tally(), scheduler: TestScheduler())
    let variable = Variable(0)
    let count = ValueDeltas(store.focus(\.count))   // a Resin focus
    let bridge = count.drive(variable)              // a Glue variable follows it
    #expect(variable.value == 0)
    bridge.disconnect()
}

@Test func storeDeltasSample() {
    let store = Store(initialState: Tally(), scheduler: TestScheduler())
    let countVariable = Variable(-1)
    let bridge = store.focus(\.count).drive(countVariable)   // a Glue Variable<Int>
    #expect(countVariable.value == 0)
    bridge.disconnect()
}

@Test func observableDeltasSample() {
    let price = Variable(3)
    let quantity = Variable(2)
    let graph = Graph()
    let totalInput = graph.input(0)
    let total = (price * quantity).deltas.drive(totalInput)   // an Incremental input
    #expect(totalInput.value == 6)
    total.disconnect()
}

private struct Row { var isVisible: Bool }

@Test func elementDeltasSample() {
    let graph = Graph()
    let rows = graph.arrayInput([Row(isVisible: true), Row(isVisible: false)])
    let storage = EditableArrayStorage<Row>()
    let visible = rows.filterElements { $0.isVisible }
    let bridge = visible.elementDeltas().drive(storage)   // a SignalGraph array storage
    #expect(storage.state.count == 1)
    bridge.disconnect()
}

@Test func storageDeltasSample() {
    let graph = Graph()
    let input = graph.arrayInput([String]())
    let rows = EditableArrayStorage(["a"])
    let bridge = rows.deltas().drive(input)   // an Incremental array input
    #expect(input.value.elements == ["a"])
    bridge.disconnect()
}

@Test func propertyTargetSample() {
    let graph = Graph()
    let reading = graph.input(21)
    let temperature = Property(value: 0)
    let bridge = reading.drive(temperature)   // `reading`: an Incremental node
    #expect(temperature.value == 21)
    bridge.disconnect()
}

@Test func subscriptionDriverSample() {
    let graph = Graph()
    let total = graph.input(5)
    let prices = SubscriptionDriver(total)   // `total`: an Incremental node
    // in eventsFrom(effects:): prices.rendered(effects.map(\.listening)).map(Event.total)
    var heard: [Int] = []
    let connection = prices.rendered(.of(true)).subscribe { heard.append($0) }
    #expect(heard == [5])
    connection.disconnect()
}

@Test func mixingTransactionSample() {
    let first = Variable("Ada")
    let last = Variable("Lovelace")
    let graph = Graph()
    let firstInput = graph.input("")
    let lastInput = graph.input("")
    let bridges = [first.drive(firstInput), last.drive(lastInput)]
    let full = map2(firstInput, lastInput) { "\($0) \($1)" }
    let watching = full.observe { print($0) }   // "Ada Lovelace"
    withTransaction([first, last]) {
        first.value = "Grace"
        last.value = "Hopper"
    }                                           // "Grace Hopper", never "Grace Lovelace"
    #expect(full.value == "Grace Hopper")
    watching.disconnect()
    for bridge in bridges { bridge.disconnect() }
}

enum MixingArticle {
    struct Summary: Equatable { var items = 0 }
    struct Screen { var summary = Summary() }
    struct SummaryChanged: Action { var summary: Summary }

    final class StoreTarget: DeltaTarget {
        let store: Store<Screen>

        init(_ store: Store<Screen>) {
            self.store = store
        }

        func apply(_ deltas: [Summary]) {
            if let last = deltas.last { store.dispatch(SummaryChanged(summary: last)) }
        }
    }
}

@Test func mixingStoreTargetSample() {
    let store = Store(initialState: MixingArticle.Screen(), scheduler: TestScheduler())
    let reducer = store.register(
        Reducer<MixingArticle.Screen, MixingArticle.SummaryChanged> { screen, change in screen.summary = change.summary })
    let graph = Graph()
    let items = graph.input(MixingArticle.Summary(items: 3))
    let bridge = items.drive(MixingArticle.StoreTarget(store))
    #expect(store.state.value.summary.items == 3)
    bridge.disconnect()
    reducer.disconnect()
}

@Test func inspectionSample() {
    let graph = Graph()
    let price = graph.input(3)
    let total = price.map { $0 * 2 }
    let inspection = total.inspect()   // an Incremental node
    print(inspection.dot)              // paste into `dot -Tsvg`
    #expect(inspection.nodes.count == 2)
}

@Test func tapeSample() throws {
    let scheduler = TestScheduler()
    let graph = Graph()
    let input = graph.input(0)
    let recorder = TapeRecorder(scheduler: scheduler)
    let celsius = recorder.channel("celsius") { (value: Int) in input.write(value) }
    celsius.send(21)                 // written, and recorded at the scheduler's time
    let tape = recorder.tape         // save it with JSONEncoder
    #expect(input.value == 21 && tape.entries.count == 1)
}

@Test func tapeDriverSample() {
    let scheduler = TestScheduler()
    let replayRecorder = TapeRecorder(scheduler: TestScheduler())
    var tape = Tape()
    let recorder = TapeRecorder(scheduler: scheduler)
    let screen = TapeDriver(recording: TerminalDriver(), on: recorder, channel: "screen")
    // later, in a program built afresh on a new recorder and a fresh TestScheduler:
    let replayed = TapeDriver<TerminalDriver>(replayingOn: replayRecorder, channel: "screen")
    let playing = replayRecorder.replay(tape)
    tape = recorder.tape
    _ = (screen, replayed, tape)
    playing.disconnect()
}

enum HopSamples {
    struct Network: Equatable { var isOnline = false }
    struct IsOnline: Action {
        var isOnline: Bool
        init(_ isOnline: Bool) { self.isOnline = isOnline }
    }
    final class Monitor: Sendable {
        let isOnline = Property(value: true)
    }
    struct Summary: Equatable { var items = 0 }
    struct SummaryChanged: Action { var summary: Summary }
    struct Screen: Equatable {
        var network = Network()
        var summary = Summary()
    }
}

/// Lets the main queue run what was dispatched to it before now.
@MainActor private func mainQueueRuns() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

@Test @MainActor func propertyDriveSample() async {
    typealias IsOnline = HopSamples.IsOnline
    let monitor = HopSamples.Monitor()
    let store = Store(initialState: HopSamples.Network(), scheduler: TestScheduler())
    let reducer = store.register(Reducer<HopSamples.Network, IsOnline> { state, action in state.isOnline = action.isOnline })
    let mirror = Property(value: false)
    let bridge = monitor.isOnline.drive(mirror)                      // Sendable: any thread
    let toStore = monitor.isOnline.drive(store.actionTarget { IsOnline($0) }, on: .main)
    #expect(mirror.value == true)
    await mainQueueRuns()
    #expect(store.state.value.isOnline == true)
    DispatchQueue.global().sync { monitor.isOnline.value = false }
    #expect(mirror.value == false)
    await mainQueueRuns()
    #expect(store.state.value.isOnline == false)
    bridge.disconnect()
    toStore.disconnect()
    reducer.disconnect()
}

@Test @MainActor func actionTargetSample() async {
    typealias IsOnline = HopSamples.IsOnline
    typealias SummaryChanged = HopSamples.SummaryChanged
    let monitor = HopSamples.Monitor()
    let store = Store(initialState: HopSamples.Screen(), scheduler: TestScheduler())
    let reducers = [
        store.register(Reducer<HopSamples.Screen, IsOnline> { state, action in state.network.isOnline = action.isOnline }),
        store.register(Reducer<HopSamples.Screen, SummaryChanged> { state, action in state.summary = action.summary }),
    ]
    let graph = Graph()
    let summary = graph.input(HopSamples.Summary(items: 2))
    let bridge = summary.drive(store.actionTarget { SummaryChanged(summary: $0) })     // Incremental
    let online = monitor.isOnline.drive(store.actionTarget { IsOnline($0) }, on: .main)  // Signals, with a hop
    #expect(store.state.value.summary.items == 2)
    summary.write(HopSamples.Summary(items: 5))
    #expect(store.state.value.summary.items == 5)
    await mainQueueRuns()
    #expect(store.state.value.network.isOnline == true)
    bridge.disconnect()
    online.disconnect()
    for reducer in reducers { reducer.disconnect() }
}
