import Glue
import Incremental
import ReactiveCore
import SignalGraph

/// n rows of (id, name, score, done); the view is the rows where !done, sorted by
/// (score, id), mapped to "id:name". One iteration makes four mutations (an insert, an
/// update that moves a row, an update that crosses the filter, a delete), each followed by a
/// look at the view. The first row of the view is checked after every mutation; the whole
/// view against a from-scratch computation at the end.
enum CollectionCases {
    static func all(sizes: [Int]) -> [BenchmarkCase] {
        sizes.flatMap { size in
            let scenario = "collections/\(size / 1_000)k-rows"
            let text = "4 mutations (insert, move, cross the filter, delete) of \(size) rows"
            return [
                BenchmarkCase(scenario, "SignalGraph", iteration: text, events: 4) { SignalGraphRows(size) },
                BenchmarkCase(scenario, "Glue", iteration: text, events: 4) { GlueRows(size) },
                BenchmarkCase(scenario, "GlueFields", iteration: text, events: 4) { GlueFieldRows(size) },
                BenchmarkCase(scenario, "Incremental", iteration: text, events: 4) { IncrementalRows(size) },
                BenchmarkCase(scenario, "FromScratch", iteration: text, events: 4) { ScratchRows(size) },
            ]
        }
    }
}

struct Row: Hashable {
    var id: Int
    var name: String
    var score: Int
    var done: Bool

    static func initial(_ id: Int) -> Row {
        Row(id: id, name: "row\(id)", score: (id &* 7_919) % 1_000, done: id % 3 == 0)
    }

    var label: String { "\(id):\(name)" }

    static func ordered(_ lhs: Row, _ rhs: Row) -> Bool { (lhs.score, lhs.id) < (rhs.score, rhs.id) }
}

/// The view computed from scratch.
func scratchView(_ rows: some Sequence<Row>) -> [String] {
    rows.filter { !$0.done }.sorted(by: Row.ordered).map(\.label)
}

/// The mutations, the same for every implementation: the model of the rows, and each step.
struct RowMutations {
    enum Step {
        case insert(Row)
        case update(Row)
        case delete(id: Int)
    }

    let size: Int
    var rows: [Int: Row]
    var round = 0

    init(size: Int) {
        self.size = size
        rows = Dictionary(uniqueKeysWithValues: (0..<size).map { ($0, Row.initial($0)) })
    }

    /// The four steps of one iteration, applied to the model.
    mutating func next() -> [Step] {
        defer { round += 1 }
        let newID = size + round
        let inserted = Row(id: newID, name: "new\(round)", score: (round &* 31) % 1_000, done: false)
        var moved = rows[(round &* 104_729) % size]!
        moved.score = (moved.score + 500 + round) % 1_000
        var crossing = rows[(round &* 15_485_863 + 1) % size]!
        if crossing.id == moved.id { crossing = rows[(crossing.id + 1) % size]! }
        crossing.done.toggle()
        let steps: [Step] = [.insert(inserted), .update(moved), .update(crossing), .delete(id: newID)]
        for step in steps {
            switch step {
            case .insert(let row), .update(let row): rows[row.id] = row
            case .delete(let id): rows[id] = nil
            }
        }
        return steps
    }
}

/// Checks `first` against the view's first label, and at the end the whole view.
private func checkFinal(_ name: String, _ model: RowMutations, _ view: [String]) throws {
    let expected = scratchView(model.rows.values)
    try check(
        view == expected,
        "\(name): the view differs from the one computed from scratch (\(view.count) vs \(expected.count) rows)")
}

final class SignalGraphRows: ScenarioRunner {
    let rows = EditableDictionaryStorage<Int, Row>()
    let visible = DictionaryFilteringDictionaryStorage<Int, Row> { _, row in !row.done }
    let sorted = DictionarySortingArrayStorage<Int, Row> { Row.ordered($0.value, $1.value) }
    let labels = ArraySignalMapStorage<(key: Int, value: Row), String> { $0.value.label }
    var model: RowMutations

    init(_ size: Int) {
        model = RowMutations(size: size)
        rows.register(visible)
        visible.register(sorted)
        sorted.register(labels)
        rows.state = model.rows
    }

    func iterate() throws {
        for step in model.next() {
            switch step {
            case .insert(let row), .update(let row): rows[row.id] = row
            case .delete(let id): rows.removeValue(forKey: id)
            }
            try check(labels.count > 0, "SignalGraph: the view is empty")
        }
    }

    func finish() throws {
        try checkFinal("SignalGraph", model, labels.state)
        sorted.deregister(labels)
        visible.deregister(sorted)
        rows.deregister(visible)
    }
}

final class GlueRows: ScenarioRunner {
    let rows: SetVariable<Row>
    let labels: MappedObservableArray<SortedObservableArray<Row>, String>
    var byID: [Int: Row]
    var model: RowMutations
    var connection: Connection?

