import ReactiveCore

/// The hand-written baseline: plain closures, pushed eagerly, with the common module's
/// `Connection` for lifetime.
///
/// It is what a developer writes without a library, and what the paradigms are measured
/// against. Each cell pushes every new value to its observers at once, so a cell with two
/// paths from the same input (the diamond) recomputes once per path and its observer sees
/// the intermediate, inconsistent value: the glitch that a glitch-free paradigm avoids.
public struct BaselineAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Baseline".
    public var name: String { "Baseline" }

    /// A new graph of closure cells.
    public func makeGraph() -> any CellGraph { BaselineGraph() }

    /// The search box as closures: typing goes through ReactiveCore's `Pacer` (a throttle on
    /// both edges); a new request cancels the one in flight.
    public func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        BaselineSearchBox(environment)
    }

    /// The list as a dictionary of rows and a view recomputed after every edit.
    public func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        BaselineList(initial, label: label)
    }

    /// Eager push shows the diamond's intermediate values.
    public var showsIntermediateValues: Bool { true }

    /// Its documented differences.
    public var knownDifferences: [String: KnownDifference] {
        let reason =
            "eager push recomputes d once per path from a, so its observer sees d with b updated and c not yet (a glitch) before the consistent value"
        return [
            "diamond": KnownDifference(
                outcome: ScenarioOutcome(values: [4, 5, 7, 8, 10], glitches: 2), reason: reason),
            "teardown": KnownDifference(
                outcome: ScenarioOutcome(values: [4, 5, 7], glitches: 1, freed: true), reason: reason),
        ]
    }
}

/// A graph of ``BaselineCell``s. It holds nothing: cells hold their sources.
final class BaselineGraph: CellGraph {
    func input(_ initial: Int) -> BaselineCell {
        BaselineCell(initial)
    }

    func set(_ input: BaselineCell, to value: Int) {
        input.value = value
    }

    func map(_ source: BaselineCell, _ transform: @escaping (Int) -> Int) -> BaselineCell {
        let cell = BaselineCell(transform(source.value))
        cell.upstream.append(source.subscribe { [unowned cell] in cell.value = transform($0) })
        return cell
    }

    func combine(
        _ first: BaselineCell, _ second: BaselineCell, _ combine: @escaping (Int, Int) -> Int
    ) -> BaselineCell {
        let cell = BaselineCell(combine(first.value, second.value))
        cell.upstream.append(
            first.subscribe { [unowned cell, unowned second] in cell.value = combine($0, second.value) })
        cell.upstream.append(
            second.subscribe { [unowned cell, unowned first] in cell.value = combine(first.value, $0) })
        return cell
    }

    func observe(_ cell: BaselineCell, _ sink: @escaping (Int) -> Void) -> Connection {
        sink(cell.value)
        return cell.subscribe(sink)
    }
}

/// A value with observers, pushed to them on every write.
final class BaselineCell {
    private var observers: [Int: (Int) -> Void] = [:]
    private var nextKey = 0
    /// Connections to the cells this one is derived from; they keep those cells alive.
    var upstream: [Connection] = []

    var value: Int {
        didSet {
            for key in observers.keys.sorted() {
                observers[key]?(value)
            }
        }
    }

    init(_ value: Int) {
        self.value = value
    }

    func subscribe(_ sink: @escaping (Int) -> Void) -> Connection {
        let key = nextKey
        nextKey += 1
        observers[key] = sink
        return Connection(isolated: { self.observers[key] = nil })
    }
}

/// The baseline's list: the rows in a dictionary, the view recomputed from scratch after every
/// edit and handed to an observer closure.
final class BaselineList: ListPipeline {
    private var rows: [Int: ListRow]
    private let label: (ListRow) -> String
    private var observer: (([String]) -> Void)?
    private(set) var observedView: [String] = []

    init(_ initial: [ListRow], label: @escaping (ListRow) -> String) {
        rows = rowsByID(initial)
        self.label = label
        observer = { [unowned self] in observedView = $0 }
        observer?(scratchView(rows, label))
    }

    func apply(_ edit: ListEdit) {
        edit.apply(to: &rows)
        observer?(scratchView(rows, label))
    }

    func tearDown() { observer = nil }
}

/// The baseline's search box.
final class BaselineSearchBox: SearchBox {
    private var search: ThrottledSearch?
    private(set) var shownResults: [String] = []

    init(_ environment: SearchEnvironment) {
        search = ThrottledSearch(environment) { [unowned self] in shownResults = $0 }
    }

    func type(_ text: String) { search?.offer(text) }

    func tearDown() {
        search?.cancel()
    }

    func inspect() -> Inspection? { nil }
}
