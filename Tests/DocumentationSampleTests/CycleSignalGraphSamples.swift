// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Cycle's and SignalGraph's articles and doc comments, verbatim, with what
// they need around them.

import Cycle
import Dispatch
import Foundation
import Observation
import ReactiveCore
import SignalGraph
import Testing

// MARK: Cycle

@Test func componentSample() {
    struct Counter { var count = 0 }
    enum CounterEvent { case increment, decrement }
    let counter = Component<CounterEvent, Counter> { event, counter in
        switch event {
        case .increment: counter.count += 1
        case .decrement: counter.count -= 1
        }
    }

    struct Models { var left = Counter(); var right = Counter(); var screen = TerminalFrame() }
    enum Event { case left(CounterEvent), right(CounterEvent), key(TerminalEvent) }

    let reducer = Component<Event, Models>.combine(
        counter.isolated(\.left, events: { if case .left(let event) = $0 { event } else { nil } }),
        counter.isolated(\.right, events: { if case .right(let event) = $0 { event } else { nil } }),
        Component { _, models in models.screen = TerminalFrame(["\(models.left.count) \(models.right.count)"]) })
    var models = Models()
    reducer.reduce(.left(.increment), into: &models)
    #expect(models.screen == TerminalFrame(["1 0"]))
}

@Test func componentForEachSample() {
    struct Counter { let id: Int; var count = 0 }
    enum CounterEvent { case increment }
    let counter = Component<CounterEvent, Counter> { _, counter in counter.count += 1 }

    struct Models { var counters: [Counter] = [] }   // Counter has `let id: Int`
    enum Event { case add(id: Int), remove(id: Int), counter(id: Int, CounterEvent) }

    let reducer = Component<Event, Models>.combine(
        Component { event, models in
            switch event {
            case .add(let id): models.counters.append(Counter(id: id))
            case .remove(let id): models.counters.removeAll { $0.id == id }
            case .counter: break
            }
        },
        counter.forEach(\.counters, id: \.id, events: {
            if case .counter(let id, let event) = $0 { (id, event) } else { nil }
        }))
    var models = Models()
    reducer.reduce(.add(id: 1), into: &models)
    reducer.reduce(.counter(id: 1, .increment), into: &models)
    #expect(models.counters.map(\.count) == [1])
}

@Test func keyValueStorageDriverSample() {
    let storage = KeyValueStorageDriver(store: UserDefaultsKeyValueStore(prefix: "todo."))
    // models: nil until .loaded(entries) arrives, then the entries the program wants kept
    _ = storage
}

private struct ComponentProgram {
    struct Models {}
    enum Event {}
    let reducer = Component<Event, Models> { _, _ in }

    func effectsFrom(events: EventStream<(Event, Models)>) -> EventStream<Models> {
        reducer.effects(from: events)
    }
}

@Test func eventStreamSamples() {
    let subject = EventSubject<Int>()
    let numbers = subject.stream
    let doubled = numbers.map { $0 * 2 }.filter { $0 > 10 }
    let scheduler = TestScheduler()
    let typed = EventSubject<String>().stream
    let edits = EventSubject<String>().stream
    let queries = typed.paced(.throttle(latest: true), pause: .milliseconds(300), scheduler: scheduler)
    let saves = edits.paced(.debounce, pause: .seconds(1), scheduler: scheduler)
    _ = (doubled, queries, saves)
}

private enum LoopSample {
struct Counter: SinkSourceConverting {
    enum DriverEvent { case started, timer(TimerEvent), screen(TerminalEvent) }
    struct DriverModels { var timer = TimerModel.stopped; var screen = TerminalFrame() }
    let timer: TimerDriver
    let screen: TerminalDriver

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        .merge(
            timer.rendered(effects.map(\.timer)).map(DriverEvent.timer),
            screen.rendered(effects.map(\.screen)).map(DriverEvent.screen))
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in reduce(event, models) }
    }

    func reduce(_ event: DriverEvent, _ models: DriverModels) -> DriverModels {
        var models = models
        if case .screen(.key("s")) = event { models.timer = .ticking(every: .seconds(1)) }
        return models
    }

    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}
}

/// The shape of `Examples/CycleDownload`'s program, for the module page's sample.
private struct Download: SinkSourceConverting {
    struct Saved: Codable, Equatable, Sendable {}
    enum DriverEvent { case started }
    struct DriverModels {}
    let url: URL
    let network: HTTPDriver
    let screen: TerminalDriver
    let session: SessionDriver<Saved>

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> { .empty }
    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { $1 }
    }
    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}

