// `swift run shopping-list`: a shopping list kept in JSON files, in a terminal.
//
// Type commands (or pass `--script FILE`); `--data DIR` says where the list and the settings
// are kept (by default `.shopping-list` in the current directory). Commands: `add NAME [QTY]`
// adds an item (through the "add item" sheet; its price is then looked up), `open NAME` opens
// an item's screen, and on it `done`, `qty N`, `price` (look the price up again) and `delete`;
// `settings` opens the settings, and on them `currency CODE` and `hide-done`; `back` pops,
// `ok` dismisses an alert, `quit` ends (saving). After each command the screens are rendered
// from the state. `--devtools FILE` writes a devtools page of the session (the store after each
// command), `--devtools-serve PORT` serves it while the session runs.

import ExampleSupport
import Foundation
import Resin
import ShoppingListFeature

var arguments = Array(CommandLine.arguments.dropFirst())
var scriptPath: String?
var recordPath: String?
var replayPath: String?
var devToolsPath: String?
var devToolsPort: UInt16?
let usage = "usage: shopping-list [--script FILE] [--data DIR] [--record FILE] [--replay FILE] \(devToolsUsage)"
var dataDirectory = URL(fileURLWithPath: ".shopping-list")
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--script" where !arguments.isEmpty: scriptPath = arguments.removeFirst()
    case "--record" where !arguments.isEmpty: recordPath = arguments.removeFirst()
    case "--replay" where !arguments.isEmpty: replayPath = arguments.removeFirst()
    case "--data" where !arguments.isEmpty: dataDirectory = URL(fileURLWithPath: arguments.removeFirst())
    case "--devtools" where !arguments.isEmpty: devToolsPath = arguments.removeFirst()
    case "--devtools-serve":
        devToolsPort = parseDevToolsPort(arguments.isEmpty ? nil : arguments.removeFirst(), usage: usage)
    default:
        FileHandle.standardError.write(Data("error: unknown argument '\(argument)'; \(usage)\n".utf8))
        exit(2)
    }
}

var input: [String]?
if let scriptPath {
    guard let script = try? String(contentsOfFile: scriptPath, encoding: .utf8) else {
        FileHandle.standardError.write(Data("error: cannot read script \(scriptPath)\n".utf8))
        exit(2)
    }
    input = script.split(separator: "\n").map(String.init)
}

let store = Store(initialState: ShoppingState())
// What storage reports (a file that cannot be read, a failed write) is shown, and the app goes on.
store.unhandledErrorHandler = { error in print("! \(error)") }
let app = registerShoppingList(on: store, dataDirectory: dataDirectory)

// `--record FILE` saves the commands on a tape; `--replay FILE` runs a saved tape's commands.
let tape = CommandTape(record: recordPath, replay: replayPath, usage: usage)
if let replayed = tape.replayedLines { input = replayed }
// The page's file shows the store's history: each action with the state diff it made; the
// served page, each command's state diff.
let history = devToolsPath == nil ? nil : store.recordHistory()
tape.showDevTools(
    file: devToolsPath, port: devToolsPort, title: "shopping-list", usage: usage,
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

/// Waits until no effect runs: each command's lookups and dismissals have come back.
@MainActor func settle() async {
    while store.runningEffectCount > 0 { try? await Task.sleep(for: .milliseconds(5)) }
}

@MainActor func item(named name: String) -> Item? {
    store.state.value.items.first { $0.name == name }
}

print(renderShoppingList(store.state.value))
while let line = nextLine() {
    let words = line.split(separator: " ").map(String.init)
    guard let command = words.first else { continue }
    let rest = words.dropFirst().joined(separator: " ")
    print("> \(line)")
    switch command {
    case "add" where !rest.isEmpty:
        let quantity = words.count > 2 ? Int(words.last!) : nil
        let name = quantity == nil ? rest : words.dropFirst().dropLast().joined(separator: " ")
        store.dispatch(ListAction.startAdding)
        store.dispatch(FormAction.setName(name))
        store.dispatch(FormAction.setQuantity(quantity ?? 1))
        store.dispatch(FormAction.save)
    case "open" where !rest.isEmpty:
        if let item = item(named: rest) { store.dispatch(ListAction.open(itemID: item.id)) }
    case "done": store.dispatch(ItemAction.toggleDone)
    case "qty" where Int(rest) != nil: store.dispatch(ItemAction.setQuantity(Int(rest)!))
    case "price": store.dispatch(ItemAction.refreshPrice)
    case "delete": store.dispatch(ItemAction.delete)
    case "settings": store.dispatch(ListAction.openSettings)
    case "currency" where !rest.isEmpty: store.dispatch(SettingsAction.setCurrency(rest))
    case "hide-done": store.dispatch(SettingsAction.toggleHidesDone)
    case "back": store.dispatch(StackAction<Screen>.pop())
    case "ok": store.dispatch(PresentationAction<Sheet>.dismiss())
    case "quit":
        tape.finish()
        app.disconnect()
        exit(0)
    default:
        print(
            "commands: add NAME [QTY], open NAME, done, qty N, price, delete, settings, currency CODE, hide-done, back, ok, quit"
        )
        continue
    }
    await settle()
    print(renderShoppingList(store.state.value))
    tape.handled()
}
tape.finish()
app.disconnect()
