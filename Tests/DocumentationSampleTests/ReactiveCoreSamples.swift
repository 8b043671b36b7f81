// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of ReactiveCore's articles and doc comments, verbatim, with what they need
// around them. `counter` is a Glue variable wherever a sample needs a source of values.

import Dispatch
import Glue
import Incremental
import Observation
import ReactiveCore
import Resin
import Testing

@Test @MainActor func subscriptionValuesSample() async {
    let counter = Variable(0)
    let counting = Task { @MainActor in
        for value in 1...5 { counter.value = value; await Task.yield() }
    }
    for await count in counter.values {
        if count == 3 { break }   // disconnects
    }
    await counting.value
}

@Test func debugSample() {
    let counter = Variable(0)
    let connection = counter.debug("counter").subscribe(isolated: { _ in })
    // counter: subscribed
    // counter: value 0
    connection.disconnect()
    // counter: disconnected
}

@Test func recorderSample() {
    let counter = Variable(0)
    let recorder = Recorder(counter)
    counter.value = 1
    counter.value = 2
    #expect(recorder.values == [0, 1, 2])
}

@Test func broadcasterSample() {
    let broadcaster = Broadcaster<Int>()
    let first = broadcaster.add { value in
        print("first", value)
        if value == 1 { broadcaster.send(2) }   // queued: delivered after 1 reaches everyone
    }
    let second = broadcaster.add { print("second", $0) }
    broadcaster.send(1)   // first 1, second 1, first 2, second 2
    broadcaster.remove(first)    // `first` captures the broadcaster: until it is
    broadcaster.remove(second)   // removed, the two keep each other alive
}

@Test func serialQueueSample() {
    let actions = SerialQueue<String>()
    func dispatch(_ action: String) {
        actions.submit(action) { action in
            print("handling", action)
            if action == "load" { dispatch("loaded") }   // waits until "load" is done
        }
    }
    dispatch("load")   // handling load, handling loaded
}

@Test func connectionSample() {
    let counter = Variable(0)
    let connection = counter.subscribe { print("count is \($0)") }
    counter.value += 1          // prints "count is 1"
    connection.disconnect()     // the sink is gone; later changes print nothing
}

@Test @MainActor func groupingSample() {
    struct AppState { var count = 0 }
    struct Increment: Action {}
    let store = Store(initialState: AppState())
    let counter = Reducer<AppState, Increment> { state, _ in state.count += 1 }
    let logger = Middleware<AppState>.logging()
    let registrations = Connection(grouping: [store.register(counter), store.register(logger)])
    registrations.disconnect()
}

private final class ConnectorSample {
    let ticks = Glue.Signal<Void>()
    let midnight = Glue.Signal<Int>()
    let connectionsWhileVisible = Connector()

    func viewWillAppear() {
        ticks.subscribe { print("Tick!") }.putInto(connectionsWhileVisible)
        midnight.subscribe { _ in print("Ding dong!") }.putInto(connectionsWhileVisible)
    }

    func viewDidDisappear() {
        connectionsWhileVisible.disconnect()
    }
}

private func connectorDeclaration() {
    let connectionsWhileVisible = Connector()
    _ = connectionsWhileVisible
}

func printAll(_ source: some Subscribable<Int>) -> Connection {
    source.subscribe { print($0) }
}

@Test @MainActor func observedValueSample() {
    struct AppState { var count = 0; var name = "" }
    let store = Store(initialState: AppState())
    let observed = ObservedValue(store, initial: store.state.value)
    withObservationTracking {
        print(observed.count)          // reads, and tracks, `count` only
    } onChange: {
        print("count will change")     // not called when another field changes
    }
}

@Test func moduleOverviewSample() {
    let connector = Connector()
    let scheduler = TestScheduler()

    scheduler.schedule(every: .seconds(1)) { print("tick") }.putInto(connector)
    scheduler.advance(by: .seconds(3))   // prints "tick" three times, at once
    connector.disconnect()               // no more ticks
}

@Test func remindsAfterFiveSeconds() {
    let scheduler = TestScheduler()
    var reminded = false
    let reminder = scheduler.schedule(after: .seconds(5), isolated: { reminded = true })

    scheduler.advance(by: .seconds(4))
    #expect(!reminded)
    scheduler.advance(by: .seconds(1))
    #expect(reminded)
    _ = reminder
}

@Test func orderAtOneInstant() {
    let scheduler = TestScheduler()
    var log: [String] = []
    var later: Connection?
    let first = scheduler.schedule(after: .seconds(1), isolated: {
        log.append("first")
        later = scheduler.schedule(after: .zero, isolated: { log.append("scheduled by first") })
    })
    let second = scheduler.schedule(after: .seconds(1), isolated: { log.append("second") })
    scheduler.advance(by: .seconds(1))
    // log == ["first", "second", "scheduled by first"]
    #expect(log == ["first", "second", "scheduled by first"])
    _ = (first, second, later)
}

@Test @MainActor func feedSample() {
    struct Sensor { let readings = AsyncStream<Double> { $0.finish() } }
    let sensor = Sensor()
    let graph = Graph()
    let temperature = graph.input(0.0)
    let feeding = temperature.feed(from: sensor.readings)   // an Incremental input
    feeding.disconnect()
}

