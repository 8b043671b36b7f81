import Glue
import OpenCombine
import ReactiveCore
import Signals

/// `Signal → map(+1) → filter(even) → sink(accumulate)`, 1,000 sends per iteration; creating
/// and tearing down 10,000 subscriptions; one send fanned out to 1,000 sinks.
enum EventPipelineCases {
    static let sends = 1_000
    /// The sum the sink accumulates over one iteration: the even values of 1...1000.
    static let expectedSum = 250_500
    static let subscriptions = 10_000
    static let fanOut = 1_000
    /// Chains connected to a replay of the last three, each handed them, sent one message
    /// and removed, per iteration.
    static let replayRounds = 1_000

    static var all: [BenchmarkCase] {
        let pipeline = "pipeline/map-filter-sink"
        let pipelineText = "1,000 sends through map(+1) → filter(even) → sink"
        let churn = "pipeline/subscribe-unsubscribe"
        let churnText = "10,000 subscriptions made and torn down"
        let fan = "pipeline/fan-out"
        let fanText = "one send to 1,000 sinks"
        let replay = "pipeline/replay-3"
        let replayText = "1,000 chains connected to a replay of the last three, each sent one message, then removed"
        return [
            BenchmarkCase(pipeline, "Glue", iteration: pipelineText, events: sends) { GluePipeline() },
            BenchmarkCase(pipeline, "Signals", iteration: pipelineText, events: sends) { SignalsPipeline() },
            BenchmarkCase(pipeline, "OpenCombine", iteration: pipelineText, events: sends) { CombinePipeline() },
            BenchmarkCase(pipeline, "Baseline", iteration: pipelineText, events: sends) { BaselinePipeline() },
            BenchmarkCase(churn, "Glue", iteration: churnText, events: subscriptions) { GlueChurn() },
            BenchmarkCase(churn, "Signals", iteration: churnText, events: subscriptions) { SignalsChurn() },
            BenchmarkCase(churn, "OpenCombine", iteration: churnText, events: subscriptions) { CombineChurn() },
            BenchmarkCase(churn, "Baseline", iteration: churnText, events: subscriptions) { BaselineChurn() },
            BenchmarkCase(fan, "Glue", iteration: fanText, events: fanOut) { GlueFanOut() },
            BenchmarkCase(fan, "Signals", iteration: fanText, events: fanOut) { SignalsFanOut() },
            BenchmarkCase(fan, "OpenCombine", iteration: fanText, events: fanOut) { CombineFanOut() },
            BenchmarkCase(fan, "Baseline", iteration: fanText, events: fanOut) { BaselineFanOut() },
            BenchmarkCase(replay, "Signals", iteration: replayText, events: replayRounds) { SignalsReplay() },
            BenchmarkCase(replay, "OpenCombine", iteration: replayText, events: replayRounds) { CombineReplay() },
            BenchmarkCase(replay, "Baseline", iteration: replayText, events: replayRounds) { BaselineReplay() },
        ]
    }
}

/// A running total that sinks add to; a class so closures share it.
final class Total: @unchecked Sendable {
    // Benchmarks run on one thread; Signals' `noDispatch()` chains call their sink on the
    // sending thread, so nothing here is shared between threads.
    var value = 0
}

// MARK: map → filter → sink

final class GluePipeline: ScenarioRunner {
    let signal = Glue.Signal<Int>()
    let total = Total()
    var connection: ReactiveCore.Connection?

    init() {
        let total = total
        connection = signal.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe { total.value &+= $0 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<EventPipelineCases.sends { signal.send(index) }
        try check(total.value == EventPipelineCases.expectedSum, "Glue pipeline summed \(total.value)")
    }

    func finish() throws { connection?.disconnect() }
}

final class SignalsPipeline: ScenarioRunner {
    let signal = Signals.Signal<Int>()
    let total = Total()
    let chains = ObservableCollection()

