// `swift run resin-navigation`: Resin's navigation as state, rendered in a terminal.
//
// Type commands (or pass `--script FILE`): `open N` opens todo N, `back` pops, `home` pops
// to the list, `add TITLE` adds a todo, `about` presents the about sheet, `close` dismisses
// it, `quit` ends. After each command the screen stack (and the sheet over it) is rendered
// from the state by the registered presentation routes.

import Foundation
import Resin

struct Todo: Identifiable, Equatable {
    let id: Int
    var title: String
}

struct AppState: Equatable {
    var todos: [Todo] = [Todo(id: 1, title: "Buy milk"), Todo(id: 2, title: "Walk the dog")]
    var navigation = NavigationState(["list"])
}

struct AddTodo: Action { var title: String }

/// The todos module: its reducer stays private; the app registers the parcel. Its routes make
/// their screens from the store the parcel is registered on (the app's todos, focused).
let todosParcel: Parcel<[Todo]> = {
    Parcel(
        reducers: [
            ParcelReducer(
                Reducer<[Todo], AddTodo> { todos, action in
                    todos.append(Todo(id: (todos.map(\.id).max() ?? 0) + 1, title: action.title))
                })
        ],
        routes: [
            PresentationRoute<String>("list") { (_, todos: Store<[Todo]>) in
                "Todos\n" + todos.state.value.map { "  \($0.id). \($0.title)" }.joined(separator: "\n")
            }.erased,
            PresentationRoute<String>("todo") { (id, todos: Store<[Todo]>) in
                let todo = todos.state.value.first { String($0.id) == id.parameter }
                return "Todo \(id.parameter ?? "?"): \(todo?.title ?? "(no such todo)")"
            }.erased,
        ])
}()

/// The app's own screens.
let appParcel = Parcel<AppState>(routes: [
    PresentationRoute<String>("about") { (_, app: Store<AppState>) in
        "About: \(app.state.value.todos.count) todos, \(app.state.value.navigation.stack.count) screens deep"
    }.erased
])

let store = Store(initialState: AppState())
// Each registration lasts while its connection is held: here, for the whole program.
let navigation = store.register(Parcel.navigation.focused(on: \AppState.navigation))
let todos = store.register(todosParcel.focused(on: \AppState.todos))
let app = store.register(appParcel)

@MainActor func render(_ navigation: NavigationState) {
    let screens = store.presentations(of: navigation, as: String.self)
    for (depth, screen) in screens.enumerated() {
        let indent = String(repeating: "  ", count: depth)
        let marker = depth == screens.count - 1 && navigation.sheet == nil ? "▶" : "·"
        for (line, text) in screen.split(separator: "\n").enumerated() {
            print(indent + (line == 0 ? "\(marker) " : "  ") + text)
        }
    }
    if let sheet = navigation.sheet {
        print("▣ " + store.presentation(of: sheet, as: String.self))
    }
    print("--")
}

let connection = store.focus(\.navigation).state.observe(render)

var input: [String]?
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--script", let path = arguments.dropFirst().first {
    guard let script = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("error: cannot read script \(path)\n".utf8))
        exit(2)
    }
    input = script.split(separator: "\n").map(String.init)
} else if let unknown = arguments.first {
    FileHandle.standardError.write(
        Data("error: unknown argument '\(unknown)'; usage: resin-navigation [--script FILE]\n".utf8))
    exit(2)
}

@MainActor func nextLine() -> String? {
    if input != nil { return input!.isEmpty ? nil : input!.removeFirst() }
    return readLine()
}

while let line = nextLine() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    switch words.first {
    case "open" where words.count == 2: store.dispatch(Navigate.push(PresentationID("todo", parameter: words[1])))
    case "back": store.dispatch(Navigate.pop)
    case "home": store.dispatch(Navigate.popTo("list"))
    case "about": store.dispatch(Navigate.present("about"))
    case "close": store.dispatch(Navigate.dismiss)
    case "add" where words.count == 2:
        store.dispatch(AddTodo(title: words[1]))
        render(store.state.value.navigation)
    case "quit": exit(0)
    case nil: continue
    default: print("commands: open N, back, home, add TITLE, about, close, quit")
    }
}
_ = connection
