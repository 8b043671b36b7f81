// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Signals' ending streams and stream operators, verbatim, with what they need
// around them.

import ReactiveCore
import Signals
import Testing

private func show<Value>(_ value: Value) { print(value) }
private func hideSpinner() {}
private func report(_ error: any Error) { print(error) }
private func store(_ batch: [Double]) { print(batch) }
private func send(_ form: String) { print(form) }
private func log(_ request: Int, _ response: String) { print(request, response) }
private func hide(_ toast: String) { print(toast) }
private struct TimedOut: Error {}

/// A backend whose answers are signals.
private final class Backend: Sendable {
    func search(_ text: String) -> Signal<[String]> { Signal(value: [text]) }
}

/// A loader whose loads are signals.
private final class Loader: Sendable {
    func load(_ id: Int) -> Signal<String> { Signal(value: "item \(id)") }
}

@Test func signalsEndingSamples() {
    let download = Signal<Double>()
    let upload = Signal<Int>()
    let ticks = Signal<Void>()
    let signal = Signal<Int>()
    let other = Signal<Int>().fired
    let observables = ObservableCollection()

    download.fired
        .onCompleted { print("done") }
        .append(to: observables)
    download.finish()

    download.fired
        .then { progress in show(progress) }
        .onCompleted { hideSpinner() }
        .append(to: observables)

    upload.fired.onFailed { error in report(error) }.append(to: observables)

    upload.fired
        .onEnd { completion in
            switch completion {
            case .finished: print("uploaded")
            case .failed(let error): print("failed: \(error)")
            case .interrupted: print("cancelled")
            }
        }
        .append(to: observables)

    let feeding = other.subscribe(events: { signal.send(event: $0) })
    feeding.disconnect()
    ticks.fired.onInterrupted { print("stopped early") }.append(to: observables)
    observables.removeAll()   // prints "stopped early"
}

@Test func signalsStreamOperatorSamples() {
    let taps = Signal<Int>()
    let progress = Signal<Double>()
    let cancel = Signal<Void>()
    let level = Property(value: 1)
    let samples = Signal<Double>()
    let purchases = Signal<Int>()
    let requests = Signal<Int>()
    let responses = Signal<String>()
    let submit = Signal<Void>()
    let form = Property(value: "")
    let ids = Signal<Int>()
    let loader = Loader()
    let query = Property(value: "")
    let backend = Backend()
    let toasts = Signal<String>()
    let scheduler = TestScheduler()
    let observables = ObservableCollection()

    taps.fired.prefix(3).then { print("tap \($0)") }.append(to: observables)
    progress.fired.prefix(untilOutputFrom: cancel.fired).then { show($0) }.append(to: observables)
    level.didSet.pairwise().then { old, new in print("\(old) → \(new)") }.append(to: observables)
    samples.fired.collect(3).then { batch in store(batch) }.append(to: observables)
    purchases.fired.reduce(0) { total, price in total + price }.then { print("total \($0)") }
        .append(to: observables)
    requests.fired.zip(responses.fired).then { request, response in log(request, response) }
        .append(to: observables)
    submit.fired.withLatestFrom(form.didSet).then { _, form in send(form) }.append(to: observables)
    ids.fired.flatMap { id in loader.load(id).fired }.then { show($0) }.append(to: observables)
    query.didSet.flatMapLatest { text in backend.search(text).fired }
        .then { results in show(results) }
        .append(to: observables)
    query.didSet
        .debounce(pause: .milliseconds(300), scheduler: scheduler)
        .flatMapLatest { text in backend.search(text).fired }
        .then { results in show(results) }
        .append(to: observables)
    toasts.fired.delay(for: .seconds(2), scheduler: scheduler).then { hide($0) }.append(to: observables)
    responses.fired.timeout(.seconds(10), scheduler: scheduler, customError: { TimedOut() })
        .onFailed { print("no answer: \($0)") }
        .append(to: observables)
    #expect(observables.count == 12)
    observables.removeAll()
}

@Test func signalsReplaySamples() async {
    let readings = Signal<Double>()
    let query = Property(value: "a")
    let searched = LockedState<[String]>([])
    @Sendable func search(_ text: String) { searched.withLock { $0.append(text) } }
    let observables = ObservableCollection()

    let recent = readings.fired.replay(3)
    recent.append(to: observables)
    // later: a new chain sees the last three readings first
    recent.then { print($0) }.append(to: observables)

    query.didSet.prepend("").then { search($0) }.append(to: observables)
    // searches "", then the current query, then each change

    MessageSource.sequence([1, 2, 3]).map { $0 * 10 }.then { print($0) }.append(to: observables)
    // prints 10, 20, 30

    await MainActor.run {}
    #expect(searched.withLock { $0 } == ["", "a"])
    observables.removeAll()
}
