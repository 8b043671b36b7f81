import ReactiveCore

/// What a scenario saw when it ran through one paradigm.
public struct ScenarioOutcome: Equatable, Sendable, CustomStringConvertible {
    /// The values the scenario's observer received, in order.
    public var values: [Int]
    /// How many of those values were inconsistent: a mix of old and new inputs that no
    /// single state of the inputs produces.
    public var glitches: Int
    /// Whether every object the scenario built was freed after teardown (`nil` when the
    /// scenario does not check).
    public var freed: Bool?

    /// Creates an outcome.
    public init(values: [Int], glitches: Int = 0, freed: Bool? = nil) {
        self.values = values
        self.glitches = glitches
        self.freed = freed
    }

    /// A short rendering, such as `[4, 7, 10]` or `[4, 5, 7], 1 glitch, freed`.
    public var description: String {
        var parts = ["\(values)"]
        if glitches > 0 { parts.append(glitches == 1 ? "1 glitch" : "\(glitches) glitches") }
        if let freed { parts.append(freed ? "freed" : "NOT freed") }
        return parts.joined(separator: ", ")
    }
}

/// One scenario's result for one paradigm, with what it cost.
public struct ScenarioRun: Sendable {
    /// What the scenario saw.
    public var outcome: ScenarioOutcome
    /// How many times derived cells recomputed.
    public var recomputations: Int
}

/// A documented, expected way in which a paradigm's outcome differs from the scenario's.
///
/// The shared suite checks the paradigm against this outcome exactly, so the difference is
/// tested, never skipped silently.
public struct KnownDifference: Sendable {
    /// The outcome the paradigm produces instead.
    public var outcome: ScenarioOutcome
    /// Why, in one sentence a user can act on.
    public var reason: String

    /// Creates a known difference.
    public init(outcome: ScenarioOutcome, reason: String) {
        self.outcome = outcome
        self.reason = reason
    }
}

/// A scenario described once and run through every paradigm's adapter.
public struct Scenario: Sendable, Identifiable, CustomStringConvertible {
    /// A short name, used on the command line (`--scenario diamond`).
    public let id: String
    /// What the scenario does, in one line.
    public let summary: String
    /// The outcome every paradigm should produce.
    public let expected: ScenarioOutcome
    /// How many times the scenario writes an input: the tour divides a run's time by it.
    public let updates: Int
    /// Which paradigms to pick for a problem like this one, in one line, from what the runs show.
    public let pickWhen: String
    private let body: Body

    /// What a scenario runs on: cells made by a ``CellGraph``, or a ``ListPipeline``.
    private enum Body: Sendable {
        case cells(@Sendable (_ makeGraph: () -> any CellGraph, Recorder) -> ScenarioOutcome)
        case list(
            @Sendable (
                _ makeList: ([ListRow], @escaping (ListRow) -> String) -> any ListPipeline, Recorder
            ) -> ScenarioOutcome)
        case search(@Sendable (_ makeSearchBox: (SearchEnvironment) -> any SearchBox) -> ScenarioOutcome)
    }

    init(
        id: String, summary: String, expected: ScenarioOutcome, updates: Int, pickWhen: String,
        body: @escaping @Sendable (_ makeGraph: () -> any CellGraph, Recorder) -> ScenarioOutcome
    ) {
        self.id = id
        self.summary = summary
        self.expected = expected
        self.updates = updates
        self.pickWhen = pickWhen
        self.body = .cells(body)
    }

    init(
        id: String, summary: String, expected: ScenarioOutcome, updates: Int, pickWhen: String,
        listBody:
            @escaping @Sendable (
                _ makeList: ([ListRow], @escaping (ListRow) -> String) -> any ListPipeline, Recorder
            ) -> ScenarioOutcome
    ) {
        self.id = id
        self.summary = summary
        self.expected = expected
        self.updates = updates
        self.pickWhen = pickWhen
        self.body = .list(listBody)
    }

    init(
        id: String, summary: String, expected: ScenarioOutcome, updates: Int, pickWhen: String,
        searchBody: @escaping @Sendable (_ makeSearchBox: (SearchEnvironment) -> any SearchBox) -> ScenarioOutcome
    ) {
        self.id = id
        self.summary = summary
        self.expected = expected
        self.updates = updates
        self.pickWhen = pickWhen
        self.body = .search(searchBody)
    }

    /// The scenario's name.
    public var description: String { id }

    /// Runs the scenario through a fresh graph from `adapter`.
    public func run(_ adapter: some ParadigmAdapter) -> ScenarioRun {
        let recorder = Recorder()
        let outcome =
            switch body {
            case .cells(let body): body({ adapter.makeGraph() }, recorder)
            case .list(let body): body({ adapter.makeList(initial: $0, label: $1) }, recorder)
            case .search(let body): body { adapter.makeSearchBox(in: $0) }
            }
        return ScenarioRun(outcome: outcome, recomputations: recorder.recomputations)
    }

    /// What `adapter` is expected to produce: the scenario's outcome, or the adapter's
    /// documented difference.
    public func expectation(for adapter: some ParadigmAdapter) -> (outcome: ScenarioOutcome, reason: String?) {
        if let difference = adapter.knownDifferences[id] {
            return (difference.outcome, difference.reason)
        }
        return (expected, nil)
    }
}

