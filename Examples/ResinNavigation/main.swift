// `swift run resin-navigation`: Resin's typed navigation, rendered in a terminal.
//
// Type commands (or pass `--script FILE`): `open N` pushes todo N's screen, `rename TITLE`
// edits the title on the top screen, `save` saves it (an effect that then dismisses the
// screen), `back` pops, `home` pops to the list, `link N M …` sets the whole stack at once (a
// deep link), `add TITLE` adds a todo, `about` presents the about sheet, `close` dismisses
// it, `quit` ends (`--record FILE` saves the commands on a tape, `--replay FILE` runs one). After
// each command the list, the stack of screens and the sheet are
// rendered from the state.

import ExampleSupport
import Foundation
import Resin

struct Todo: Identifiable, Equatable {
    let id: Int
    var title: String
}

/// One screen of the stack: a todo being looked at, with the title typed so far.
struct TodoScreen: Equatable, Sendable {
    var todoID: Int
    var draft: String?
}

enum Screen: Equatable, Sendable {
    case todo(TodoScreen)
    static let todo = CaseKey(Screen.todo) { if case .todo(let value) = $0 { value } else { nil } }
}

enum Sheet: Equatable, Sendable {
    case about
}

struct AppState: Equatable {
    var todos: [Todo] = [Todo(id: 1, title: "Buy milk"), Todo(id: 2, title: "Walk the dog")]
    var path = StackState<Screen>()
    var sheet: Sheet?
}

struct AddTodo: Action { var title: String }
struct Rename: Action { var title: String }
struct SaveTodo: Action {}
struct TodoSaved: Action { var todoID: Int; var title: String }
struct DeepLink: Action { var todoIDs: [Int] }

/// Where saved titles go: a server in a real app; here, a line on standard error.
struct TodoStorage: Sendable {
    var save: @Sendable (_ todoID: Int, _ title: String) async throws -> Void
}

enum TodoStorageKey: DependencyKey {
    static let liveValue = TodoStorage { id, title in
        FileHandle.standardError.write(Data("(saved todo \(id) as \"\(title)\")\n".utf8))
    }
}

extension Dependencies {
    var todoStorage: TodoStorage {
        get { self[TodoStorageKey.self] }
        set { self[TodoStorageKey.self] = newValue }
    }
}

/// A todo screen's reducers, registered while the screen is on the stack. Only the top
/// screen takes `Rename` and `SaveTodo`: the app sends them to it by its id.
func todoScreen(_ id: StackElementID, _ screen: Store<Screen?>, top: @escaping () -> StackElementID?) -> Connection {
    let todo = screen.focus(\.self, case: Screen.todo)
    let rename = todo.register(
        presentOnly: Reducer<TodoScreen, Rename> { screen, rename in
            guard top() == id else { return }
            screen.draft = rename.title
        })
    let save = todo.register(
        presentOnly: Reducer<TodoScreen, SaveTodo> { screen, _ in
            guard top() == id, let title = screen.draft else { return .none }
            let todoID = screen.todoID
            return .run { send in
                @Dependency(\.todoStorage) var storage
                @Dependency(\.dismiss) var dismiss
                try await storage.save(todoID, title)
                send(TodoSaved(todoID: todoID, title: title))
                dismiss()
            }
        })
    return Connection {
        rename.disconnect()
        save.disconnect()
    }
}

let appReducer = Reducer<AppState, AddTodo> { state, action in
    state.todos.append(Todo(id: (state.todos.map(\.id).max() ?? 0) + 1, title: action.title))
}
let savedReducer = Reducer<AppState, TodoSaved> { state, saved in
    state.todos[id: saved.todoID]?.title = saved.title
}
let linkReducer = Reducer<AppState, DeepLink> { state, link in
    state.sheet = nil
    state.path.replace(with: link.todoIDs.map { .todo(TodoScreen(todoID: $0)) })
}

let store = Store(initialState: AppState())
// Each registration lasts while its connection is held: here, for the whole program.
let registrations = [
    store.register(appReducer), store.register(savedReducer), store.register(linkReducer),
    store.stack(\.path) { id, screen in todoScreen(id, screen) { store.state.value.path.ids.last } },
    store.presentation(\.sheet) { _ in Connection() },
]

