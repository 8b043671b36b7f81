import Incremental

/// Incremental in the shared scenarios: inputs are `Input`s, derived cells are `map` and
/// `map2` nodes, observers observe.
public struct IncrementalAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Incremental".
    public var name: String { "Incremental" }

    /// A new graph.
    public func makeGraph() -> any CellGraph { IncrementalCellGraph() }
}

final class IncrementalCellGraph: CellGraph {
    private let graph = Graph()

    func input(_ initial: Int) -> I<Int> {
        graph.input(initial)
    }

    func set(_ input: I<Int>, to value: Int) {
        (input as? Input<Int>)?.write(value)
    }

    func map(_ source: I<Int>, _ transform: @escaping (Int) -> Int) -> I<Int> {
        source.map(transform)
    }

    func combine(_ first: I<Int>, _ second: I<Int>, _ combine: @escaping (Int, Int) -> Int) -> I<Int> {
        map2(first, second, combine)
    }

    func observe(_ cell: I<Int>, _ sink: @escaping (Int) -> Void) -> Connection {
        cell.observe(sink)
    }
}