    init() {
        let total = total
        signal.fired.noDispatch().map { $0 + 1 }.filter { $0 % 2 == 0 }.then { total.value &+= $0 }.append(to: chains)
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<EventPipelineCases.sends { signal.fire(with: index) }
        try check(total.value == EventPipelineCases.expectedSum, "Signals pipeline summed \(total.value)")
    }
}

final class CombinePipeline: ScenarioRunner {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellable: AnyCancellable?

    init() {
        let total = total
        cancellable = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { total.value &+= $0 }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<EventPipelineCases.sends { subject.send(index) }
        try check(total.value == EventPipelineCases.expectedSum, "OpenCombine pipeline summed \(total.value)")
    }

    func finish() throws { cancellable?.cancel() }
}

/// The limit: the same steps as plain closures.
final class BaselinePipeline: ScenarioRunner {
    let total = Total()
    var send: (Int) -> Void = { _ in }

    init() {
        let total = total
        let sink: (Int) -> Void = { total.value &+= $0 }
        let filter: (Int) -> Void = { if $0 % 2 == 0 { sink($0) } }
        send = { filter($0 + 1) }
    }

    func iterate() throws {
        total.value = 0
        for index in 0..<EventPipelineCases.sends { send(index) }
        try check(total.value == EventPipelineCases.expectedSum, "baseline pipeline summed \(total.value)")
    }
}

// MARK: subscribe and unsubscribe

final class GlueChurn: ScenarioRunner {
    let signal = Glue.Signal<Int>()
    let total = Total()

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.subscriptions {
            let connection = signal.subscribe { total.value &+= $0 }
            signal.send(1)
            connection.disconnect()
        }
        try check(total.value == EventPipelineCases.subscriptions, "Glue churn delivered \(total.value)")
    }
}

final class SignalsChurn: ScenarioRunner {
    let signal = Signals.Signal<Int>()
    let total = Total()
    let chains = ObservableCollection()
    var hasFired = false

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.subscriptions {
            signal.fired.noDispatch().then { total.value &+= $0 }.append(to: chains)
            signal.fire(with: 1)
            chains.removeAll()
        }
        // A new chain first receives the signal's last message (Signals' replay), then the
        // new one: two deliveries per subscription once the signal has fired.
        let expected = 2 * EventPipelineCases.subscriptions - (hasFired ? 0 : 1)
        hasFired = true
        try check(total.value == expected, "Signals churn delivered \(total.value), expected \(expected)")
    }
}

final class CombineChurn: ScenarioRunner {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.subscriptions {
            let cancellable = subject.sink { total.value &+= $0 }
            subject.send(1)
            cancellable.cancel()
        }
        try check(total.value == EventPipelineCases.subscriptions, "OpenCombine churn delivered \(total.value)")
    }
}

/// The limit: a dictionary of closures keyed by a token.
final class BaselineChurn: ScenarioRunner {
    let total = Total()
    var sinks: [Int: (Int) -> Void] = [:]
    var nextToken = 0

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.subscriptions {
            let token = nextToken
            nextToken += 1
            sinks[token] = { total.value &+= $0 }
            for sink in sinks.values { sink(1) }
            sinks[token] = nil
        }
        try check(total.value == EventPipelineCases.subscriptions, "baseline churn delivered \(total.value)")
    }
}

// MARK: fan-out

final class GlueFanOut: ScenarioRunner {
    let signal = Glue.Signal<Int>()
    let total = Total()
    var connections: [ReactiveCore.Connection] = []

    init() {
        let total = total
        connections = (0..<EventPipelineCases.fanOut).map { _ in signal.subscribe { total.value &+= $0 } }
    }

    func iterate() throws {
        total.value = 0
        signal.send(1)
        try check(total.value == EventPipelineCases.fanOut, "Glue fan-out reached \(total.value)")
    }

    func finish() throws { for connection in connections { connection.disconnect() } }
}

final class SignalsFanOut: ScenarioRunner {
    let signal = Signals.Signal<Int>()
    let total = Total()
    let chains = ObservableCollection()

