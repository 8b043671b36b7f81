// `swift run todo-list`: the same todo list with a filter and an order, in every paradigm.
//
// Commands: `add [p1|p2|p3] TITLE`, `done N`, `reopen N`, `remove N`,
// `show all|active|done`, `sort id|title|priority`, `quit` (or pass `--script FILE`). Each
// command goes to the list of every paradigm (or only the one `--paradigm NAME` names), and
// each shows its list through its own kind of observer.

import Foundation

let usage = """
    USAGE: swift run todo-list [--paradigm NAME] [--script FILE]

    Commands: add [p1|p2|p3] TITLE, done N, reopen N, remove N, show all|active|done,
    sort id|title|priority, quit.
    Paradigms: \(todoApps.map(\.name).joined(separator: ", ")).
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

var selected = todoApps
var script: [String]?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--paradigm":
        guard let name = arguments.popFirst() else { fail("--paradigm needs a name") }
        selected = todoApps.filter { $0.name.lowercased() == name.lowercased() }
        if selected.isEmpty {
            fail("unknown paradigm '\(name)'; valid paradigms: \(todoApps.map(\.name).joined(separator: ", "))")
        }
    case "--script":
        guard let path = arguments.popFirst() else { fail("--script needs a file") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read script \(path)") }
        script = text.split(separator: "\n").map(String.init)
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(argument)'")
    }
}

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

@MainActor func nextLine() -> String? {
    if script != nil { return script!.isEmpty ? nil : script!.removeFirst() }
    print("> ", terminator: "")
    return readLine()
}

while let line = nextLine()?.trimmingCharacters(in: .whitespaces) {
    if line.isEmpty || line.hasPrefix("#") { continue }
    if line == "quit" { break }
    guard let command = TodoCommand(line) else {
        print(
            "commands: add [p1|p2|p3] TITLE, done N, reopen N, remove N, show all|active|done, sort id|title|priority, quit"
        )
        continue
    }
    if script != nil { print("> \(line)") }
    for app in apps { app.perform(command) }
}
for app in apps { app.tearDown() }
