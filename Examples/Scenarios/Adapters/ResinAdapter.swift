import Resin

/// Resin in the shared scenarios: every input is a slot of the store's state written by a
/// `SetCell` action; derived cells are Incremental values derived from the store's state.
public struct ResinAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Resin".
    public var name: String { "Resin" }

    /// Its batch shows the writes made in it as one change.
    public var batchesWrites: Bool { true }

    /// A new store.
    public func makeGraph() -> any CellGraph { ResinCellGraph() }

    /// The search box as a store: typing is an action whose middleware feeds ReactiveCore's
    /// `Pacer` (a throttle on both edges); a sent request and its answer are actions too, and the reducer shows an answer
    /// only if it is for the latest request.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        ResinSearchBox(environment)
    }

    /// The list as the rows in the store's state, changed by an action, and the view as an
    /// Incremental value derived from the focused rows (recomputed from them: the slice is a
    /// plain dictionary).
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        ResinList(initial, label: label)
    }
}

/// The scenarios' state: the values of the inputs, by cell number.
struct CellsState: Equatable {
    var cells: [Int: Int] = [:]
}

/// Writes one input cell.
struct SetCell: Action {
    var cell: Int
    var value: Int
}

/// Writes several input cells in one action.
struct SetCells: Action {
    var writes: [SetCell]
}

final class ResinCell {
    let value: I<Int>
    let number: Int?

    init(_ value: I<Int>, number: Int? = nil) {
        self.value = value
        self.number = number
    }
}

final class ResinCellGraph: CellGraph {
    private let store = Store(initialState: CellsState(), scheduler: TestScheduler())
    private var history: History<CellsState>?
    private var nextCell = 0
    private let reducers: [Connection]
    /// The writes of the batch under way, if one is.
    private var batched: [SetCell]?

    init() {
        reducers = [
            store.register(Reducer<CellsState, SetCell> { state, action in state.cells[action.cell] = action.value }),
            store.register(
                Reducer<CellsState, SetCells> { state, action in
                    for write in action.writes { state.cells[write.cell] = write.value }
                }),
        ]
    }

    func select(_ condition: ResinCell, _ whenTrue: ResinCell, _ whenFalse: ResinCell, choose: @escaping (Int) -> Bool)
        -> ResinCell
    {
        ResinCell(condition.value.flatMap { choose($0) ? whenTrue.value : whenFalse.value })
    }

    func batch(_ body: () -> Void) {
        batched = []
        body()
        let writes = batched ?? []
        batched = nil
        store.dispatch(SetCells(writes: writes))
    }

    func input(_ initial: Int) -> ResinCell {
        let number = nextCell
        nextCell += 1
        store.dispatch(SetCell(cell: number, value: initial))
        // A focused store per input: each input's observers wake only when it changes.
        return ResinCell(store.focus(\.cells, key: number).state.map { $0 ?? 0 }, number: number)
    }

    func set(_ input: ResinCell, to value: Int) {
        guard let number = input.number else { return }
        if batched != nil { return batched!.append(SetCell(cell: number, value: value)) }
        store.dispatch(SetCell(cell: number, value: value))
    }

    func map(_ source: ResinCell, _ transform: @escaping (Int) -> Int) -> ResinCell {
        ResinCell(source.value.map(transform))
    }

    func combine(_ first: ResinCell, _ second: ResinCell, _ combine: @escaping (Int, Int) -> Int) -> ResinCell {
        ResinCell(map2(first.value, second.value, combine))
    }

    func observe(_ cell: ResinCell, _ sink: @escaping (Int) -> Void) -> Connection {
        cell.value.observe(sink)
    }

    func inspect(_ cells: [ResinCell]) -> [Inspection] {
        // The store's foci and routes, then the values derived from its foci (Incremental).
        [store.inspect(), cells.first.map { $0.value.graph.inspect(cells.map(\.value)) }].compactMap { $0 }
    }
}

/// The list scenario's state: the rows by id.
struct ListState: Equatable {
    var rows: [Int: ListRow]
}

/// Applies one edit to the rows.
struct EditRows: Action {
    var edit: ListEdit
}

/// Resin's list: a store of rows, a reducer for the edits, and the view derived from the
/// focused rows.
final class ResinList: ListPipeline {
    private let store: Store<ListState>
    private var connection: Connection?
    private let reducer: Connection
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        store = Store(initialState: ListState(rows: rowsByID(initial)), scheduler: TestScheduler())
        reducer = store.register(Reducer<ListState, EditRows> { state, action in action.edit.apply(to: &state.rows) })
        let view = store.focus(\.rows).state.map { scratchView($0, label) }
        connection = view.observe { [unowned self] in observedView = $0 }
    }

    func apply(_ edit: ListEdit) {
        store.dispatch(EditRows(edit: edit))
    }

    func tearDown() { connection?.disconnect() }
}

/// The search box's state.
struct SearchState: Equatable {
    var query = ""
    var latestRequest: String?
    var results: [String] = []
}

/// The user typed.
struct Typed: Action { var text: String }
/// A request went out.
struct Requested: Action { var query: String }
/// The backend answered.
struct Answered: Action {
    var query: String
    var results: [String]
}

/// Resin's search box.
final class ResinSearchBox: SearchBox {
    private let store = Store(initialState: SearchState(), scheduler: TestScheduler())
    private var throttle: Pacer<String>?
    private var inFlight: [Connection] = []
    private var connection: Connection?
    private let registrations = Connector()
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        let store = store
        throttle = Pacer(.throttle(latest: true), pause: SearchBoxRules.pause, scheduler: environment.scheduler) {
            [unowned self] query in
            guard query != store.state.value.latestRequest else { return }  // no repeats
            store.dispatch(Requested(query: query))
            inFlight.append(environment.backend.search(query) { store.dispatch(Answered(query: query, results: $0)) })
        }
        store.register(Reducer<SearchState, Typed> { state, typed in state.query = typed.text }).putInto(registrations)
        store.register(Reducer<SearchState, Requested> { state, sent in state.latestRequest = sent.query })
            .putInto(registrations)
        store.register(
            Reducer<SearchState, Answered> { state, answer in
                // Latest wins: an answer to an earlier request is dropped.
                if answer.query == state.latestRequest { state.results = answer.results }
            }
        ).putInto(registrations)
        store.register(
            Middleware<SearchState>.on(Typed.self) { [unowned self] typed, _ in throttle?.send(typed.text) }
        ).putInto(registrations)
        connection = store.focus(\.results).state.observe { [unowned self] in shownResults = $0 }
    }

    func type(_ text: String) { store.dispatch(Typed(text: text)) }

    func tearDown() {
        connection?.disconnect()
        registrations.disconnect()
        throttle?.cancel()
        for request in inFlight { request.disconnect() }
    }

    func inspect() -> Inspection? { store.inspect() }
}

extension ResinCellGraph {
    /// The store's history, recorded from now: a step per action, with its state diff.
    func recordHistory() -> (() -> Trace)? {
        let history = store.recordHistory()
        self.history = history
        return { [store] in history.trace(of: store) }
    }
}
