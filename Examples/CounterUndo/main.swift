// `swift run counter-undo`: the same counter with undo, built in every paradigm.
//
// Type `+`, `-`, `undo`, `redo` or `quit` (or pass `--script FILE`). Each command goes to the
// counter of every paradigm (or only the one `--paradigm NAME` names), and each shows its new
// state through its own kind of observer: a Glue subscription, an Incremental observer, a Resin
// store, a Cycle screen driver, a Signals chain, a SignalGraph state handler, a `didSet`.

import Foundation

let usage = """
    USAGE: swift run counter-undo [--paradigm NAME] [--script FILE]

    Commands: + (add one), - (take one), undo, redo, quit.
    Paradigms: \(counterApps.map(\.name).joined(separator: ", ")).
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

var selected = counterApps
var script: [String]?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--paradigm":
        guard let name = arguments.popFirst() else { fail("--paradigm needs a name") }
        selected = counterApps.filter { $0.name.lowercased() == name.lowercased() }
        if selected.isEmpty {
            fail("unknown paradigm '\(name)'; valid paradigms: \(counterApps.map(\.name).joined(separator: ", "))")
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

let width = selected.map(\.name.count).max() ?? 0
/// Prints what a paradigm's observer shows; a repeat of the same screen is not printed again
/// (some paradigms tell observers about an unchanged state, some do not).
final class Screen {
    let label: String
    private var last: String?
    init(name: String, width: Int) { label = name.padding(toLength: width, withPad: " ", startingAt: 0) }

    func show(_ text: String) {
        guard text != last else { return }
        last = text
        print("\(label)  \(text)")
    }
}

let apps: [any CounterApp] = selected.map { entry in
    let screen = Screen(name: entry.name, width: width)
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
    guard let command = Command(rawValue: line) else {
        print("commands: \(Command.allCases.map(\.rawValue).joined(separator: ", ")), quit")
        continue
    }
    if script != nil { print("> \(line)") }
    for app in apps { app.perform(command) }
}
for app in apps { app.tearDown() }
