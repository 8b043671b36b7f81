import Glue
import OpenCombine
import ReactiveCore
import Signals

/// The stream operators' pipelines: zip, withLatestFrom and switch-to-latest, in Glue and
/// Signals (inline chains, as after `noDispatch()`), against OpenCombine written as its users
/// write it, and the hand-written baseline.
enum StreamOperatorCases {
    static let pairs = 1_000
    /// zip's sum over one iteration: Σ (i + 2i) for i in 0..<1000.
    static let zipSum = 3 * (pairs * (pairs - 1) / 2)
    static let mainSends = 1_000
    /// The other stream sends once every `otherEvery` main sends.
    static let otherEvery = 10
    static let switches = 1_000

    static var all: [BenchmarkCase] {
        let zip = "operators/zip"
        let zipText = "1,000 pairs sent alternately into zip → sink"
        let latest = "operators/with-latest-from"
        let latestText = "1,000 sends paired with the latest of another stream (100 sends)"
        let switching = "operators/switch-to-latest"
        let switchText = "1,000 switches between two inner streams, each followed by one inner send"
        return [
            BenchmarkCase(zip, "Glue", iteration: zipText, events: 2 * pairs) { GlueZip() },
            BenchmarkCase(zip, "Signals", iteration: zipText, events: 2 * pairs) { SignalsZip() },
            BenchmarkCase(zip, "OpenCombine", iteration: zipText, events: 2 * pairs) { CombineZip() },
            BenchmarkCase(zip, "AsyncAlgorithms", iteration: zipText, events: 2 * pairs) { AsyncAlgorithmsZip() },
            BenchmarkCase(zip, "Baseline", iteration: zipText, events: 2 * pairs) { BaselineZip() },
            BenchmarkCase(latest, "Glue", iteration: latestText, events: mainSends + mainSends / otherEvery) {
                GlueWithLatestFrom()
            },
            BenchmarkCase(latest, "Signals", iteration: latestText, events: mainSends + mainSends / otherEvery) {
                SignalsWithLatestFrom()
            },
            BenchmarkCase(latest, "OpenCombine", iteration: latestText, events: mainSends + mainSends / otherEvery) {
                CombineWithLatestFrom()
            },
            BenchmarkCase(
                latest, "AsyncAlgorithms", iteration: latestText, events: mainSends + mainSends / otherEvery
            ) { AsyncAlgorithmsWithLatestFrom() },
            BenchmarkCase(latest, "Baseline", iteration: latestText, events: mainSends + mainSends / otherEvery) {
                BaselineWithLatestFrom()
            },
            BenchmarkCase(switching, "Glue", iteration: switchText, events: 2 * switches) { GlueSwitch() },
            BenchmarkCase(switching, "Signals", iteration: switchText, events: 2 * switches) { SignalsSwitch() },
            BenchmarkCase(switching, "OpenCombine", iteration: switchText, events: 2 * switches) { CombineSwitch() },
            BenchmarkCase(switching, "Baseline", iteration: switchText, events: 2 * switches) { BaselineSwitch() },
        ]
    }

    /// withLatestFrom's sum over one iteration: each main value i plus the other's latest,
    /// which is the index of the last block of ten started (i / 10).
    static var latestSum: Int {
        (0..<mainSends).reduce(0) { $0 + $1 + $1 / otherEvery }
    }

    /// switch-to-latest's sum: the inner sends 1, 2, ... 1000, each reaching the sink once.
    static let switchSum = switches * (switches + 1) / 2
}

// MARK: zip

final class GlueZip: ScenarioRunner {
    let left = Glue.Signal<Int>()
    let right = Glue.Signal<Int>()
    let total = Total()
    var connection: ReactiveCore.Connection?

    init() {
        let total = total
        connection = left.zip(right).subscribe { total.value &+= $0 &+ $1 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.pairs {
            left.send(index)
            right.send(2 * index)
        }
        try check(total.value == StreamOperatorCases.zipSum, "Glue zip summed \(total.value)")
    }

    func finish() throws { connection?.disconnect() }
}

final class SignalsZip: ScenarioRunner {
    let left = Signals.Signal<Int>()
    let right = Signals.Signal<Int>()
    let total = Total()
    let chains = ObservableCollection()

    init() {
        let total = total
        left.fired.noDispatch().zip(right.fired).then { total.value &+= $0 &+ $1 }.append(to: chains)
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.pairs {
            left.fire(with: index)
            right.fire(with: 2 * index)
        }
        try check(total.value == StreamOperatorCases.zipSum, "Signals zip summed \(total.value)")
    }
}

final class CombineZip: ScenarioRunner {
    let left = PassthroughSubject<Int, Never>()
    let right = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellable: AnyCancellable?

    init() {
        let total = total
        cancellable = left.zip(right).sink { total.value &+= $0 &+ $1 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.pairs {
            left.send(index)
            right.send(2 * index)
        }
        try check(total.value == StreamOperatorCases.zipSum, "OpenCombine zip summed \(total.value)")
    }

    func finish() throws { cancellable?.cancel() }
}

/// The limit: two queues and a sink, by hand.
final class BaselineZip: ScenarioRunner {
    let total = Total()
    var lefts: [Int] = []
    var rights: [Int] = []

    func send(left value: Int) {
        if rights.isEmpty { lefts.append(value) } else { total.value &+= value &+ rights.removeFirst() }
    }

    func send(right value: Int) {
        if lefts.isEmpty { rights.append(value) } else { total.value &+= lefts.removeFirst() &+ value }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.pairs {
            send(left: index)
            send(right: 2 * index)
        }
        try check(total.value == StreamOperatorCases.zipSum, "baseline zip summed \(total.value)")
    }
}

// MARK: withLatestFrom

final class GlueWithLatestFrom: ScenarioRunner {
    let main = Glue.Signal<Int>()
    let other = Glue.Signal<Int>()
    let total = Total()
    var connection: ReactiveCore.Connection?