private func cycleOverviewSample(url: URL, sessionFile: URL) -> Never {
    let loop = CycleLoop(program: Download(url: url, network: HTTPDriver(), screen: TerminalDriver(),
                                           session: SessionDriver(url: sessionFile)))
    withExtendedLifetime(loop) {
        dispatchMain()   // the loop runs on the main queue
    }
}

private struct App: SinkSourceConverting {
    enum DriverEvent { case started, screen(TerminalEvent), timer(TimerEvent) }
    struct DriverModels { var screen = TerminalFrame(); var timer = TimerModel.stopped }
    let screen: DriverScript<TerminalFrame, TerminalEvent>
    let timer: TimerDriver

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        .merge(
            screen.rendered(effects.map(\.screen)).map(DriverEvent.screen),
            timer.rendered(effects.map(\.timer)).map(DriverEvent.timer))
    }
    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var models = models
            switch event {
            case .screen(.key("d")): models.timer = .ticking(every: .seconds(1))
            case .timer: models.screen = TerminalFrame(["..."]); models.timer = .stopped
            default: break
            }
            return models
        }
    }
    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}

@Test func driverScriptSample() {
    let scheduler = TestScheduler()
    let screen = DriverScript<TerminalFrame, TerminalEvent>()
    let loop = CycleLoop(program: App(screen: screen, timer: TimerDriver(scheduler: scheduler)))
    screen.play(.key("d"))
    scheduler.advance(by: .seconds(1))
    #expect(screen.rendered.last == TerminalFrame(["..."]))
    loop.dispose()
}

@Test func cycleInteropSamples() {
    struct Socket { let messages = AsyncStream<String> { $0.finish() } }
    let socket = Socket()
    let inbox = Inbox<String>(scheduler: TestScheduler()) { print($0) }
    let feeding = inbox.feed(from: socket.messages)
    feeding.disconnect()
    let scheduler = TestScheduler()
    let screen = DriverScript<TerminalFrame, TerminalEvent>()
    let loop = CycleLoop(program: App(screen: screen, timer: TimerDriver(scheduler: scheduler)))
    let models = loop.observedModels()
    withObservationTracking { print(models.screen) } onChange: { print("screen changes") }
    loop.dispose()
}

// MARK: SignalGraph

@Test func signalGraphOverviewSample() {
    struct Row { var name: String; var score: Int; var done: Bool }

    let rows = EditableDictionaryStorage<Int, Row>()                        // the model
    let visible = DictionaryFilteringDictionaryStorage<Int, Row> { !$1.done } // filter it
    let sorted = DictionarySortingArrayStorage<Int, Row> { $0.value.score < $1.value.score } // sort it
    let labels = ArraySignalMapStorage<(key: Int, value: Row), String> { $0.value.name }    // view models

    rows.register(visible)
    visible.register(sorted)
    sorted.register(labels)

    rows[1] = Row(name: "Ada", score: 3, done: false)    // labels.state == ["Ada"]

    // If you set it up, you must tear it down:
    sorted.deregister(labels)
    visible.deregister(sorted)
    rows.deregister(visible)
    #expect(labels.state.isEmpty)   // torn down
}

@Test func signalGraphDocCommentSamples() {
    do {
        let rows = EditableDictionaryStorage<Int, String>()
        let observed = rows.observed()
        rows[1] = "Ada"        // observed.value == [1: "Ada"]
        #expect(observed.value == [1: "Ada"])
    }
    do {
        let rows = EditableDictionaryStorage<Int, String>()
        let connection = rows.subscribe { signal in print(signal) }   // .initiation([:])
        rows[1] = "Ada"                                                 // .transition(…)
        connection.disconnect()                                         // .termination([1: "Ada"])
    }
    do {
        let storage = EditableValueStorage(0)
        let sensor = SignalSensor<ValueSignal<Int>> { signal in print(signal) }
        storage.register(sensor)    // prints .initiation(…)
        storage.deregister(sensor)  // prints .termination(…)
    }
    do {
        struct Row { var score: Int; var done: Bool; init(name: String, score: Int, done: Bool) { self.score = score; self.done = done } }
        let rows = EditableDictionaryStorage<Int, Row>()
        let visible = DictionaryFilteringDictionaryStorage<Int, Row> { !$1.done }
        rows.register(visible)
        rows[1] = Row(name: "Ada", score: 3, done: false)
        rows.deregister(visible)
    }
    do {
        let storage = EditableArrayStorage<String>()
        let editor = ArrayEditor(storage)
        editor.append("a")
        editor[0] = "b"
        #expect(storage.state == ["b"])
    }
}

