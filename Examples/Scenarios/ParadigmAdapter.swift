import Foundation

/// How one paradigm takes part in the shared scenarios.
///
/// An adapter makes a fresh ``CellGraph`` for each scenario run, and lists the scenarios
/// whose outcome it is known to differ from, with the reason. Each paradigm's issue adds
/// its adapter to ``ParadigmCatalog/adapters``.
public protocol ParadigmAdapter: Sendable {
    /// The paradigm's name, as the tour and the test names print it.
    var name: String { get }

    /// A new, empty graph in the paradigm's types.
    func makeGraph() -> any CellGraph

    /// The SignalGraph seed's list in the paradigm's types, holding `initial`, showing each
    /// row with `label` (counted as a recomputation each time it is called).
    func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline

    /// A search box in the paradigm's types, on `environment`'s virtual time and backend.
    func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox

    /// Scenario ids mapped to the documented outcome this paradigm produces instead.
    var knownDifferences: [String: KnownDifference] { get }

    /// The lines of code of the adapter (its source file, without blank lines and
    /// comments): what it takes to express the scenarios in this paradigm. `nil` when the
    /// source is not at hand (a binary run away from its checkout).
    var linesOfCode: Int? { get }

    /// Whether an observer of a cell combined from others may see intermediate values (a mix
    /// of old and new inputs) before the consistent one, as the semantics matrix documents for
    /// Signals (no combining operator) and the hand-written baseline (eager push). The
    /// differential programs allow it only where this is `true`.
    var showsIntermediateValues: Bool { get }

    /// Whether the graph's `batch(_:)` shows the writes made in it as one change (an
    /// Incremental batch, a Glue transaction, one Resin action, one Cycle event); without it,
    /// each write is a change, and the differential programs allow the value between them.
    var batchesWrites: Bool { get }
}

extension ParadigmAdapter {
    /// No known differences.
    public var knownDifferences: [String: KnownDifference] { [:] }

    /// Unknown.
    public var linesOfCode: Int? { nil }

    /// Glitch-free.
    public var showsIntermediateValues: Bool { false }

    /// No batches.
    public var batchesWrites: Bool { false }
}

/// Type-erased adapter, so that the shared suite can take adapters as test arguments.
public struct AnyParadigmAdapter: ParadigmAdapter, CustomStringConvertible {
    private let base: any ParadigmAdapter

    /// Wraps `base`.
    public init(_ base: some ParadigmAdapter) {
        self.base = base
    }

    /// The wrapped adapter's name.
    public var name: String { base.name }

    /// A new graph from the wrapped adapter.
    public func makeGraph() -> any CellGraph { base.makeGraph() }

    /// A new search box from the wrapped adapter.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        base.makeSearchBox(in: environment)
    }

    /// A new list from the wrapped adapter.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        base.makeList(initial: initial, label: label)
    }

    /// The wrapped adapter's known differences.
    public var knownDifferences: [String: KnownDifference] { base.knownDifferences }

    /// The wrapped adapter's lines of code.
    public var linesOfCode: Int? { base.linesOfCode }

    /// Whether the wrapped adapter shows intermediate values.
    public var showsIntermediateValues: Bool { base.showsIntermediateValues }

    /// Whether the wrapped adapter batches writes.
    public var batchesWrites: Bool { base.batchesWrites }

    /// The paradigm's name.
    public var description: String { name }
}

/// The lines of Swift in the file at `path` that are neither blank nor comments; `nil` if it
/// cannot be read.
func linesOfCode(inFile path: String) -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return text.split(separator: "\n", omittingEmptySubsequences: false).count { line in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && !trimmed.hasPrefix("//")
    }
}
