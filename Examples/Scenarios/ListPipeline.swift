/// One row of the SignalGraph seed's list.
public struct ListRow: Hashable, Sendable {
    /// The row's identity.
    public var id: Int
    /// What the view shows.
    public var name: String
    /// The view's sort key (then `id`).
    public var score: Int
    /// Done rows are left out of the view.
    public var done: Bool

    /// A row.
    public init(id: Int, name: String, score: Int, done: Bool) {
        self.id = id
        self.name = name
        self.score = score
        self.done = done
    }

    /// How the view shows the row.
    public var label: String { "\(id):\(name)" }

    /// The view's order: by score, then id.
    public static func isOrderedBefore(_ lhs: ListRow, _ rhs: ListRow) -> Bool {
        (lhs.score, lhs.id) < (rhs.score, rhs.id)
    }
}

/// One change to the rows.
public enum ListEdit: Sendable {
    /// Inserts the row, or replaces the row with its id.
    case upsert(ListRow)
    /// Removes the row with this id.
    case delete(id: Int)
    /// Replaces every row.
    case reset([ListRow])
}

/// The SignalGraph seed's front end in one paradigm: rows by id, and a view of the rows not
/// done, sorted by (score, id), each shown as its label, kept in sync as the rows change.
public protocol ListPipeline: AnyObject {
    /// Applies `edit` to the rows; the observer has the new view before this returns.
    func apply(_ edit: ListEdit)
    /// The view as the paradigm's observer last received it.
    var observedView: [String] { get }
    /// Stops observing and takes the pipeline apart, so that everything can be freed.
    func tearDown()
}

/// The view computed from scratch: what every pipeline must show.
public func listView(of rows: some Sequence<ListRow>) -> [String] {
    rows.filter { !$0.done }.sorted(by: ListRow.isOrderedBefore).map(\.label)
}

extension Scenario {
    /// The rows the list scenario starts from.
    static let initialRows: [ListRow] = [
        ListRow(id: 1, name: "milk", score: 5, done: false),
        ListRow(id: 2, name: "bread", score: 3, done: false),
        ListRow(id: 3, name: "eggs", score: 8, done: false),
        ListRow(id: 4, name: "tea", score: 1, done: false),
        ListRow(id: 5, name: "jam", score: 5, done: true),
        ListRow(id: 6, name: "rice", score: 2, done: true),
    ]

    /// The edits: an insert, an update that moves a row, updates that cross the filter
    /// both ways, a delete, a reset, then edits after the reset.
    static let listEdits: [ListEdit] = [
        .upsert(ListRow(id: 7, name: "figs", score: 4, done: false)),
        .upsert(ListRow(id: 3, name: "eggs", score: 0, done: false)),
        .upsert(ListRow(id: 4, name: "tea", score: 1, done: true)),
        .upsert(ListRow(id: 6, name: "rice", score: 9, done: false)),
        .delete(id: 2),
        .reset([
            ListRow(id: 10, name: "soap", score: 2, done: false),
            ListRow(id: 11, name: "salt", score: 1, done: false),
            ListRow(id: 12, name: "oil", score: 3, done: true),
        ]),
        .upsert(ListRow(id: 11, name: "salt", score: 7, done: false)),
        .delete(id: 10),
    ]

    /// The SignalGraph seed's filtered, sorted, mapped list through every kind of edit.
    public static let list = Scenario(
        id: "list",
        summary:
            "rows filtered (not done), sorted (score, id) and labelled; an insert, a move, filter crossings, a delete, a reset; the view's size after each",
        expected: ScenarioOutcome(values: [4, 5, 5, 4, 5, 4, 2, 2, 1], freed: true),
        updates: listEdits.count,
        pickWhen:
            "SignalGraph, Incremental or Glue for lists that grow: they apply each edit (10 to 19 labels computed here), where the others recompute the view (32)",
        listBody: { makeList, recorder in
            let (outcome, isFreed) = listBody(makeList, recorder)
            return ScenarioOutcome(values: outcome.values, glitches: outcome.glitches, freed: isFreed())
        })
}

/// Runs the edits; a view that differs from the one computed from scratch counts as a glitch.
private func listBody(
    _ makeList: (_ initial: [ListRow], _ label: @escaping (ListRow) -> String) -> any ListPipeline,
    _ recorder: Recorder
) -> (ScenarioOutcome, isFreed: () -> Bool) {
    var rows = Dictionary(uniqueKeysWithValues: Scenario.initialRows.map { ($0.id, $0) })
    let pipeline = makeList(Scenario.initialRows) { row in
        recorder.tick()
        return row.label
    }
    var sizes = [pipeline.observedView.count]
    var glitches = pipeline.observedView == listView(of: rows.values) ? 0 : 1
    for edit in Scenario.listEdits {
        switch edit {
        case .upsert(let row): rows[row.id] = row
        case .delete(let id): rows[id] = nil
        case .reset(let new): rows = Dictionary(uniqueKeysWithValues: new.map { ($0.id, $0) })
        }
        pipeline.apply(edit)
        sizes.append(pipeline.observedView.count)
        if pipeline.observedView != listView(of: rows.values) { glitches += 1 }
    }
    pipeline.tearDown()
    let isFreed = { [weak pipeline] in pipeline == nil }
    return (ScenarioOutcome(values: sizes, glitches: glitches), isFreed)
}

extension ListEdit {
    /// Applies the edit to rows kept in a dictionary by id.
    func apply(to rows: inout [Int: ListRow]) {
        switch self {
        case .upsert(let row): rows[row.id] = row
        case .delete(let id): rows[id] = nil
        case .reset(let new): rows = Dictionary(uniqueKeysWithValues: new.map { ($0.id, $0) })
        }
    }
}

/// The rows by id.
func rowsByID(_ rows: [ListRow]) -> [Int: ListRow] {
    Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
}

/// The view of `rows` computed from scratch with `label`.
func scratchView(_ rows: [Int: ListRow], _ label: (ListRow) -> String) -> [String] {
    rows.values.filter { !$0.done }.sorted(by: ListRow.isOrderedBefore).map(label)
}
