/// One thing to measure: a scenario run by one implementation, with the check that makes a
/// fast wrong answer fail.
public struct BenchmarkCase: Sendable {
    /// The scenario, as `group/scenario` (for example `kairo/diamond`).
    public var scenario: String
    /// Who runs it: a paradigm of this package, a peer, or the hand-written baseline.
    public var implementation: String
    /// What one iteration does, for the results table.
    public var iterationDescription: String
    /// How many events (writes, sends, mutations) one iteration handles, to report a cost per
    /// event.
    public var eventsPerIteration: Int
    /// Builds the graph, pipeline or store; the benchmark times `iterate()` on what it makes.
    public var make: @Sendable () throws -> any ScenarioRunner

    /// The benchmark's name: `scenario/implementation`.
    public var name: String { "\(scenario)/\(implementation)" }

    /// A case of `scenario` run by `implementation`; `make` builds it.
    public init(
        _ scenario: String, _ implementation: String, iteration: String, events: Int,
        make: @escaping @Sendable () throws -> any ScenarioRunner
    ) {
        self.scenario = scenario
        self.implementation = implementation
        iterationDescription = iteration
        eventsPerIteration = events
        self.make = make
    }
}

/// A scenario built and ready to run.
public protocol ScenarioRunner: AnyObject {
    /// Runs one iteration and checks what it can check cheaply (values, effect counts);
    /// throws ``CheckFailure`` if the result is wrong.
    func iterate() throws
    /// Tears down and checks what needs the whole run; called once after the iterations.
    func finish() throws
}

extension ScenarioRunner {
    /// Nothing to tear down or check at the end.
    public func finish() throws {}
}

/// A benchmark computed a wrong result.
public struct CheckFailure: Error, CustomStringConvertible {
    /// What was wrong.
    public var description: String
}

/// Throws a ``CheckFailure`` with `message` unless `condition` holds.
@inline(__always)
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(description: message()) }
}

/// Work the optimizer cannot remove: 100 additions through an opaque value.
@inline(never)
public func busy() -> Int {
    var total = 0
    for index in 0..<100 { total &+= opaque(index) }
    return total
}

@inline(never)
func opaque(_ value: Int) -> Int { value }

/// The implementations compared, and how each is described in the results.
public enum Implementations {
    /// This package's paradigms.
    public static let ours = ["Glue", "Signals", "Incremental", "SignalGraph", "Resin", "Cycle"]
    /// The peers measured in the same run.
    public static let peers = ["OpenCombine", "Observation"]
    /// Plain properties and closures: the limit.
    public static let baseline = "Baseline"
}

/// Every benchmark case, grouped as the benchmark targets run them.
public enum Catalog {
    /// Signal → map → filter → sink, subscription churn and fan-out.
    public static var eventPipelines: [BenchmarkCase] { EventPipelineCases.all }
    /// zip, withLatestFrom and switch-to-latest pipelines.
    public static var streamOperators: [BenchmarkCase] { StreamOperatorCases.all }
    /// The kairo suite, cellx, Jane Street's sum and the empty propagation.
    public static var propagation: [BenchmarkCase] { KairoCases.all + CellxCases.all + SumCases.all }
    /// Filter → sort → map over `sizes` rows.
    public static func collectionPipelines(sizes: [Int]) -> [BenchmarkCase] { CollectionCases.all(sizes: sizes) }
    /// Resin's dispatch to 1 of 10 and 1 of 1,000 observed sub-states.
    public static var resin: [BenchmarkCase] {
        ResinCases.all + ResinNavigationCases.all + ResinPersistenceCases.all
    }

    /// A Glue array summed by Incremental, through a bridge and through `.values` → `feed`.
    public static var bridges: [BenchmarkCase] { BridgeCases.all(sizes: [10_000, 100_000]) }

    /// Every case at the sizes the full run uses.
    public static func all(collectionSizes: [Int]) -> [BenchmarkCase] {
        eventPipelines + streamOperators + propagation + collectionPipelines(sizes: collectionSizes) + resin + bridges
    }
}