    init() {
        let total = total
        for _ in 0..<EventPipelineCases.fanOut {
            signal.fired.noDispatch().then { total.value &+= $0 }.append(to: chains)
        }
    }

    func iterate() throws {
        total.value = 0
        signal.fire(with: 1)
        try check(total.value == EventPipelineCases.fanOut, "Signals fan-out reached \(total.value)")
    }
}

final class CombineFanOut: ScenarioRunner {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellables: [AnyCancellable] = []

    init() {
        let total = total
        cancellables = (0..<EventPipelineCases.fanOut).map { _ in subject.sink { total.value &+= $0 } }
    }

    func iterate() throws {
        total.value = 0
        subject.send(1)
        try check(total.value == EventPipelineCases.fanOut, "OpenCombine fan-out reached \(total.value)")
    }
}

final class BaselineFanOut: ScenarioRunner {
    let total = Total()
    var sinks: [(Int) -> Void] = []

    init() {
        let total = total
        sinks = (0..<EventPipelineCases.fanOut).map { _ in { total.value &+= $0 } }
    }

    func iterate() throws {
        total.value = 0
        for sink in sinks { sink(1) }
        try check(total.value == EventPipelineCases.fanOut, "baseline fan-out reached \(total.value)")
    }
}

// MARK: replay of the last three

/// Each round hands a new chain the last three messages (1 each) and one new message: four.
private let replayExpected = 4 * EventPipelineCases.replayRounds

final class SignalsReplay: ScenarioRunner {
    let signal = Signals.Signal<Int>()
    let total = Total()
    let kept = ObservableCollection()
    let chains = ObservableCollection()
    let recent: ReplayModifier<Int>

    init() {
        recent = signal.fired.noDispatch().replay(3)
        recent.append(to: kept)
        for _ in 0..<3 { signal.fire(with: 1) }
    }

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.replayRounds {
            recent.then { total.value &+= $0 }.append(to: chains)
            signal.fire(with: 1)
            chains.removeAll()
        }
        try check(total.value == replayExpected, "Signals replay delivered \(total.value), expected \(replayExpected)")
    }
}

/// OpenCombine has no replay: its users keep the last three from a sink and `prepend` them to
/// the subject for each new subscriber (CombineExt's `share(replay:)` does the same).
final class CombineReplay: ScenarioRunner {
    final class Recent: @unchecked Sendable {
        // One thread, as for `Total`.
        var values: [Int] = []
    }

    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let recent = Recent()
    var keeping: AnyCancellable?

    init() {
        let recent = recent
        keeping = subject.sink { value in
            recent.values.append(value)
            if recent.values.count > 3 { recent.values.removeFirst() }
        }
        for _ in 0..<3 { subject.send(1) }
    }

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.replayRounds {
            let cancellable = subject.prepend(recent.values).sink { total.value &+= $0 }
            subject.send(1)
            cancellable.cancel()
        }
        try check(total.value == replayExpected, "OpenCombine replay delivered \(total.value)")
    }

    func finish() throws { keeping?.cancel() }
}

/// The limit: a ring of the last three and a dictionary of closures.
final class BaselineReplay: ScenarioRunner {
    let total = Total()
    var recent = [1, 1, 1]
    var next = 0
    var sinks: [Int: (Int) -> Void] = [:]
    var nextToken = 0

    func iterate() throws {
        let total = total
        total.value = 0
        for _ in 0..<EventPipelineCases.replayRounds {
            let token = nextToken
            nextToken += 1
            let sink: (Int) -> Void = { total.value &+= $0 }
            for offset in 0..<3 { sink(recent[(next + offset) % 3]) }
            sinks[token] = sink
            recent[next] = 1
            next = (next + 1) % 3
            for sink in sinks.values { sink(1) }
            sinks[token] = nil
        }
        try check(total.value == replayExpected, "baseline replay delivered \(total.value)")
    }
}