func render(_ state: AppState) {
    let top = state.path.isEmpty && state.sheet == nil
    print("\(top ? "▶" : "·") Todos")
    for todo in state.todos { print("    \(todo.id). \(todo.title)") }
    for (depth, screen) in state.path.enumerated() {
        guard case .todo(let todo) = screen else { continue }
        let marker = depth == state.path.count - 1 && state.sheet == nil ? "▶" : "·"
        let title = state.todos[id: todo.todoID]?.title ?? "(no such todo)"
        let draft = todo.draft.map { " (editing: \($0))" } ?? ""
        print(String(repeating: "  ", count: depth + 1) + "\(marker) Todo \(todo.todoID): \(title)\(draft)")
    }
    if state.sheet == .about {
        print("▣ About: \(state.todos.count) todos, \(state.path.count + 1) screens deep")
    }
    print("--")
}

let connection = store.state.observe(render)

var input: [String]?
var record: String?
var replay: String?
var devToolsPath: String?
var devToolsPort: UInt16?
var arguments = CommandLine.arguments.dropFirst()
let usage = "usage: resin-navigation [--script FILE] [--record FILE] [--replay FILE] \(devToolsUsage)"
while let argument = arguments.popFirst() {
    switch argument {
    case "--devtools":
        guard let path = arguments.popFirst() else { exampleFailure("--devtools needs a file", usage: usage) }
        devToolsPath = path
    case "--devtools-serve":
        devToolsPort = parseDevToolsPort(arguments.popFirst(), usage: usage)
    case "--script", "--record", "--replay":
        guard let path = arguments.popFirst() else { exampleFailure("\(argument) needs a file", usage: usage) }
        if argument == "--record" { record = path }
        if argument == "--replay" { replay = path }
        if argument == "--script" {
            guard let script = try? String(contentsOfFile: path, encoding: .utf8) else {
                exampleFailure("cannot read script \(path)", usage: usage)
            }
            input = script.split(separator: "\n").map(String.init)
        }
    default:
        exampleFailure("unknown argument '\(argument)'", usage: usage)
    }
}
// `--record FILE` saves the commands on a tape; `--replay FILE` runs a saved tape's commands.
let tape = CommandTape(record: record, replay: replay, usage: usage)
if let replayed = tape.replayedLines { input = replayed }
// `--devtools FILE` writes a devtools page of the session (the store after each command);
// `--devtools-serve PORT` serves it while the session runs.
// The page's file shows the store's history: each action with the state diff it made; the
// served page, each command's state diff.
let history = devToolsPath == nil ? nil : store.recordHistory()
tape.showDevTools(
    file: devToolsPath, port: devToolsPort, title: "resin-navigation", usage: usage,
    pageTrace: history.map { history in { MainActor.assumeIsolated { history.trace(of: store) } } },
    diff: devToolsPort == nil ? nil : store.stateChanges()
) {
    MainActor.assumeIsolated { store.inspect() }
}

@MainActor func nextLine() -> String? {
    let line = input != nil ? (input!.isEmpty ? nil : input!.removeFirst()) : readLine()
    if let line { tape.note(line) }
    return line
}

while let line = nextLine() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    switch words.first {
    case "open" where words.count == 2 && Int(words[1]) != nil:
        store.dispatch(StackAction.push(Screen.todo(TodoScreen(todoID: Int(words[1])!))))
    case "rename" where words.count == 2: store.dispatch(Rename(title: words[1]))
    // Waits for the save's effect, and for the actions it sent, before the next command.
    case "save": await store.dispatch(SaveTodo()).finish()
    case "back": store.dispatch(StackAction<Screen>.pop())
    case "home": store.dispatch(StackAction<Screen>.popToRoot())
    case "link" where words.count == 2:
        store.dispatch(DeepLink(todoIDs: words[1].split(separator: " ").compactMap { Int($0) }))
    case "about": store.dispatch(PresentationAction.present(Sheet.about))
    case "close": store.dispatch(PresentationAction<Sheet>.dismiss())
    case "add" where words.count == 2: store.dispatch(AddTodo(title: words[1]))
    case "quit":
        tape.finish()
        exit(0)
    case nil: continue
    default: print("commands: open N, rename TITLE, save, back, home, link N M …, add TITLE, about, close, quit")
    }
    tape.handled()
}
tape.finish()
_ = (connection, registrations)