    init() {
        let total = total
        connection = main.withLatestFrom(other).subscribe { total.value &+= $0 &+ $1 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.mainSends {
            if index % StreamOperatorCases.otherEvery == 0 { other.send(index / StreamOperatorCases.otherEvery) }
            main.send(index)
        }
        try check(total.value == StreamOperatorCases.latestSum, "Glue withLatestFrom summed \(total.value)")
    }

    func finish() throws { connection?.disconnect() }
}

final class SignalsWithLatestFrom: ScenarioRunner {
    let main = Signals.Signal<Int>()
    let other = Signals.Signal<Int>()
    let total = Total()
    let chains = ObservableCollection()

    init() {
        let total = total
        main.fired.noDispatch().withLatestFrom(other.fired).then { total.value &+= $0 &+ $1 }.append(to: chains)
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.mainSends {
            if index % StreamOperatorCases.otherEvery == 0 { other.fire(with: index / StreamOperatorCases.otherEvery) }
            main.fire(with: index)
        }
        try check(total.value == StreamOperatorCases.latestSum, "Signals withLatestFrom summed \(total.value)")
    }
}

/// OpenCombine has no `withLatestFrom`; its users keep the other stream's latest value in a
/// `CurrentValueSubject` and read it as each main value passes.
final class CombineWithLatestFrom: ScenarioRunner {
    let main = PassthroughSubject<Int, Never>()
    let other = CurrentValueSubject<Int, Never>(0)
    let total = Total()
    var cancellable: AnyCancellable?

    init() {
        let total = total
        let other = other
        cancellable = main.map { ($0, other.value) }.sink { total.value &+= $0 &+ $1 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.mainSends {
            if index % StreamOperatorCases.otherEvery == 0 { other.send(index / StreamOperatorCases.otherEvery) }
            main.send(index)
        }
        try check(total.value == StreamOperatorCases.latestSum, "OpenCombine withLatestFrom summed \(total.value)")
    }

    func finish() throws { cancellable?.cancel() }
}

/// The limit: a variable holding the other's latest.
final class BaselineWithLatestFrom: ScenarioRunner {
    let total = Total()
    var latest: Int?

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.mainSends {
            if index % StreamOperatorCases.otherEvery == 0 { latest = index / StreamOperatorCases.otherEvery }
            if let latest { total.value &+= index &+ latest }
        }
        try check(total.value == StreamOperatorCases.latestSum, "baseline withLatestFrom summed \(total.value)")
    }
}

// MARK: switch to latest

final class GlueSwitch: ScenarioRunner {
    let outer = Glue.Signal<Int>()
    let inners = [Glue.Signal<Int>(), Glue.Signal<Int>()]
    let total = Total()
    var connection: ReactiveCore.Connection?

    init() {
        let total = total
        let inners = inners
        connection = outer.flatMapLatest { inners[$0] }.subscribe { total.value &+= $0 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.switches {
            outer.send(index % 2)
            // Both inners send; only the current one reaches the sink.
            inners[index % 2].send(index + 1)
            inners[1 - index % 2].send(-1)
        }
        try check(total.value == StreamOperatorCases.switchSum, "Glue switch summed \(total.value)")
    }

    func finish() throws { connection?.disconnect() }
}

final class SignalsSwitch: ScenarioRunner {
    let outer = Signals.Signal<Int>()
    let inners = [Signals.Signal<Int>(), Signals.Signal<Int>()]
    let total = Total()
    let chains = ObservableCollection()

    init() {
        let total = total
        let inners = inners.map { $0.fired.noDispatch() }
        outer.fired.noDispatch().flatMapLatest { inners[$0] }.then { total.value &+= $0 }.append(to: chains)
    }

    func iterate() throws {
        total.value = 0
        // Not current now (no inner yet, or inner 1 from the iteration before): sets inner 0's
        // last message, so that every switch below replays one.
        inners[0].fire(with: -1)
        for index in 0..<StreamOperatorCases.switches {
            outer.fire(with: index % 2)
            inners[index % 2].fire(with: index + 1)
            inners[1 - index % 2].fire(with: -1)
        }
        // Each switch replays the new inner's last message, -1: a Signals source replays it
        // to every chain that connects.
        try check(
            total.value == StreamOperatorCases.switchSum - StreamOperatorCases.switches,
            "Signals switch summed \(total.value)")
    }
}

final class CombineSwitch: ScenarioRunner {
    let outer = PassthroughSubject<Int, Never>()
    let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
    let total = Total()
    var cancellable: AnyCancellable?

    init() {
        let total = total
        let inners = inners
        cancellable = outer.map { inners[$0] }.switchToLatest().sink { total.value &+= $0 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.switches {
            outer.send(index % 2)
            inners[index % 2].send(index + 1)
            inners[1 - index % 2].send(-1)
        }
        try check(total.value == StreamOperatorCases.switchSum, "OpenCombine switch summed \(total.value)")
    }

    func finish() throws { cancellable?.cancel() }
}

/// The limit: the current inner's index in a variable, checked by both inners' sinks.
final class BaselineSwitch: ScenarioRunner {
    let total = Total()
    var current = -1

    func receive(_ value: Int, from inner: Int) {
        if inner == current { total.value &+= value }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<StreamOperatorCases.switches {
            current = index % 2
            receive(index + 1, from: index % 2)
            receive(-1, from: 1 - index % 2)
        }
        try check(total.value == StreamOperatorCases.switchSum, "baseline switch summed \(total.value)")
    }
}
