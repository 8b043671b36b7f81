import ReactiveCore

/// A todo.
struct Todo: Hashable {
    var id: Int
    var title: String
    var priority: Int
    var done = false

    /// How the list shows it.
    var line: String { "\(done ? "[x]" : "[ ]") \(id) \(title) (p\(priority))" }
}

/// Which todos the list shows.
enum Filter: String, CaseIterable {
    case all, active, done

    func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.done
        case .done: todo.done
        }
    }
}

/// The order the list shows them in; ties go by id.
enum Order: String, CaseIterable {
    case id, title, priority

    func isBefore(_ lhs: Todo, _ rhs: Todo) -> Bool {
        switch self {
        case .id: lhs.id < rhs.id
        case .title: (lhs.title, lhs.id) < (rhs.title, rhs.id)
        case .priority: (lhs.priority, lhs.id) < (rhs.priority, rhs.id)
        }
    }
}

/// A command typed at the prompt.
enum TodoCommand {
    case add(title: String, priority: Int)
    case setDone(id: Int, Bool)
    case remove(id: Int)
    case show(Filter)
    case sort(Order)

    /// Parses `add [p1|p2|p3] TITLE`, `done N`, `reopen N`, `remove N`, `show all|active|done`,
    /// `sort id|title|priority`.
    init?(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("add", 2...):
            var rest = Array(words.dropFirst())
            var priority = 2
            if let first = rest.first, first.count == 2, first.hasPrefix("p"), let value = Int(first.dropFirst()),
                (1...3).contains(value), rest.count > 1
            {
                priority = value
                rest.removeFirst()
            }
            self = .add(title: rest.joined(separator: " "), priority: priority)
        case ("done", 2): guard let id = Int(words[1]) else { return nil }; self = .setDone(id: id, true)
        case ("reopen", 2): guard let id = Int(words[1]) else { return nil }; self = .setDone(id: id, false)
        case ("remove", 2): guard let id = Int(words[1]) else { return nil }; self = .remove(id: id)
        case ("show", 2): guard let filter = Filter(rawValue: words[1]) else { return nil }; self = .show(filter)
        case ("sort", 2): guard let order = Order(rawValue: words[1]) else { return nil }; self = .sort(order)
        default: return nil
        }
    }
}

/// Everything a todo list holds: the todos, and how they are shown.
struct TodoState: Equatable {
    var todos: [Int: Todo] = [:]
    var nextID = 1
    var filter = Filter.all
    var order = Order.id

    mutating func apply(_ command: TodoCommand) {
        switch command {
        case .add(let title, let priority):
            todos[nextID] = Todo(id: nextID, title: title, priority: priority)
            nextID += 1
        case .setDone(let id, let done): todos[id]?.done = done
        case .remove(let id): todos[id] = nil
        case .show(let filter): self.filter = filter
        case .sort(let order): self.order = order
        }
    }

    /// The lines the list shows, computed from scratch.
    var lines: [String] {
        todos.values.filter(filter.includes).sorted(by: order.isBefore).map(\.line)
    }
}

/// A todo list built in one paradigm: it takes commands and shows the list through the
/// paradigm's own observation.
protocol TodoApp: AnyObject {
    init(show: @escaping ([String]) -> Void)
    func perform(_ command: TodoCommand)
    func tearDown()
    /// The paradigm's engine around the list, for the devtools page; nil for a paradigm that
    /// has none (the baseline's `didSet`).
    func inspect() -> Inspection?
}
