import ReactiveCore

/// The counter and its undo history: the state every paradigm keeps, each in its own way.
struct CounterHistory: Equatable {
    var count = 0
    /// Earlier counts, the most recent last.
    var past: [Int] = []
    /// Undone counts, the next to redo last.
    var future: [Int] = []

    mutating func change(by delta: Int) {
        past.append(count)
        future.removeAll()
        count += delta
    }

    mutating func undo() {
        guard let previous = past.popLast() else { return }
        future.append(count)
        count = previous
    }

    mutating func redo() {
        guard let next = future.popLast() else { return }
        past.append(count)
        count = next
    }

    /// What the screen shows.
    var display: String { "count: \(count)   (undo: \(past.count), redo: \(future.count))" }
}

/// A command typed at the prompt.
enum Command: String, CaseIterable, Sendable {
    case increment = "+"
    case decrement = "-"
    case undo
    case redo
}

/// A counter with undo built in one paradigm: it takes commands and shows each new state
/// through the paradigm's own observation (`show` is called by an observer, never directly).
protocol CounterApp: AnyObject {
    init(show: @escaping (String) -> Void)
    func perform(_ command: Command)
    func tearDown()
    /// The paradigm's engine around the counter, for the devtools page; nil for a paradigm
    /// that has none (the baseline's `didSet`).
    func inspect() -> Inspection?
}
