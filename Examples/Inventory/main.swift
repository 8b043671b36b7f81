// `swift run inventory`: three paradigms in one program, joined by delta bridges.
//
// - SignalGraph holds the rows: an editable dictionary storage of items, the state of record.
// - Incremental keeps the summary: a dictionary input driven by the storage's deltas, folded
//   and filtered edit by edit (the stock's value, the items running low).
// - Resin runs the screen: a store whose state the summary drives through a delta target
//   written here, and whose observers print the screen.
//
// Commands: `add NAME QTY PRICE`, `sell NAME QTY`, `restock NAME QTY`, `remove NAME`,
// `clearance` (halves every price in one transition), `stats`, `quit`. Options:
// `--script FILE` (commands from a file), `--record FILE` (save the session's inputs on a tape,
// one virtual second apart), `--replay FILE` (play a saved tape into a fresh program: the same
// screens come out), `--devtools FILE` (a devtools page of the three engines after each
// command), `--devtools-serve PORT` (the same page, served while the program runs).

import ExampleSupport
import Foundation
import Incremental
import ReactiveCore
import Resin
import SignalGraph

let usage = """
    USAGE: swift run inventory [--script FILE] [--record FILE] [--replay FILE] \(devToolsUsage)

    Commands: add NAME QTY PRICE, sell NAME QTY, restock NAME QTY, remove NAME,
    clearance, stats, quit.
    """

struct Item: Equatable {
    var quantity: Int
    var price: Double
}

/// What the screen shows: the Incremental summary, as the Resin store holds it.
struct Summary: Equatable {
    var items = 0
    var stockValue = 0.0
    var lowStock: [String] = []
}

struct Screen: Equatable {
    var summary = Summary()
    var updates = 0
}

/// The action the bridge dispatches: the summary after one transaction of the rows.
struct SummaryChanged: Action {
    var summary: Summary
}

// SignalGraph: the rows.
let rows = EditableDictionaryStorage<String, Item>()

// Incremental: the summary, kept edit by edit.
let graph = Graph()
let entries = graph.dictionaryInput([String: Item]())
let stockValue = entries.foldEntries(
    0.0, add: { total, _, item in total + Double(item.quantity) * item.price },
    remove: { total, _, item in total - Double(item.quantity) * item.price })
let lowStock = entries.filterEntries { _, item in item.quantity < 3 }.sortedEntries { $0.key < $1.key }
let summary = map3(entries, stockValue, lowStock) { entries, value, low in
    Summary(items: entries.count, stockValue: value, lowStock: low.elements.map(\.key))
}

// Resin: the screen.
let store = Store(initialState: Screen(), scheduler: TestScheduler())
let reducer = store.register(
    Reducer<Screen, SummaryChanged> { screen, change in
        screen.summary = change.summary
        screen.updates += 1
    })

// The bridges: rows → summary input, summary → screen.
let bridges = [rows.deltas().drive(entries), summary.drive(store.actionTarget { SummaryChanged(summary: $0) })]

var transitions = 0
let counting = rows.subscribe { signal in
    if case .transition = signal { transitions += 1 }
}
let rendering = store.focus(\.summary).state.observe { summary in
    let low = summary.lowStock.isEmpty ? "none" : summary.lowStock.joined(separator: ", ")
    print(String(format: "▣ %d items, stock worth %.2f, low: %@", summary.items, summary.stockValue, low))
}

@MainActor func handle(_ line: String) -> Bool {
    let words = line.split(separator: " ").map(String.init)
    switch (words.first, words.count) {
    case ("add", 4):
        guard let quantity = Int(words[2]), let price = Double(words[3]) else { return false }
        rows[words[1]] = Item(quantity: quantity, price: price)
    case ("sell", 3), ("restock", 3):
        guard let amount = Int(words[2]), var item = rows[words[1]] else { return false }
        item.quantity += words[0] == "sell" ? -min(amount, item.quantity) : amount
        rows[words[1]] = item
    case ("remove", 2):
        rows.removeValue(forKey: words[1])
    case ("clearance", 1):
        // One transition of every row: one propagation of the summary, one screen update.
        rows.apply(
            DictionaryTransition(
                rows.state.sorted { $0.key < $1.key }.map { name, item in
                    .update(name, Item(quantity: item.quantity, price: item.price / 2))
                }))
    case ("stats", 1):
        let screen = store.focus(\.updates).state.value
        print(
            "  rows sent \(transitions) transitions; the summary propagated "
                + "\(graph.statistics.propagations) times; the screen updated \(screen) times")
    default:
        return false
    }
    return true
}

var script: [String]?
var recordPath: String?
var replayPath: String?
var devToolsPath: String?
var devToolsPort: UInt16?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--script":
        guard let path = arguments.popFirst(), let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            exampleFailure("--script needs a readable file", usage: usage)
        }
        script = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    case "--record":
        guard let path = arguments.popFirst() else { exampleFailure("--record needs a file", usage: usage) }
        recordPath = path
    case "--replay":
        guard let path = arguments.popFirst() else { exampleFailure("--replay needs a file", usage: usage) }
        replayPath = path
    case "--devtools":
        guard let path = arguments.popFirst() else { exampleFailure("--devtools needs a file", usage: usage) }
        devToolsPath = path
    case "--devtools-serve":
        devToolsPort = parseDevToolsPort(arguments.popFirst(), usage: usage)
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        exampleFailure("unknown argument '\(argument)'", usage: usage)
    }
}

// The program's one input is the command line; each command goes through a tape channel, one
// virtual second after the one before.
let clock = TestScheduler()
let recorder = TapeRecorder(scheduler: clock)
let commands = recorder.channel("command") { (line: String) in
    if !handle(line) { print(usage) }
}

// The devtools page follows the same channel: a step after each command, with the three
// engines inspected side by side.
let devTools = ExampleDevTools(
    following: recorder, title: "inventory", file: devToolsPath, port: devToolsPort, usage: usage
) {
    exampleInspection(
        "inventory", [("SignalGraph", rows.inspect()), ("Incremental", summary.inspect()), ("Resin", store.inspect())])
}

if let replayPath {
    guard let data = FileManager.default.contents(atPath: replayPath) else {
        exampleFailure("cannot read tape \(replayPath)", usage: usage)
    }
    let decoder = JSONDecoder()
    decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
    let tape: Tape
    do {
        tape = try decoder.decode(Tape.self, from: data)
    } catch {
        exampleFailure("cannot load tape \(replayPath): \(error)", usage: usage)
    }
    let playing = recorder.replay(tape)
    for entry in tape.entries {
        clock.advance(to: SchedulerInstant(offset: entry.time))
    }
    playing.disconnect()
} else {
    runExampleCommands(script: script, help: usage) { line in
        clock.advance(by: .seconds(1))
        commands.send(line)
        return true
    }
}
if let recordPath {
    saveTape(recorder.tape, toPath: recordPath, usage: usage)
}
devTools.finish()
for bridge in bridges { bridge.disconnect() }
for connection in [counting, rendering, reducer] { connection.disconnect() }
