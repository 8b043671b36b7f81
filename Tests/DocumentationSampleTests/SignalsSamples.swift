// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Signals' articles and doc comments, verbatim, with what they need around
// them.

import Dispatch
import Observation
import ReactiveCore
import Signals
import Synchronization
import Testing

private func handle(_ input: String) { print(input) }
private func submit() {}
private func search(_ query: String) { print(query) }

private final class Database: Sendable { func close() {} }

private final class Sensor: Sendable {
    let reading = Property(value: 20.0)
    let readings = AsyncStream<Double> { $0.finish() }
}

@Test func signalsDocCommentSamples() {
    let signal = Signal<Int>()
    let property = Property<Int>(value: 0)
    let text = Property(value: "")
    let clicks = Signal<Void>()
    let taps = Signal<String>()
    let keys = Signal<String>()
    let query = Property(value: "")
    let name = Property(value: "Ada")
    let age = Property(value: 36)
    let database = Database()
    let sensor = Sensor()

    let observables = ObservableCollection()
    signal.fired.then { print($0) }.append(to: observables)
    taps.fired.merge(with: keys.fired).then { handle($0) }.append(to: observables)
    name.didSet.combineLatest(age.didSet).then { name, age in print("\(name), \(age)") }.append(to: observables)
    text.didSet.compactMap { Int($0) }.then { print("a number: \($0)") }.append(to: observables)
    clicks.fired.scan(0) { count, _ in count + 1 }.then { print("\($0) clicks") }.append(to: observables)
    property.didSet.filter { $0 >= 100 }.then { print("\($0) is at least 100") }.append(to: observables)
    property.didSet.map { 2 * $0 }.then { print($0) }.append(to: observables)
    clicks.fired.throttle(pause: .milliseconds(500)).then { submit() }.append(to: observables)
    query.didSet.throttle(pause: .milliseconds(300), latest: true).then { search($0) }.append(to: observables)
    query.didSet.debounce(pause: .milliseconds(300)).then { search($0) }.append(to: observables)

    let temperature = sensor.reading.observed()
    withObservationTracking { print(temperature.value) } onChange: { print("changes") }
    let reading = sensor.reading.observed(on: .main)
    _ = reading

    observables.removeAllAndWait()
    database.close()   // no closure of those chains runs any more
}

@Test func signalsFeedSample() {
    let sensor = Sensor()
    let readings = Signal<Double>()
    let feeding = readings.feed(from: sensor.readings)
    feeding.disconnect()
}

private final class Model: Sendable { func update(_ value: Int) { print(value) } }

@Test func thenCallSamples() {
    let property = Property<Int>(value: 0)
    let model = Model()
    let observables = ObservableCollection()
    property.didSet.then(call: Model.update, on: model).append(to: observables)
    observables.removeAll()
}

@MainActor private func mainActorThenSample(property: Property<String>, observables: ObservableCollection) {
    @MainActor final class ViewController {
        var title = ""
        func update(_ text: String) { title = text }
    }
    let controller = ViewController()
    property.didSet.then(call: ViewController.update, on: controller).append(to: observables)
}

@Test func operatorsArticleSamples() {
    let text = Property(value: "")
    let clicks = Signal<Void>()
    let query = Property(value: "")
    let taps = Signal<String>()
    let keys = Signal<String>()
    let name = Property(value: "Ada")
    let age = Property(value: 36)
    let scheduler = TestScheduler()
    let observables = ObservableCollection()
    text.didSet.compactMap { Int($0) }.then { print("a number: \($0)") }.append(to: observables)
    clicks.fired.scan(0) { count, _ in count + 1 }.then { print("\($0) clicks") }.append(to: observables)
    query.didSet.throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
        .then { search($0) }.append(to: observables)
    taps.fired.merge(with: keys.fired).then { handle($0) }.append(to: observables)
    name.didSet.combineLatest(age.didSet).then { name, age in print("\(name), \(age)") }
        .append(to: observables)
    observables.removeAll()
}

@Test func signalsOverviewSample() {
    let property = Property<Int>(value: 0)
    let observables = ObservableCollection()

    property
        .didSet
        .filter { $0 >= 100 }
        .map { 2 * $0 }
        .then { print("doubled: \($0)") }     // on the main queue, by default
        .append(to: observables)

    property.value += 150                     // from any thread
    observables.removeAll()
}