/// Counts recomputations of the derived cells a scenario builds.
final class Recorder {
    private(set) var recomputations = 0

    /// Counts one recomputation.
    func tick() { recomputations += 1 }

    func counting(_ transform: @escaping (Int) -> Int) -> (Int) -> Int {
        { [unowned self] value in
            recomputations += 1
            return transform(value)
        }
    }

    func counting(_ combine: @escaping (Int, Int) -> Int) -> (Int, Int) -> Int {
        { [unowned self] first, second in
            recomputations += 1
            return combine(first, second)
        }
    }
}

extension Scenario {
    /// What each paradigm's inspector shows of this scenario's cells, built as the scenario
    /// builds them and after its first write: `nil` for the scenarios that are not made of
    /// cells (the list and the search box), and an empty list for a paradigm with no engine
    /// to inspect. `swift run paradigms --inspect` prints it.
    public func inspections(_ adapter: some ParadigmAdapter) -> [Inspection]? {
        let graph = adapter.makeGraph()
        return Self.inspections(of: id, in: graph)
    }

    /// The cells of the scenario `id` in `graph`: its input and the cell it observes; `nil`
    /// for the scenarios not made of cells. What `inspections(_:)` and `program(_:scheduler:)`
    /// build.
    private static func cells<Graph: CellGraph>(of id: String, in graph: Graph) -> (
        input: Graph.Cell, observed: Graph.Cell
    )? {
        let a = graph.input(1)
        var observed: Graph.Cell
        switch id {
        case "counter":
            observed = a
        case "derived":
            observed = graph.map(a) { $0 * 10 }
        case "diamond", "teardown":
            let b = graph.map(a) { $0 + 1 }
            let c = graph.map(a) { $0 * 2 }
            observed = graph.combine(b, c, +)
        default:
            return nil
        }
        return (a, observed)
    }

    private static func inspections<Graph: CellGraph>(of id: String, in graph: Graph) -> [Inspection]? {
        guard let (a, observed) = cells(of: id, in: graph) else { return nil }
        let connection = graph.observe(observed) { _ in }
        defer { connection.disconnect() }
        graph.set(a, to: 2)
        return graph.inspect([a, observed])
    }
}

/// A scenario's cells built in one paradigm, taking its input through a tape channel: what
/// the tour's devtools pages trace, from a file or live.
public struct TracedProgram {
    /// The recorder whose channel `a` writes the scenario's input.
    public let recorder: TapeRecorder
    /// Writes the input through the channel (recorded, then applied).
    public let write: (Int) -> Void
    /// The paradigm's inspection of the cells, merged into one.
    public let inspect: () -> Inspection
    /// For a paradigm that keeps a history (Resin), what makes its trace.
    public let history: (() -> Trace)?
    /// Ends the observation.
    public let close: () -> Void
}

extension Scenario {
    /// The values the tour's devtools pages write into the scenario's input, one step each.
    public static let tracedWrites = [2, 3, 3, 7, 10]

    /// This scenario's cells through `adapter`, built as ``inspections(_:)`` builds them and
    /// observed, with their input behind a tape channel named `a` on a `TestScheduler`'s
    /// recorder; `nil` for the scenarios that are not made of cells.
    public func program(_ adapter: some ParadigmAdapter, scheduler: TestScheduler = TestScheduler())
        -> TracedProgram?
    {
        Self.program(of: id, in: adapter.makeGraph(), paradigm: adapter.name, scheduler: scheduler)
    }

    /// A trace of this scenario's cells through `adapter`, for a devtools page: each of
    /// ``tracedWrites`` written into the input, 100 ms apart on a `TestScheduler`, with an
    /// inspection after each (or, for a paradigm that keeps a history, that history's trace).
    /// `nil` for the scenarios that are not made of cells.
    public func trace(_ adapter: some ParadigmAdapter) -> Trace? {
        let scheduler = TestScheduler()
        guard let program = program(adapter, scheduler: scheduler) else { return nil }
        defer { program.close() }
        let tracer = TraceRecorder(paradigm: adapter.name, inspect: program.inspect)
        let following = program.history == nil ? tracer.follow(program.recorder) : nil
        defer { following?.disconnect() }
        for value in Self.tracedWrites {
            program.write(value)
            scheduler.advance(by: .milliseconds(100))
        }
        return program.history?() ?? tracer.trace
    }

    private static func program<Graph: CellGraph>(
        of id: String, in graph: Graph, paradigm: String, scheduler: TestScheduler
    ) -> TracedProgram? {
        guard let (a, observed) = cells(of: id, in: graph) else { return nil }
        let connection = graph.observe(observed) { _ in }
        let recorder = TapeRecorder(scheduler: scheduler)
        let history = graph.recordHistory()
        let input = recorder.channel("a") { (value: Int) in graph.set(a, to: value) }
        return TracedProgram(
            recorder: recorder, write: { input.send($0) },
            inspect: { Inspection(paradigm: paradigm, merging: graph.inspect([a, observed])) }, history: history,
            close: { connection.disconnect() })
    }
}
