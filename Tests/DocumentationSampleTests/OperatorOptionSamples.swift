// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of the operator options (inclusive prefix(while:), collect(count:every:), the
// timeouts of the first value and with a fallback, the throttles by their edges) in Glue,
// Cycle and Signals, verbatim, with what they need around them.

import Cycle
import Glue
import ReactiveCore
import Signals
import Testing

private func show<Value>(_ value: Value) { print(value) }
private func save<Value>(_ value: Value) { print(value) }
private func plot(_ window: [Double]) { print(window) }

@Test func collectStateMachineSample() {
    var machine = CollectStateMachine<Int>(count: 2)
    _ = machine.receive(1)   // nil
    _ = machine.receive(2)   // [1, 2]
    _ = machine.receive(3)   // nil
    _ = machine.finish()     // [[3]]

    var sliding = CollectStateMachine<Int>(count: 3, every: 1)
    _ = sliding.receive(1)   // nil
    _ = sliding.receive(2)   // nil
    _ = sliding.receive(3)   // [1, 2, 3]
    _ = sliding.receive(4)   // [2, 3, 4]
    _ = sliding.finish()     // [[3, 4], [4]]
    #expect(sliding.finish().isEmpty)
}

@Test func glueOperatorOptionSamples() {
    let scheduler = TestScheduler()
    let progress = Glue.Signal<Int>()
    let edits = Glue.Signal<String>()
    let samples = Glue.Signal<Double>()
    let replies = Glue.Signal<String>()
    let live = Glue.Signal<Double>()
    let cached = Glue.Signal<Double>()
    let untilDone = progress.prefix(while: { $0 < 100 }, inclusive: true)   // ends with 100
    let saves = edits.throttle(pause: .seconds(1), leading: false, trailing: true, scheduler: scheduler)
    let windows = samples.collect(count: 3, every: 1)   // [1, 2, 3], [2, 3, 4], ...
    let answer = replies.timeout(first: .seconds(5), scheduler: scheduler)
    let prices = live.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached)
    _ = (untilDone, saves, windows, answer, prices)
}

@Test func cycleOperatorOptionSamples() {
    let scheduler = TestScheduler()
    let progress = EventSubject<Int>().stream
    let edits = EventSubject<String>().stream
    let samples = EventSubject<Double>().stream
    let replies = EventSubject<String>().stream
    let live = EventSubject<Double>().stream
    let cached = EventSubject<Double>().stream
    do {
        let untilDone = progress.prefix(while: { $0 < 100 }, inclusive: true)   // ends with 100
        let saves = edits.throttle(pause: .seconds(1), leading: false, trailing: true, scheduler: scheduler)
        let windows = samples.collect(count: 3, every: 1)   // [1, 2, 3], [2, 3, 4], ..., [4]
        let answer = replies.timeout(first: .seconds(5), scheduler: scheduler)
        let prices = live.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached)
        _ = (untilDone, saves, windows, answer, prices)
    }
}

@Test func signalsOperatorOptionSamples() {
    let scheduler = TestScheduler()
    let progress = Property(value: 0)
    let edits = Property(value: "")
    let samples = Signals.Signal<Double>()
    let answer = Signals.Signal<String>()
    let live = Signals.Signal<Double>()
    let cached = Signals.Signal<Double>()
    let observables = ObservableCollection()

    progress.didSet.prefix(while: { $0 < 100 }, inclusive: true).then { show($0) }.append(to: observables)

    edits.didSet.throttle(pause: .seconds(1), leading: false, trailing: true).then { save($0) }
        .append(to: observables)

    samples.fired.collect(count: 3, every: 1).then { window in plot(window) }.append(to: observables)

    answer.fired.timeout(first: .seconds(5), scheduler: scheduler).then { show($0) }.append(to: observables)

    live.fired.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached.fired)
        .then { show($0) }.append(to: observables)

    observables.removeAll()
}