@Test func propertySamples() {
    let property = Property<Int>(value: 0)
    let observables = ObservableCollection()
    property.didSet
        .then { print("Value changed to \($0)") }
        .append(to: observables)
    for _ in 0..<10 { property.value += 1 }
    let counter = Property(value: 0)
    let step = 2
    counter.modify { $0 += step }
    #expect(counter.value == 2)
    observables.removeAll()
}

@Test func signalsSignalSample() {
    let signal = Signal<Int>(value: 15)
    let observables = ObservableCollection()
    signal.fired
        .then { print($0) }      // prints 15 (the last message), then 20
        .append(to: observables)
    signal.fire(with: 20)
    observables.removeAll()
}

private func timerSamples(observables: ObservableCollection) {
    do {
        let timer = OnceOnlyTimer()
        timer.fired.then { print("Waited for 10 seconds.") }.append(to: observables)
        timer.fire(after: .seconds(10))
    }
    do {
        let timer = PeriodicTimer(interval: .seconds(10))
        timer.fired.then { print("Timer has been triggered") }.append(to: observables)
        timer.activate()
    }
}

// MARK: flatMapLatest: a search box that never shows a stale answer

/// A backend whose answers come when the test says, in any order.
private final class SlowBackend: Sendable {
    private let waiting = Mutex<[String: CheckedContinuation<Void, Never>]>([:])

    func results(for text: String) async -> [String] {
        await withCheckedContinuation { continuation in waiting.withLock { $0[text] = continuation } }
        return ["\(text)1", "\(text)2"]
    }

    func isAsked(_ text: String) -> Bool { waiting.withLock { $0[text] != nil } }

    func answer(_ text: String) { waiting.withLock { $0.removeValue(forKey: text) }?.resume() }
}

private final class Shown: Sendable {
    private let results = Mutex<[[String]]>([])
    func append(_ shown: [String]) { results.withLock { $0.append(shown) } }
    var all: [[String]] { results.withLock { $0 } }
}

/// The Operators article's search box, verbatim; its chain runs on the main queue, as in an
/// app. `searchBoxLatestWins` runs the same chain on a queue of its own.
private func searchBoxSample(scheduler: TestScheduler, backend: SlowBackend, query: Property<String>) -> ObservableCollection {
    @Sendable func show(_ results: [String]) { print(results) }
    let observables = ObservableCollection()
    query.didSet
        .throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
        .flatMapLatest { text in await backend.results(for: text) }
        .then { results in show(results) }
        .append(to: observables)
    return observables
}

@Test func searchBoxLatestWins() async {
    let scheduler = TestScheduler()
    let backend = SlowBackend()
    let query = Property(value: "")
    let shown = Shown()
    let observables = ObservableCollection()
    query.didSet.dispatch(to: DispatchQueue(label: "search box"))
        .throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
        .flatMapLatest { text in await backend.results(for: text) }
        .then { results in shown.append(results) }
        .append(to: observables)
    // "" (the property's value, replayed) passes at once.
    #expect(await waitUntil { backend.isAsked("") })
    query.value = "s"                            // held by the throttle until the pause ends
    #expect(await waitUntil { scheduler.pendingCount == 1 })
    scheduler.advance(by: .milliseconds(300))    // "s" passes, superseding ""
    #expect(await waitUntil { backend.isAsked("s") })
    backend.answer("s")                          // the newer answer comes first
    #expect(await waitUntil { shown.all == [["s1", "s2"]] })
    backend.answer("")                           // the stale answer comes last: dropped
    query.value = "sw"
    #expect(await waitUntil { scheduler.pendingCount == 1 })
    scheduler.advance(by: .milliseconds(300))
    #expect(await waitUntil { backend.isAsked("sw") })
    backend.answer("sw")
    #expect(await waitUntil { shown.all == [["s1", "s2"], ["sw1", "sw2"]] })
    observables.removeAll()
}

/// Yields until `condition` holds (or 100,000 yields and 20 seconds have passed).
private func waitUntil(_ condition: () -> Bool) async -> Bool {
    var bound = 0
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        bound += 1
        if bound > 100_000 && ContinuousClock.now > deadline { return false }
        await Task.yield()
    }
    return true
}

private func flatMapLatestDocComment(query: Property<String>, backend: SlowBackend, observables: ObservableCollection) {
    @Sendable func show(_ results: [String]) { print(results) }
    query.didSet
        .throttle(pause: .milliseconds(300), latest: true)
        .flatMapLatest { text in await backend.results(for: text) }
        .then { results in show(results) }
        .append(to: observables)
}
