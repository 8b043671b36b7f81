import Glue

/// Glue in the shared scenarios: inputs are `Variable`s, derived cells are mapped and
/// combined observables, observers subscribe for the current value and every change.
public struct GlueAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Glue".
    public var name: String { "Glue" }

    /// Its batch shows the writes made in it as one change.
    public var batchesWrites: Bool { true }

    /// A new graph of Glue observables.
    public func makeGraph() -> any CellGraph { GlueGraph() }

    /// The search box as two `Variable`s, the query and the results: the query's future
    /// values go through Glue's `throttle(pause:latest:scheduler:)`; the latest request's
    /// answer sets the results.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        GlueSearchBox(environment)
    }

    /// The list as a `SetVariable` of rows and Glue's observable collections: filter, sorted
    /// and map, each updated change by change.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        GlueList(initial, label: label)
    }
}

/// A cell: any Glue observable integer, held by reference so the teardown scenario can
/// watch it.
final class GlueCell {
    let observable: AnyObservableValue<Int>
    /// The variable behind an input cell.
    let variable: Variable<Int>?

    init(_ observable: AnyObservableValue<Int>, variable: Variable<Int>? = nil) {
        self.observable = observable
        self.variable = variable
    }
}

final class GlueGraph: CellGraph {
    /// The inputs' variables, for a transaction over all of them.
    private var variables: [Variable<Int>] = []

    func input(_ initial: Int) -> GlueCell {
        let variable = Variable(initial)
        variables.append(variable)
        return GlueCell(variable.anyObservableValue, variable: variable)
    }

    func select(_ condition: GlueCell, _ whenTrue: GlueCell, _ whenFalse: GlueCell, choose: @escaping (Int) -> Bool)
        -> GlueCell
    {
        GlueCell(
            condition.observable.flatMap { choose($0) ? whenTrue.observable : whenFalse.observable }.anyObservableValue)
    }

    func batch(_ body: () -> Void) {
        withTransaction(variables, body)
    }

    func set(_ input: GlueCell, to value: Int) {
        input.variable?.value = value
    }

    func map(_ source: GlueCell, _ transform: @escaping (Int) -> Int) -> GlueCell {
        GlueCell(source.observable.map(transform).anyObservableValue)
    }

    func combine(_ first: GlueCell, _ second: GlueCell, _ combine: @escaping (Int, Int) -> Int) -> GlueCell {
        GlueCell(first.observable.combined(second.observable, combine).anyObservableValue)
    }

    func observe(_ cell: GlueCell, _ sink: @escaping (Int) -> Void) -> Connection {
        cell.observable.subscribe(sink)
    }

    func inspect(_ cells: [GlueCell]) -> [Inspection] {
        [GlueInspector.inspect(cells.map(\.observable))]
    }
}

/// Glue's list: `filter → sorted → map` over a set of rows.
final class GlueList: ListPipeline {
    private let rows: SetVariable<ListRow>
    private var byID: [Int: ListRow]
    private var view: MappedObservableArray<SortedObservableArray<ListRow>, String>?
    private var connection: Connection?
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        byID = rowsByID(initial)
        rows = SetVariable(Set(initial))
        let view = rows.filter { !$0.done }.sorted(by: ListRow.isOrderedBefore).map(label)
        self.view = view
        connection = view.subscribe { [unowned self] in observedView = $0 }
    }

    func apply(_ edit: ListEdit) {
        // Each edit is one change of the set: a replaced row leaves and joins in one change.
        var next = byID
        edit.apply(to: &next)
        let old = Set(byID.values)
        let new = Set(next.values)
        rows.apply(.change(SetChange(removed: old.subtracting(new), inserted: new.subtracting(old))))
        byID = next
    }

    func tearDown() {
        connection?.disconnect()
        view = nil
    }
}

/// Glue's search box: the throttled query, without repeats, switched to the backend's latest
/// answer (`flatMapLatest`: a newer query releases the request in flight, so a late answer to
/// an older one is never shown).
final class GlueSearchBox: SearchBox {
    private let query = Variable("")
    private let results = Variable<[String]>([])
    private var connections: [Connection] = []
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        let backend = environment.backend
        connections = [
            query.futureValues
                .throttle(pause: SearchBoxRules.pause, latest: true, scheduler: environment.scheduler)
                .distinct()
                .flatMapLatest { query in Source<[String]>(subscribe: { backend.search(query, reply: $0) }) }
                .subscribe(results),
            results.subscribe { [unowned self] in shownResults = $0 },
        ]
    }

    func type(_ text: String) { query.value = text }

    func tearDown() {
        for connection in connections { connection.disconnect() }
    }

    func inspect() -> Inspection? { Inspection(paradigm: "Glue", merging: [query.inspect(), results.inspect()]) }
}
