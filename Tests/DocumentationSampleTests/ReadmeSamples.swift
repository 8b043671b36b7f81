// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of the README, verbatim (their `import` lines are at the top of this file),
// with what they need around them. They run as tests, so the README's promises are checked.

import Cycle
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals
import Testing

@Test func readmeSignalGraph() {
    struct Row { var name: String; var score: Int; var done: Bool }

    let rows = EditableDictionaryStorage<Int, Row>()
    let visible = DictionaryFilteringDictionaryStorage<Int, Row> { _, row in !row.done }
    let sorted = DictionarySortingArrayStorage<Int, Row> { $0.value.score < $1.value.score }
    rows.register(visible)
    visible.register(sorted)
    rows[1] = Row(name: "Ada", score: 3, done: false)   // reaches `sorted` in O(log n)
    visible.deregister(sorted)                          // and tear down what you set up
    rows.deregister(visible)
}

@Test @MainActor func readmeGlue() {
    let first = Variable("Ada")
    let last = Variable("Byron")
    let fullName = first.combined(last) { "\($0) \($1)" }
    let connection = fullName.subscribe { print($0) }     // "Ada Byron"
    withTransaction([first, last]) {
        first.value = "Augusta"
        last.value = "King"
    }                                                      // "Augusta King", once: no mix
    #expect(fullName.value == "Augusta King")
    connection.disconnect()
}

@Test func readmeIncremental() {
    let graph = Graph()
    let price = graph.input(10)
    let quantity = graph.input(3)
    let total = map2(price, quantity) { $0 * $1 }
    let connection = total.observe { print($0) }          // 30
    graph.batch { price.write(12); quantity.write(4) }   // 48, once
    #expect(total.value == 48)
    connection.disconnect()
}

@Test @MainActor func readmeResin() {
    struct AppState { var count = 0; var navigation = NavigationState() }
    struct Increment: Action {}

    let store = Store(initialState: AppState())
    // Each registration lasts while its connection is held.
    let counting = store.focus(\.count).register(Reducer<Int, Increment> { count, _ in count += 1 })
    let navigation = store.register(Parcel.navigation.focused(on: \AppState.navigation))
    let connection = store.focus(\.count).state.observe { print($0) }   // 0
    store.dispatch(Increment())                                          // 1
    #expect(store.state.value.count == 1)
    _ = (counting, navigation, connection)
}

@Test func readmeCycle() {
    struct Ticker: SinkSourceConverting {
        enum DriverEvent { case started, timer(TimerEvent) }
        struct DriverModels { var timer = TimerModel.ticking(every: .seconds(1)); var count = 0 }
        let timer: TimerDriver

        func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
            timer.rendered(effects.map(\.timer)).map(DriverEvent.timer)
        }
        func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
            events.map { event, models in
                var models = models
                if case .timer = event { models.count += 1 }
                if models.count == 3 { models.timer = .stopped }   // the reducer stops the driver
                return models
            }
        }
        func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
    }

    let scheduler = TestScheduler()
    let loop = CycleLoop(program: Ticker(timer: TimerDriver(scheduler: scheduler)))
    scheduler.advance(by: .seconds(5))   // virtual time: no waiting
    print(loop.currentModels.count)      // 3
    #expect(loop.currentModels.count == 3)
    #expect(scheduler.pendingCount == 0)   // the reducer stopped the timer
    loop.dispose()
}

@Test func readmeSignals() {
    let property = Property<Int>(value: 0)
    let observables = ObservableCollection()
    property.didSet
        .filter { $0 >= 100 }
        .then { print("at least 100: \($0)") }   // on the main queue unless the chain says otherwise
        .append(to: observables)
    property.value += 150                        // atomic, from any thread
    #expect(property.value == 150)
    observables.removeAll()
}

@Test func readmeReactiveCore() {
    let connector = Connector()
    let scheduler = TestScheduler()
    scheduler.schedule(every: .seconds(1)) { print("tick") }.putInto(connector)
    scheduler.advance(by: .seconds(3))   // "tick" three times, instantly
    connector.disconnect()
}
