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

    /// Scenario ids mapped to the documented outcome this paradigm produces instead.
    var knownDifferences: [String: KnownDifference] { get }
}

extension ParadigmAdapter {
    /// No known differences.
    public var knownDifferences: [String: KnownDifference] { [:] }
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

    /// The wrapped adapter's known differences.
    public var knownDifferences: [String: KnownDifference] { base.knownDifferences }

    /// The paradigm's name.
    public var description: String { name }
}