private struct Row { var score: Int }
private func show(_ rows: [Int: Row]) { print(rows) }
private func apply(_ transition: DictionaryTransition<Int, Row>) { print(transition) }
private func clear() {}

private func stateHandlerSample() {
    let handler = StateHandler<[Int: Row], DictionaryTransition<Int, Row>>(
        didInitiate: { rows in show(rows) },
        didTransition: { transition in apply(transition) },
        willTerminate: { _ in clear() })
    _ = handler
}

// MARK: flatMapLatest

private final class ResultsBackend: Sendable {
    func results(for text: String) async -> [String] { [text] }
}

@MainActor private func cycleFlatMapLatestSample(queries: EventStream<String>) -> EventStream<[String]> {
    let backend = ResultsBackend()
    let results = queries.flatMapLatest { text in await backend.results(for: text) }
    return results
}

@Test func signalGraphDictionaryViewSamples() {
    do {
        struct Row { var name: String; var score: Int; var done: Bool }
        let rows = EditableDictionaryStorage<Int, Row>()
        let names = DictionaryMappingValuesDictionaryStorage<Int, Row, String> { $0.name }
        rows.register(names)
        rows[1] = Row(name: "Ada", score: 3, done: false)   // names.state == [1: "Ada"]
        rows.deregister(names)
        #expect(names.state.isEmpty)
    }
    do {
        let rows = EditableDictionaryStorage<Int, Int>()
        let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
        let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
        rows.register(total)
        rows.register(count)
        rows[1] = 10
        rows[2] = 5                 // total.state == 15, count.state == 2
        rows[1] = 1                 // total.state == 6: 10 taken out, 1 added
        rows.deregister(count)
        rows.deregister(total)
        // Registered again, each folds the entries anew.
        rows.register(total)
        rows.register(count)
        #expect(total.state == 6 && count.state == 2)
        rows.deregister(count)
        rows.deregister(total)
    }
}

@Test func signalGraphArraySetViewSamples() {
    do {
        let tasks = EditableArrayStorage<Int>()
        let even = ArrayFilteringArrayStorage<Int> { $0.isMultiple(of: 2) }
        tasks.register(even)
        let editor = ArrayEditor(tasks)
        for task in 1...4 { editor.append(task) }   // even.state == [2, 4]
        tasks.deregister(even)
        tasks.register(even)
        #expect(even.state == [2, 4])
        tasks.deregister(even)
    }
    do {
        let tags = EditableSetStorage<String>()
        let sorted = SetSortingArrayStorage<String>(by: <)
        tags.register(sorted)
        tags.insert("swift")
        tags.insert("async")        // sorted.state == ["async", "swift"]
        tags.deregister(sorted)
        tags.register(sorted)
        #expect(sorted.state == ["async", "swift"])
        tags.deregister(sorted)
    }
}

@Test @MainActor func signalGraphFeedSample() async {
    let (updates, continuation) = AsyncStream<DictionaryTransition<Int, String>>.makeStream()
    continuation.yield(DictionaryTransition([.insert(1, "Ada")]))
    continuation.finish()

    let rows = EditableDictionaryStorage<Int, String>()
    let feeding = rows.feed(from: updates)   // an AsyncSequence of DictionaryTransition

    for _ in 0..<1_000 where rows.state.isEmpty { await Task.yield() }
    #expect(rows.state == [1: "Ada"])
    feeding.disconnect()
}

@Test func valueJoinSample() {
    let rows = EditableDictionaryStorage<Int, Int>()
    let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
    let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
    let mean = ValueJoinStorage(0, 0) { total, count in count == 0 ? 0 : total / count }
    rows.register(total)
    rows.register(count)
    total.register(mean.first)
    count.register(mean.second)
    rows[1] = 10
    rows[2] = 20    // mean goes from 10 to 15 in one transition; it never shows 30 / 1
    count.deregister(mean.second)
    total.deregister(mean.first)
    rows.deregister(count)
    rows.deregister(total)

    #expect(mean.state == 15)
}

@Test func dictionaryJoinSample() {
    let names = EditableDictionaryStorage<Int, String>()
    let scores = EditableDictionaryStorage<Int, Int>()
    let board = DictionaryJoinStorage<Int, String, Int, String> { name, score in "\(name): \(score)" }
    names.register(board.left)
    scores.register(board.right)
    names[1] = "ada"
    scores[1] = 3       // board.state == [1: "ada: 3"]

    #expect(board.state == [1: "ada: 3"])
    scores.deregister(board.right)
    names.deregister(board.left)
}
