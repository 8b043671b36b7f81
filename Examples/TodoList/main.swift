// `swift run todo-list`: the same todo list with a filter and an order, in every paradigm.
//
// Commands: `add [p1|p2|p3] TITLE`, `done N`, `reopen N`, `remove N`,
// `show all|active|done`, `sort id|title|priority`, `quit` (or pass `--script FILE`). Each
// command goes to the list of every paradigm (or only the one `--paradigm NAME` names), and
// each shows its list through its own kind of observer.
// `--record FILE` saves the session's commands on a tape; `--replay FILE` plays one back into
// fresh lists, which show the same screens. `--devtools FILE` writes a devtools page of the
// session (every paradigm's engine after each command), and `--devtools-serve PORT` serves it
// while the session runs.

import ExampleSupport
import Foundation

let usage = """
    USAGE: swift run todo-list [--paradigm NAME] [--script FILE] [--record FILE] [--replay FILE]
                               \(devToolsUsage)

    Commands: add [p1|p2|p3] TITLE, done N, reopen N, remove N, show all|active|done,
    sort id|title|priority, quit.
    Paradigms: \(todoApps.map(\.name).joined(separator: ", ")).
    """

let options = parseExampleArguments(
    CommandLine.arguments.dropFirst(), paradigms: todoApps.map(\.name), usage: usage)
let selected = todoApps.filter { options.paradigms.contains($0.name) }

/// Prints the list a paradigm's observer shows, under the paradigm's name; the same list
/// again is not printed twice (some paradigms tell observers about an unchanged list).
final class Screen {
    let name: String
    private var last: [String]?
    init(name: String) { self.name = name }

    func show(_ lines: [String]) {
        guard lines != last else { return }
        last = lines
        print("\(name):")
        for line in lines.isEmpty ? ["(nothing to show)"] : lines { print("\(name)   \(line)") }
    }
}

let apps: [any TodoApp] = selected.map { entry in
    let screen = Screen(name: entry.name)
    return entry.make { screen.show($0) }
}

runExampleCommands(
    options: options,
    help:
        "commands: add [p1|p2|p3] TITLE, done N, reopen N, remove N, show all|active|done, sort id|title|priority, quit",
    title: "todo-list",
    inspect: {
        exampleInspection(
            "todo-list", zip(selected, apps).compactMap { entry, app in app.inspect().map { (entry.name, $0) } })
    }
) { line in
    guard let command = TodoCommand(line) else { return false }
    for app in apps { app.perform(command) }
    return true
}
for app in apps { app.tearDown() }
