import Cycle

/// Cycle in the shared scenarios: the cells' values are the driver models of one loop; a write
/// is an event; the reducer recomputes every derived cell in the order they were made (so a
/// derived cell always sees current inputs); an observer driver renders the models to the
/// scenario's observers.
public struct CycleAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Cycle".
    public var name: String { "Cycle" }

    /// Its batch shows the writes made in it as one change.
    public var batchesWrites: Bool { true }

    /// A new loop.
    public func makeGraph() -> any CellGraph { CycleCellGraph() }

    /// The search box as a loop: throttled queries are events (typing, `paced` by a throttle,
    /// plays the keyboard driver); the reducer puts the latest request in the models; a backend driver
    /// sends it and reports the answer as an event; a screen driver shows the results.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        CycleSearchBox(environment)
    }

    /// The list as a loop: each edit is an event; the reducer applies it to the rows and
    /// recomputes the view in the models; a screen driver shows the view to the observer.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        CycleList(initial, label: label)
    }
}

/// A cell: its number in the loop's models.
final class CycleCell {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// How each derived cell is computed from the others.
final class CycleDefinitions {
    var formulas: [(cell: Int, compute: ([Int: Int]) -> Int)] = []
}

/// Watches the models and tells each observer when its cell changes.
final class ObserverDriver: Driver {
    var observers: [Int: [(key: Int, sink: (Int) -> Void)]] = [:]
    private var last: [Int: Int] = [:]

    func rendered(_ models: EventStream<[Int: Int]>) -> EventStream<Never> {
        EventStream { [self] _ in
            models.subscribe { [self] cells in
                for (cell, value) in cells where last[cell] != value {
                    last[cell] = value
                    for observer in observers[cell] ?? [] { observer.sink(value) }
                }
            }
        }
    }
}

/// The loop's program: events set or define cells; the reducer recomputes derived cells.
struct CellsProgram: SinkSourceConverting {
    enum DriverEvent {
        case started
        case set(cell: Int, value: Int)
        case setMany([(cell: Int, value: Int)])
        case recompute
    }

    let definitions: CycleDefinitions
    let observers: ObserverDriver

    func eventsFrom(effects: EventStream<[Int: Int]>) -> EventStream<DriverEvent> {
        // The observer driver reports nothing; its stream only keeps it wired.
        let rendered = observers.rendered(effects)
        return EventStream { _ in rendered.subscribe { _ in } }
    }

    func effectsFrom(events: EventStream<(DriverEvent, [Int: Int])>) -> EventStream<[Int: Int]> {
        let definitions = definitions
        return events.map { event, cells in
            var cells = cells
            if case .set(let cell, let value) = event { cells[cell] = value }
            if case .setMany(let writes) = event { for write in writes { cells[write.cell] = write.value } }
            for formula in definitions.formulas { cells[formula.cell] = formula.compute(cells) }
            return cells
        }
    }

    func start() -> (DriverEvent, [Int: Int]) { (.started, [:]) }
}

final class CycleCellGraph: CellGraph {
    private let definitions = CycleDefinitions()
    private let observers = ObserverDriver()
    private let loop: CycleLoop<CellsProgram>
    private var nextCell = 0

    init() {
        loop = CycleLoop(program: CellsProgram(definitions: definitions, observers: observers))
    }

    deinit {
        loop.dispose()
    }

    func input(_ initial: Int) -> CycleCell {
        let cell = CycleCell(nextCell)
        nextCell += 1
        loop.receive(.set(cell: cell.number, value: initial))
        return cell
    }

    func set(_ input: CycleCell, to value: Int) {
        if batched != nil { return batched!.append((input.number, value)) }
        loop.receive(.set(cell: input.number, value: value))
    }

    /// The writes of the batch under way, if one is.
    private var batched: [(cell: Int, value: Int)]?

    func batch(_ body: () -> Void) {
        batched = []
        body()
        let writes = batched ?? []
        batched = nil
        loop.receive(.setMany(writes))
    }

    func map(_ source: CycleCell, _ transform: @escaping (Int) -> Int) -> CycleCell {
        define { cells in transform(cells[source.number] ?? 0) }
    }

    func combine(_ first: CycleCell, _ second: CycleCell, _ combine: @escaping (Int, Int) -> Int) -> CycleCell {
        define { cells in combine(cells[first.number] ?? 0, cells[second.number] ?? 0) }
    }

    private func define(_ compute: @escaping ([Int: Int]) -> Int) -> CycleCell {
        let cell = CycleCell(nextCell)
        nextCell += 1
        definitions.formulas.append((cell.number, compute))
        loop.receive(.recompute)
        return cell
    }

    func inspect(_ cells: [CycleCell]) -> [Inspection] {
        [loop.inspect()]
    }