@Test func sleepersSample() async throws {
    let clock = TestScheduler()
    let ticker = Task {
        for _ in 0..<3 {
            try await clock.sleep(for: .seconds(1))
            print("tick at \(clock.now)")
        }
    }
    await clock.waitForSleepers(1)              // the task has started its sleep
    await clock.advanceTasks(by: .seconds(3))   // three ticks, no waiting
    try await ticker.value
}

private func clockSchedulerSample() {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let pings = scheduler.schedule(every: .seconds(1)) { print("ping") }
    pings.disconnect()
}

private func refresh() {}

private func pollSample() async throws {
    func poll(clock: some Clock<Duration>) async throws {
        while true {
            try await clock.sleep(for: .seconds(5))
            refresh()
        }
    }
    try await poll(clock: DispatchScheduler(queue: .global()).clock)
}

@Test func schedulerClockSample() async {
    let scheduler = TestScheduler()
    let task = Task { try await scheduler.sleep(for: .seconds(1)); print("woke") }
    await scheduler.waitForSleepers(1)              // the task sleeps
    await scheduler.advanceTasks(by: .seconds(1))   // prints "woke", at once
    _ = await task.result
}

private func dispatchSchedulerSample() -> Never {
    let scheduler = DispatchScheduler(queue: .main)
    let timer = scheduler.schedule(every: .seconds(1)) { print("tick") }
    withExtendedLifetime(timer) {
        dispatchMain()   // a command-line program drains the main queue here
    }
}

private final class PacedBackend { func search(_ query: String) { print(query) } }

@Test func pacerSample() {
    let scheduler = TestScheduler()
    let backend = PacedBackend()
    let search = Pacer<String>(.throttle(latest: true), pause: .milliseconds(300), scheduler: scheduler) {
        backend.search($0)
    }
    search.send("s")     // searched at once
    search.send("sw")    // held
    search.send("swi")   // replaces "sw"; searched when the pause ends
    scheduler.advance(by: .milliseconds(300))
}

private struct MyStream<Value>: Subscribable {
    let make: (@escaping (Value) -> Void) -> Connection
    init(_ make: @escaping (@escaping (Value) -> Void) -> Connection) { self.make = make }
    func subscribe(_ sink: @escaping (Value) -> Void) -> Connection { make(sink) }

    func debounce(pause: Duration, scheduler: some Scheduler) -> MyStream<Value> {
        MyStream { sink in
            Pacer.connect(.debounce, pause: pause, scheduler: scheduler, subscribe: self.subscribe, output: sink)
        }
    }
}

@Test func pacingStateMachineSample() {
    let scheduler = TestScheduler()
    func send(_ value: String) { print(value) }
    func start(_ timer: PacingTimer) { print(timer) }
    var machine = PacingStateMachine<String>(.throttle(latest: true), pause: .milliseconds(300))
    switch machine.receive("s", at: scheduler.now) {
    case .pass(let value, let timer):
        send(value)
        if let timer { start(timer) }
    case .startTimer(let timer):
        start(timer)
    case .hold, .drop:
        break   // nothing to do now
    }
}

@Test func schedulerSample() {
    let scheduler = TestScheduler()
    let reminder = scheduler.schedule(after: .seconds(5)) { print("five seconds later") }
    scheduler.advance(by: .seconds(5))   // prints, without waiting
    _ = reminder
}

@Test func testSchedulerSample() {
    let scheduler = TestScheduler()
    var fired: [SchedulerInstant] = []
    let ticks = scheduler.schedule(every: .seconds(1), isolated: { fired.append(scheduler.now) })
    scheduler.advance(by: .seconds(3))
    // fired == [1 s, 2 s, 3 s], and no time passed
    #expect(fired == [1, 2, 3].map { .zero + .seconds($0) })
    _ = ticks
}

@Test func sleepingCountSample() async {
    let scheduler = TestScheduler()
    let task = Task { try await scheduler.sleep(for: .seconds(1)); print("woke") }
    await scheduler.waitForSleepers(1)
    await scheduler.advanceTasks(by: .seconds(1))   // "woke"
    _ = await task.result
}

#if canImport(SwiftUI)
    import SwiftUI

    @MainActor @ViewBuilder private func bindingSetSample(done: ObservedValue<Bool>, todo: TodoModel) -> some View {
        Toggle("Done", isOn: done.binding { newValue in todo.done = newValue })
    }

    @MainActor final class TodoModel { var done = false }

    private struct SwiftUISearchState { var query = "" }
    private struct SetQuery: Action { var query: String; init(_ query: String) { self.query = query } }

    @MainActor @ViewBuilder private func bindingMemberSample(state: ObservedValue<SwiftUISearchState>, store: Store<SwiftUISearchState>) -> some View {
        TextField("Query", text: state.binding(\.query) { store.dispatch(SetQuery($0)) })
    }
#endif

// MARK: LatestStateMachine

private func search(_ query: String) async -> [String] { [query] }
@MainActor private func show(_ answer: [String]) { print(answer) }

@MainActor final class SearchBox {
    private var machine = LatestStateMachine<Task<Void, Never>>()

    func receive(_ query: String) {
        guard let (ticket, superseded) = machine.begin() else { return }   // cancelled
        superseded?.cancel()
        let task = Task { deliver(await search(query), for: ticket) }
        machine.started(task, for: ticket)?.cancel()   // superseded meanwhile
    }

    private func deliver(_ answer: [String], for ticket: LatestTicket) {
        guard machine.result(of: ticket) == .pass else { return }   // stale
        machine.finished(ticket)
        show(answer)
    }
}
