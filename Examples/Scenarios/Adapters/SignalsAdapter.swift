import Signals

/// Signals in the shared scenarios: inputs are `Property`s, derived cells are `noDispatch()`
/// chains (so the scenarios run synchronously), and a combination of two cells is a
/// `Property` written by a chain from each: Signals has no combining operator.
public struct SignalsAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Signals".
    public var name: String { "Signals" }

    /// A new set of chains.
    public func makeGraph() -> any CellGraph { SignalsCellGraph() }

    /// The search box as two `Property`s, the query and the results, with `noDispatch()`
    /// chains: the query's chain throttles with `throttle(pause:latest:)` (the leading-edge
    /// `throttle(pause:)` would drop the last query typed); the results' chain shows them.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        SignalsSearchBox(environment)
    }

    /// The list as a `Property` of the rows and a `noDispatch()` chain that maps them to the
    /// view, from scratch: Signals has no collection operators.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        SignalsList(initial, label: label)
    }

    /// Combining two chains by hand pushes eagerly, as the baseline does.
    public var showsIntermediateValues: Bool { true }

    /// Its documented differences.
    public var knownDifferences: [String: KnownDifference] {
        let reason =
            "Signals has no glitch-free combination: a value built from two chains is written by each chain as it fires, so d is seen with b new and c old first"
        return [
            "diamond": KnownDifference(
                outcome: ScenarioOutcome(values: [4, 5, 7, 8, 10], glitches: 2), reason: reason),
            "teardown": KnownDifference(
                outcome: ScenarioOutcome(values: [4, 5, 7], glitches: 1, freed: true), reason: reason),
        ]
    }
}

/// A cell: an observable of integers, the property behind an input or a combination, and
/// the chains it keeps alive.
final class SignalsCell {
    let observable: MessageSource<Int>
    let property: Property<Int>?
    let chains = ObservableCollection()

    init(_ observable: MessageSource<Int>, property: Property<Int>? = nil) {
        self.observable = observable
        self.property = property
    }
}

final class SignalsCellGraph: CellGraph {
    func input(_ initial: Int) -> SignalsCell {
        let property = Property(value: initial)
        return SignalsCell(property.didSet, property: property)
    }

    func set(_ input: SignalsCell, to value: Int) {
        input.property?.value = value
    }

    func map(_ source: SignalsCell, _ transform: @escaping (Int) -> Int) -> SignalsCell {
        // The scenarios run on one thread and the chain runs inline on it, which is the
        // contract of the common module's `IsolatedFunction`.
        let transform = IsolatedFunction(transform)
        return SignalsCell(source.observable.noDispatch().map { transform($0) })
    }

    func combine(_ first: SignalsCell, _ second: SignalsCell, _ combine: @escaping (Int, Int) -> Int) -> SignalsCell {
        let combine = IsolatedFunction<(Int, Int), Int> { combine($0.0, $0.1) }
        let (a, b) = (first.observable, second.observable)
        let property = Property(value: combine((a.lastMessage ?? 0, b.lastMessage ?? 0)))
        let cell = SignalsCell(property.didSet, property: property)
        a.noDispatch().then { property.value = combine(($0, b.lastMessage ?? 0)) }.append(to: cell.chains)
        b.noDispatch().then { property.value = combine((a.lastMessage ?? 0, $0)) }.append(to: cell.chains)
        // The initial messages replayed into the two chains recompute the same value.
        return cell
    }

    func inspect(_ cells: [SignalsCell]) -> [Inspection] {
        // The chains of each input: Signals has no combining operator, so a combination is a
        // property of its own, written by closures at the ends of the chains.
        cells.compactMap(\.property).map { $0.inspect() }
    }

    func observe(_ cell: SignalsCell, _ sink: @escaping (Int) -> Void) -> Connection {
        let sink = IsolatedSink(sink)
        return cell.observable.subscribe { sink($0) }
    }
}

/// Signals' list: a property of the rows, and a chain that maps each new value of it to the
/// view and hands the view to the observer.
final class SignalsList: ListPipeline {
    private let rows: Property<[Int: ListRow]>
    private let chains = ObservableCollection()
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        rows = Property(value: rowsByID(initial))
        // One thread, and the chain runs inline on it: `IsolatedFunction`'s contract.
        let view = IsolatedFunction<[Int: ListRow], [String]> { scratchView($0, label) }
        let seen = IsolatedSink<[String]> { [unowned self] in observedView = $0 }
        rows.didSet.noDispatch().map { view($0) }.then { seen($0) }.append(to: chains)
    }

    func apply(_ edit: ListEdit) {
        rows.modify { edit.apply(to: &$0) }
    }

    func tearDown() { chains.removeAll() }
}

/// Signals' search box: the throttled query, without repeats, switched to the latest
/// request's answer (`flatMapLatest` over sources).
final class SignalsSearchBox: SearchBox {
    private let query = Property(value: "")
    private let chains = ObservableCollection()
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        let backend = environment.backend
        // The request runs where the chain runs (inline, on this thread).
        let request = IsolatedFunction<String, MessageSource<[String]>> { Self.answer(to: $0, from: backend) }
        // One thread, chains inline on it: `IsolatedSink`'s contract.
        let show = IsolatedSink<[String]> { [unowned self] in shownResults = $0 }
        // dropFirst(): the chain first receives the current query (replay), not a keystroke.
        // The throttle's trailing queries come from the scheduler's work: on this thread too.
        query.didSet.noDispatch().dropFirst()
            .throttle(pause: SearchBoxRules.pause, latest: true, scheduler: environment.scheduler)
            .removeDuplicates()
            .flatMapLatest { query in request(query) }
            .then { show($0) }
            .append(to: chains)
    }

    /// A source that sends the backend's answer to `query`, then finishes. When the search
    /// box switches to a newer query, it lets go of this source, whose chain is interrupted:
    /// that cancels the request.
    private static func answer(to query: String, from backend: any SearchService) -> MessageSource<[String]> {
        let answer = Signal<[String]>()
        let request = backend.search(query) { results in
            answer.fire(with: results)
            answer.finish()
        }
        return answer.fired.noDispatch().onInterrupted { request.disconnect() }
    }

    func type(_ text: String) { query.value = text }

    func tearDown() { chains.removeAll() }

    func inspect() -> Inspection? { query.inspect() }
}
