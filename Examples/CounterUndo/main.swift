// `swift run counter-undo`: the same counter with undo, built in every paradigm.
//
// Type `+`, `-`, `undo`, `redo` or `quit` (or pass `--script FILE`). Each command goes to the
// counter of every paradigm (or only the one `--paradigm NAME` names), and each shows its new
// state through its own kind of observer: a Glue subscription, an Incremental observer, a Resin
// store, a Cycle screen driver, a Signals chain, a SignalGraph state handler, a `didSet`.
// `--record FILE` saves the session's commands on a tape; `--replay FILE` plays one back into
// fresh counters, which show the same screens. `--devtools FILE` writes a devtools page of the
// session (every paradigm's engine after each command), and `--devtools-serve PORT` serves it
// while the session runs.

import ExampleSupport
import Foundation

let usage = """
    USAGE: swift run counter-undo [--paradigm NAME] [--script FILE] [--record FILE] [--replay FILE]
                                  \(devToolsUsage)

    Commands: + (add one), - (take one), undo, redo, quit.
    Paradigms: \(counterApps.map(\.name).joined(separator: ", ")).
    """

let options = parseExampleArguments(
    CommandLine.arguments.dropFirst(), paradigms: counterApps.map(\.name), usage: usage)
let selected = counterApps.filter { options.paradigms.contains($0.name) }

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

runExampleCommands(
    options: options, help: "commands: \(Command.allCases.map(\.rawValue).joined(separator: ", ")), quit",
    title: "counter-undo",
    inspect: {
        exampleInspection(
            "counter-undo",
            zip(selected, apps).compactMap { entry, app in app.inspect().map { (entry.name, $0) } })
    }
) { line in
    guard let command = Command(rawValue: line) else { return false }
    for app in apps { app.perform(command) }
    return true
}
for app in apps { app.tearDown() }