    func observe(_ cell: CycleCell, _ sink: @escaping (Int) -> Void) -> Connection {
        let key = nextCell
        nextCell += 1
        observers.observers[cell.number, default: []].append((key, sink))
        sink(loop.currentModels[cell.number] ?? 0)
        return Connection(isolated: { [observers] in
            observers.observers[cell.number]?.removeAll { $0.key == key }
        })
    }
}

/// The list program's models: the rows, and the view the reducer computes from them.
struct ListModels {
    var rows: [Int: ListRow]
    var view: [String] = []
}

/// A driver that shows the view to the scenario's observer.
final class ListScreen: Driver {
    var show: ([String]) -> Void = { _ in }

    func rendered(_ models: EventStream<ListModels>) -> EventStream<Never> {
        EventStream { [self] _ in models.subscribe { [self] in show($0.view) } }
    }
}

/// The list program: edits are events; the reducer applies each and recomputes the view.
struct ListProgram: SinkSourceConverting {
    enum DriverEvent {
        case started
        case edit(ListEdit)
    }

    let initial: [Int: ListRow]
    let label: (ListRow) -> String
    let screen: ListScreen

    func eventsFrom(effects: EventStream<ListModels>) -> EventStream<DriverEvent> {
        let rendered = screen.rendered(effects)
        return EventStream { _ in rendered.subscribe { _ in } }
    }

    func effectsFrom(events: EventStream<(DriverEvent, ListModels)>) -> EventStream<ListModels> {
        let label = label
        return events.map { event, models in
            var models = models
            if case .edit(let edit) = event { edit.apply(to: &models.rows) }
            models.view = scratchView(models.rows, label)
            return models
        }
    }

    func start() -> (DriverEvent, ListModels) { (.started, ListModels(rows: initial)) }
}

/// Cycle's list: a loop running `ListProgram`.
final class CycleList: ListPipeline {
    private let screen = ListScreen()
    private let loop: CycleLoop<ListProgram>
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        loop = CycleLoop(program: ListProgram(initial: rowsByID(initial), label: label, screen: screen))
        screen.show = { [unowned self] in observedView = $0 }
        observedView = loop.currentModels.view
    }

    func apply(_ edit: ListEdit) {
        loop.receive(.edit(edit))
    }

    func tearDown() { loop.dispose() }
}

/// The search program's models: the request the backend should be answering, and the
/// results to show.
struct SearchModels {
    var request: String?
    var results: [String] = []
}

/// Sends the models' request to the backend when it changes and reports its answer, the
/// latest request's only (`flatMapLatest`: a newer request releases the one in flight); shows
/// the results.
final class SearchDrivers {
    let backend: any SearchService
    var show: ([String]) -> Void = { _ in }

    init(backend: any SearchService) { self.backend = backend }

    func rendered(_ models: EventStream<SearchModels>) -> EventStream<SearchProgram.DriverEvent> {
        let backend = backend
        let answers = models.compactMap(\.request).removeDuplicates().flatMapLatest { request in
            EventStream<[String]> { reply in backend.search(request, reply: reply) }
                .map { SearchProgram.DriverEvent.answered(query: request, results: $0) }
        }
        return EventStream { [self] report in
            let showing = models.subscribe { [self] in show($0.results) }
            let answering = answers.subscribe(report)
            return Connection(isolated: {
                showing.disconnect()
                answering.disconnect()
            })
        }
    }
}

/// The search program: a throttled query becomes the request; an answer to it, the results.
struct SearchProgram: SinkSourceConverting {
    enum DriverEvent {
        case started
        case query(String)
        case answered(query: String, results: [String])
    }

    let drivers: SearchDrivers

    func eventsFrom(effects: EventStream<SearchModels>) -> EventStream<DriverEvent> {
        drivers.rendered(effects)
    }

    func effectsFrom(events: EventStream<(DriverEvent, SearchModels)>) -> EventStream<SearchModels> {
        events.map { event, models in
            var models = models
            switch event {
            case .started: break
            case .query(let query): models.request = query
            case .answered(_, let results): models.results = results
            }
            return models
        }
    }

    func start() -> (DriverEvent, SearchModels) { (.started, SearchModels()) }
}

/// Cycle's search box.
final class CycleSearchBox: SearchBox {
    private let drivers: SearchDrivers
    private let loop: CycleLoop<SearchProgram>
    private let typed = EventSubject<String>()
    private var queries: Connection?
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        drivers = SearchDrivers(backend: environment.backend)
        loop = CycleLoop(program: SearchProgram(drivers: drivers))
        drivers.show = { [unowned self] in shownResults = $0 }
        let loop = loop
        queries = typed.stream
            .paced(.throttle(latest: true), pause: SearchBoxRules.pause, scheduler: environment.scheduler)
            .subscribe { loop.receive(.query($0)) }
    }

    func type(_ text: String) { typed.send(text) }

    func tearDown() {
        queries?.disconnect()
        loop.dispose()
    }

    func inspect() -> Inspection? { loop.inspect() }
}