    init(_ size: Int) {
        model = RowMutations(size: size)
        byID = model.rows
        rows = SetVariable(Set(model.rows.values))
        labels = rows.filter { !$0.done }.sorted(by: Row.ordered).map(\.label)
        connection = labels.changes.subscribe { _ in }
    }

    func iterate() throws {
        for step in model.next() {
            switch step {
            case .insert(let row):
                rows.insert(row)
                byID[row.id] = row
            case .update(let row):
                rows.replace(byID[row.id]!, with: row)
                byID[row.id] = row
            case .delete(let id):
                rows.remove(byID.removeValue(forKey: id)!)
            }
            try check(labels.count > 0, "Glue: the view is empty")
        }
    }

    func finish() throws {
        try checkFinal("Glue", model, labels.value)
        connection?.disconnect()
    }
}

/// A row as GlueKit's users model one: an object whose changing fields are variables.
final class RowObject {
    let id: Int
    let label: String
    let done: Glue.Variable<Bool>
    /// (score, id) as one number, so that the order has no ties: score * 2^32 + id.
    let order: Glue.Variable<Int>

    init(_ row: Row) {
        id = row.id
        label = row.label
        done = Glue.Variable(row.done)
        order = Glue.Variable(Self.order(of: row))
    }

    static func order(of row: Row) -> Int { row.score << 32 | row.id }
}

/// Glue's element-field views: an array of row objects, filtered on each row's `done`
/// variable and sorted on each row's `order` variable, then mapped to labels. A move or a
/// filter crossing writes one row's variable; only the insert and the delete edit the array.
final class GlueFieldRows: ScenarioRunner {
    let rows: ArrayVariable<RowObject>
    let labels: MappedObservableArray<FieldSortedObservableArray<RowObject, Glue.Variable<Int>>, String>
    var byID: [Int: RowObject]
    var model: RowMutations
    var connection: Connection?

    init(_ size: Int) {
        model = RowMutations(size: size)
        let objects = model.rows.values.sorted { $0.id < $1.id }.map(RowObject.init)
        byID = Dictionary(uniqueKeysWithValues: objects.map { ($0.id, $0) })
        rows = ArrayVariable(objects)
        labels = rows.filter(observing: \.done) { !$0 }.sorted(observing: \.order).map(\.label)
        connection = labels.changes.subscribe { _ in }
    }

    func iterate() throws {
        for step in model.next() {
            switch step {
            case .insert(let row):
                let object = RowObject(row)
                byID[row.id] = object
                rows.append(object)
            case .update(let row):
                let object = byID[row.id]!
                if object.done.value != row.done { object.done.value = row.done }
                if object.order.value != RowObject.order(of: row) { object.order.value = RowObject.order(of: row) }
            case .delete(let id):
                // The row deleted is the one inserted in the same iteration: the last.
                try check(rows[rows.count - 1].id == id, "Glue fields: the deleted row is not the last")
                byID[id] = nil
                _ = rows.remove(at: rows.count - 1)
            }
            try check(labels.count > 0, "Glue fields: the view is empty")
        }
    }

    func finish() throws {
        try checkFinal("Glue fields", model, labels.value)
        connection?.disconnect()
    }
}

final class IncrementalRows: ScenarioRunner {
    let graph = Graph()
    let rows: DictionaryInput<Int, Row>
    let labels: I<IncrementalArray<String>>
    var model: RowMutations
    var connection: Connection?

    init(_ size: Int) {
        model = RowMutations(size: size)
        rows = graph.dictionaryInput(model.rows)
        labels = rows.filterEntries { _, row in !row.done }.sortedEntries { Row.ordered($0.value, $1.value) }
            .mapElements { $0.value.label }
        connection = labels.observe { _ in }
    }

    func iterate() throws {
        for step in model.next() {
            switch step {
            case .insert(let row), .update(let row): rows[row.id] = row
            case .delete(let id): rows.removeValue(forKey: id)
            }
            try check(labels.value.count > 0, "Incremental: the view is empty")
        }
    }

    func finish() throws {
        try checkFinal("Incremental", model, labels.value.elements)
        connection?.disconnect()
    }
}

/// Recomputes the view from the rows after every mutation.
final class ScratchRows: ScenarioRunner {
    var rows: [Int: Row]
    var view: [String] = []
    var model: RowMutations

    init(_ size: Int) {
        model = RowMutations(size: size)
        rows = model.rows
        view = scratchView(rows.values)
    }

    func iterate() throws {
        for step in model.next() {
            switch step {
            case .insert(let row), .update(let row): rows[row.id] = row
            case .delete(let id): rows[id] = nil
            }
            view = scratchView(rows.values)
            try check(!view.isEmpty, "from scratch: the view is empty")
        }
    }

    func finish() throws { try checkFinal("from scratch", model, view) }
}
