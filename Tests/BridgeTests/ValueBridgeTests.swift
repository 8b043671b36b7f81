import Cycle
import Dispatch
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals
import TestSupport
import Testing

private struct Counter: Equatable {
    var count = 0
    var label = "none"
}

private struct Add: Action { var amount: Int }
private struct Rename: Action { var label: String }

/// A loop whose one driver listens to a source while its model says so.
private struct Listener: SinkSourceConverting {
    enum DriverEvent: Equatable { case started, heard(Int) }
    struct DriverModels: Equatable {
        var listening = false
        var heard: [Int] = []
    }

    let driver: SubscriptionDriver<Variable<Int>>

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        driver.rendered(effects.map(\.listening)).map(DriverEvent.heard)
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var new = models
            switch event {
            case .started: new.listening = true
            case .heard(let value):
                new.heard.append(value)
                if value < 0 { new.listening = false }
            }
            return new
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}

@Suite("Value bridges")
struct ValueBridgeTests {
    @Test("a Resin focus drives a Glue variable: one Glue transaction per action that changes the focused part")
    func resinToGlue() {
        let store = Store(initialState: Counter(), scheduler: TestScheduler())
        let reducers = [
            store.register(Reducer<Counter, Add> { state, add in state.count += add.amount }),
            store.register(Reducer<Counter, Rename> { state, rename in state.label = rename.label }),
        ]
        let count = Variable(-1)
        let bridge = store.focus(\.count).drive(count)
        #expect(count.value == 0)
        var changes: [ValueChange<Int>] = []
        let watch = count.changes.subscribe { changes.append($0) }
        store.dispatch(Add(amount: 2))
        store.dispatch(Rename(label: "x"))
        store.dispatch(Add(amount: 3))
        #expect(count.value == 5)
        #expect(changes.map(\.new) == [2, 5], "an action that leaves the focused part alone sends nothing")
        watch.disconnect()
        bridge.disconnect()
        for reducer in reducers { reducer.disconnect() }
    }

    @Test("an Incremental node drives a Signals property; the property drives an Incremental input back")
    func incrementalAndSignals() {
        let graph = Graph()
        let celsius = graph.input(20)
        let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
        let property = Property(value: 0)
        let toSignals = fahrenheit.drive(property)
        #expect(property.value == 68)
        celsius.write(100)
        #expect(property.value == 212)
        let mirror = graph.input(0)
        let fromSignals = property.driveOnWritingThread(mirror)
        #expect(mirror.value == 212)
        celsius.write(0)
        #expect(mirror.value == 32, "written inline on the thread that wrote the property: this one")
        toSignals.disconnect()
        fromSignals.disconnect()
        celsius.write(10)
        #expect(property.value == 32 && mirror.value == 32)
    }

    @Test(
        "writes to a Signals property from many threads reach an Incremental graph on its own queue, the last one last")
    func signalsConcurrentlyIntoIncremental() async {
        let queue = DispatchQueue(label: "graph")
        let property = Property(value: -1)
        let box = queue.sync { GraphBox(property: property, queue: queue) }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<200 { property.value = thread * 1_000 + index }
        }
        let final = property.value
        let arrived = await eventually { queue.sync { box.input.value == final } }
        #expect(arrived)
        #expect(queue.sync { box.doubledSeen.last } == final * 2)
        queue.sync { box.close() }
    }

    @Test("a Cycle driver built from a Glue variable reports its values while its model listens")
    func cycleDriverFromSubscribable() {
        let source = Variable(1)
        let loop = CycleLoop(program: Listener(driver: SubscriptionDriver(source)))
        source.value = 2
        source.value = -3
        source.value = 4
        #expect(loop.currentModels.heard == [1, 2, -3], "a negative value stops the listening")
        #expect(!loop.currentModels.listening)
        loop.dispose()
    }

    @Test("a Cycle loop's models drive an Incremental input, one propagation per event")
    func cycleToIncremental() {
        let source = Variable(1)
        let loop = CycleLoop(program: Listener(driver: SubscriptionDriver(source)))
        let graph = Graph()
        let models = graph.input(Listener.DriverModels())
        let bridge = loop.drive(models)
        let total = models.map { $0.heard.reduce(0, +) }
        var totals: [Int] = []
        let watch = total.observe { totals.append($0) }
        source.value = 5
        source.value = 6
        #expect(totals == [1, 6, 12])
        watch.disconnect()
        bridge.disconnect()
        loop.dispose()
    }

    @Test("a handler on the driven side that writes back to the source: both settle on the value written back")
    func reentrantWriteBack() {
        let source = Variable(0)
        let graph = Graph()
        let input = graph.input(0)
        let bridge = source.drive(input)
        let clamp = input.observe { value in
            if value > 10 { source.value = 10 }
        }
        source.value = 50
        #expect(source.value == 10)
        #expect(input.value == 10)
        clamp.disconnect()
        bridge.disconnect()
    }

    @Test(
        "a handler on the driven side that disconnects the bridge: nothing more arrives, and the graph's batch is closed"
    )
    func reentrantDisconnect() {
        let source = Variable(0)
        let graph = Graph()
        let input = graph.input(0)
        var bridge: Connection?
        bridge = source.drive(input)
        let stop = input.observe { value in
            if value == 1 { bridge?.disconnect() }
        }
        source.value = 1
        source.value = 2
        #expect(input.value == 1)
        let other = graph.input(0)
        var seen: [Int] = []
        let watch = other.observe { seen.append($0) }
        other.write(3)
        #expect(seen == [0, 3], "a write after the disconnect propagates at once: no batch was left open")
        stop.disconnect()
        watch.disconnect()
    }

    @Test("after a bridge disconnects, its source, its target and what the bridge held are freed")
    func leaks() {
        weak var glueArray: ArrayVariable<Int>?
        weak var storage: EditableArrayStorage<Int>?
        weak var graph: Graph?
        weak var store: Store<Counter>?
        weak var variable: Variable<Int>?
        weak var property: Property<Int>?
        do {
            let rows = ArrayVariable([1, 2])
            let mirror = EditableArrayStorage<Int>()
            let graphObject = Graph()
            let input = graphObject.arrayInput([Int]())
            let storeObject = Store(initialState: Counter(), scheduler: TestScheduler())
            let count = Variable(0)
            let signals = Property(value: 0)
            let bridges = [
                rows.drive(mirror), mirror.deltas().drive(input), input.elementDeltas().drive(ArrayVariable<Int>()),
                storeObject.focus(\.count).drive(count), count.drive(signals),
            ]
            rows.append(3)
            #expect(input.count == 3)
            for bridge in bridges { bridge.disconnect() }
            (glueArray, storage, graph, store, variable, property) = (
                rows, mirror, graphObject, storeObject, count, signals
            )
        }
        #expect(glueArray == nil && storage == nil && graph == nil)
        #expect(store == nil && variable == nil && property == nil)
    }
}

/// A graph that lives on one queue, driven by a Signals property dispatched to it.
private final class GraphBox: @unchecked Sendable {
    // Unchecked: every member is used on `queue` only (the tests call in with `queue.sync`,
    // and the bridge delivers there).
    let graph = Graph()
    let input: Input<Int>
    var doubledSeen: [Int] = []
    private var connections: [Connection] = []

    init(property: Property<Int>, queue: DispatchQueue) {
        input = graph.input(0)
        connections.append(input.map { $0 * 2 }.observe { [unowned self] in doubledSeen.append($0) })
        connections.append(ValueDeltas(property.didSet.dispatch(to: queue)).drive(input))
    }

    func close() {
        for connection in connections { connection.disconnect() }
    }
}
