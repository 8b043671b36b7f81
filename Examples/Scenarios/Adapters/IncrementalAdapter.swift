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

    /// Its batch shows the writes made in it as one change.
    public var batchesWrites: Bool { true }

    /// A new graph.
    public func makeGraph() -> any CellGraph { IncrementalCellGraph() }

    /// The search box as two inputs, the query and the results: an observer of the query
    /// feeds ReactiveCore's `Pacer` (Incremental has no time operators); the latest request's
    /// answer writes the results.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        IncrementalSearchBox(environment)
    }

    /// The list as a dictionary input and Incremental's derived collections: filter, sort and
    /// map, each updated edit by edit.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        IncrementalList(initial, label: label)
    }
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

    func select(_ condition: I<Int>, _ whenTrue: I<Int>, _ whenFalse: I<Int>, choose: @escaping (Int) -> Bool)
        -> I<Int>
    {
        condition.flatMap { choose($0) ? whenTrue : whenFalse }
    }

    func batch(_ body: () -> Void) {
        graph.batch(body)
    }

    func inspect(_ cells: [I<Int>]) -> [Inspection] {
        [graph.inspect(cells)]
    }
}

/// Incremental's list: `filterEntries → sortedEntries → mapElements` over a dictionary input.
final class IncrementalList: ListPipeline {
    private let graph = Graph()
    private let rows: DictionaryInput<Int, ListRow>
    private var connection: Connection?
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        rows = graph.dictionaryInput(rowsByID(initial))
        let view = rows.filterEntries { _, row in !row.done }
            .sortedEntries { ListRow.isOrderedBefore($0.value, $1.value) }
            .mapElements { label($0.value) }
        connection = view.observe { [unowned self] in observedView = $0.elements }
    }

    func apply(_ edit: ListEdit) {
        switch edit {
        case .upsert(let row): rows[row.id] = row
        case .delete(let id): rows.removeValue(forKey: id)
        case .reset(let new):
            // One batch: the observer sees the new rows at once, never a half-reset view.
            graph.batch {
                for id in rows.value.entries.keys where !new.contains(where: { $0.id == id }) {
                    rows.removeValue(forKey: id)
                }
                for row in new { rows[row.id] = row }
            }
        }
    }

    func tearDown() { connection?.disconnect() }
}

/// Incremental's search box.
final class IncrementalSearchBox: SearchBox {
    private let graph = Graph()
    private let query: Input<String>
    private let results: Input<[String]>
    private var search: ThrottledSearch?
    private var connections: [Connection] = []
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        query = graph.input("")
        results = graph.input([])
        let results = results
        search = ThrottledSearch(environment) { results.write($0) }
        var typedYet = false
        connections = [
            query.observe { [unowned self] text in
                // The first call is the current value, not a keystroke.
                if typedYet { search?.offer(text) }
                typedYet = true
            },
            results.observe { [unowned self] in shownResults = $0 },
        ]
    }

    func type(_ text: String) { query.write(text) }

    func tearDown() {
        for connection in connections { connection.disconnect() }
        search?.cancel()
    }

    func inspect() -> Inspection? {
        Inspection(paradigm: "Incremental", merging: [query.inspect(), results.inspect()])
    }
}
