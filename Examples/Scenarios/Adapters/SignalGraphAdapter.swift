import SignalGraph

/// SignalGraph in the shared scenarios: inputs are editable value storages, a derived cell
/// is a signal map feeding a replication, a combination is a `ValueJoinStorage` (glitch-free),
/// observers are sensors.
public struct SignalGraphAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "SignalGraph".
    public var name: String { "SignalGraph" }

    /// A new set of storages.
    public func makeGraph() -> any CellGraph { SignalGraphCellGraph() }

    /// The search box as two editable value storages, the query and the results, each with a
    /// state handler: the query's feeds ReactiveCore's `Pacer` (SignalGraph has no time), the
    /// latest request's answer sets the results, whose handler shows them.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        SignalGraphSearchBox(environment)
    }

    /// The seed's own pipeline: an editable dictionary storage, a filtering view, a sorting
    /// view and a mapping view, replicated for the observer.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        SignalGraphList(initial, label: label)
    }
}

/// A cell: a storage of an integer, what keeps it fed, and how to take that down.
final class SignalGraphCell {
    let emitter: any Emitter<ValueSignal<Int>>
    let read: () -> Int
    let write: ((Int) -> Void)?
    /// Deregisters what this cell registered, in reverse order: set up, then torn down.
    var teardown: [() -> Void] = []
    /// The cells this one reads, kept alive for as long as it is.
    var upstream: [SignalGraphCell] = []

    init(emitter: any Emitter<ValueSignal<Int>>, read: @escaping () -> Int, write: ((Int) -> Void)? = nil) {
        self.emitter = emitter
        self.read = read
        self.write = write
    }

    deinit {
        for step in teardown.reversed() { step() }
    }
}

final class SignalGraphCellGraph: CellGraph {
    func input(_ initial: Int) -> SignalGraphCell {
        let storage = EditableValueStorage(initial)
        return SignalGraphCell(emitter: storage, read: { storage.state }, write: { storage.state = $0 })
    }

    func set(_ input: SignalGraphCell, to value: Int) {
        input.write?(value)
    }

    func map(_ source: SignalGraphCell, _ transform: @escaping (Int) -> Int) -> SignalGraphCell {
        let map = SignalMap<ValueSignal<Int>, ValueSignal<Int>> { signal in
            switch signal {
            case .initiation(let value): .initiation(transform(value))
            case .transition(let value): .transition(transform(value))
            case .termination(let value): .termination(transform(value))
            }
        }
        let replica = ReplicatingValueStorage(transform(source.read()))
        map.register(replica)
        source.emitter.register(map)
        let cell = SignalGraphCell(emitter: replica, read: { replica.state })
        cell.upstream = [source]
        cell.teardown = [{ map.deregister(replica) }, { source.emitter.deregister(map) }]
        return cell
    }

    func combine(
        _ first: SignalGraphCell, _ second: SignalGraphCell, _ combine: @escaping (Int, Int) -> Int
    ) -> SignalGraphCell {
        let join = ValueJoinStorage(first.read(), second.read(), combine: combine)
        first.emitter.register(join.first)
        second.emitter.register(join.second)
        let cell = SignalGraphCell(emitter: join, read: { join.state })
        cell.upstream = [first, second]
        cell.teardown = [{ first.emitter.deregister(join.first) }, { second.emitter.deregister(join.second) }]
        return cell
    }

    func inspect(_ cells: [SignalGraphCell]) -> [Inspection] {
        // From the last cell the inspector walks up to the inputs and down from them.
        (cells.last?.emitter as? any Inspectable).map { [$0.inspect()] } ?? []
    }

    func observe(_ cell: SignalGraphCell, _ sink: @escaping (Int) -> Void) -> Connection {
        cell.emitter.subscribe { signal in
            switch signal {
            case .initiation(let value), .transition(let value): sink(value)
            case .termination: break
            }
        }
    }
}

/// SignalGraph's list: the seed's storages and views, torn down in reverse.
final class SignalGraphList: ListPipeline {
    private let rows = EditableDictionaryStorage<Int, ListRow>()
    private let visible = DictionaryFilteringDictionaryStorage<Int, ListRow> { _, row in !row.done }
    private let sorted = DictionarySortingArrayStorage<Int, ListRow> { ListRow.isOrderedBefore($0.value, $1.value) }
    private let labels: ArraySignalMapStorage<(key: Int, value: ListRow), String>
    private let replica = ReplicatingArrayStorage<String>()

    var observedView: [String] { replica.state }

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        labels = ArraySignalMapStorage { label($0.value) }
        rows.state = rowsByID(initial)
        rows.register(visible)
        visible.register(sorted)
        sorted.register(labels)
        labels.register(replica)
    }

    func apply(_ edit: ListEdit) {
        switch edit {
        case .upsert(let row): rows[row.id] = row
        case .delete(let id): rows.removeValue(forKey: id)
        case .reset(let new): rows.state = rowsByID(new)
        }
    }

    func tearDown() {
        labels.deregister(replica)
        sorted.deregister(labels)
        visible.deregister(sorted)
        rows.deregister(visible)
    }
}

/// SignalGraph's search box, torn down in reverse.
final class SignalGraphSearchBox: SearchBox {
    private let query = EditableValueStorage("")
    private let results = EditableValueStorage<[String]>([])
    private var queryHandler: StateHandler<String, String>?
    private var resultsHandler: StateHandler<[String], [String]>?
    private var search: ThrottledSearch?
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        let results = results
        search = ThrottledSearch(environment) { results.state = $0 }
        let queryHandler = StateHandler<String, String>(didTransition: { [unowned self] in search?.offer($0) })
        let resultsHandler = StateHandler<[String], [String]>(
            didInitiate: { [unowned self] in shownResults = $0 },
            didTransition: { [unowned self] in shownResults = $0 })
        query.register(queryHandler)
        results.register(resultsHandler)
        (self.queryHandler, self.resultsHandler) = (queryHandler, resultsHandler)
    }

    func type(_ text: String) { query.state = text }

    func tearDown() {
        if let queryHandler { query.deregister(queryHandler) }
        if let resultsHandler { results.deregister(resultsHandler) }
        (queryHandler, resultsHandler) = (nil, nil)
        search?.cancel()
    }

    func inspect() -> Inspection? {
        Inspection(paradigm: "SignalGraph", merging: [query.inspect(), results.inspect()])
    }
}
