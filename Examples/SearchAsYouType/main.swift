// `swift run search-as-you-type`: search as you type, in every paradigm, against a real HTTP
// server that the program starts on 127.0.0.1.
//
// Each line you type is the new text of the search field (an empty line clears it); `wait MS`
// waits (in scripts); `quit` ends. Typing is throttled to one request per 300 ms; only the
// answer to the latest request is shown. The search boxes are the shared suite's, from
// `Scenarios`: the suite runs them on virtual time against a fake backend, this program runs
// them on the main queue against the server. `--devtools FILE` writes a devtools page of the
// session (every paradigm's engine after each line), `--devtools-serve PORT` serves it.

import Dispatch
import ExampleSupport
import Foundation
import ReactiveCore
import Scenarios

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let usage = """
    USAGE: swift run search-as-you-type [--paradigm NAME] [--script FILE] [--record FILE] [--replay FILE]
                                        \(devToolsUsage)

    Type the search field's text, one line at a time; `wait MS` waits; `quit` ends.
    Paradigms: \(ParadigmCatalog.adapters.map(\.name).joined(separator: ", ")).
    """

let options = parseExampleArguments(
    CommandLine.arguments.dropFirst(), paradigms: ParadigmCatalog.adapters.map(\.name), usage: usage)
let adapters = ParadigmCatalog.adapters.filter { options.paradigms.contains($0.name) }
// `--record FILE` saves the lines on a tape; `--replay FILE` runs a saved tape's lines.
let tape = CommandTape(record: options.record, replay: options.replay, usage: usage)
let scriptLines = tape.replayedLines ?? options.script

/// The words the server searches.
let words = [
    "swift", "swiftly", "swim", "swimmer", "swing", "switch", "sword", "sort", "stream", "string", "struct",
    "search", "server", "signal", "store",
]

/// The server: `/search?q=TEXT` answers the words starting with TEXT, one per line, after 50 ms;
/// but `swi` after 800 ms, so that a script can make an older request's answer arrive after a
/// newer one's (latest wins: it must never be shown).
let server: LoopbackServer
do {
    server = try LoopbackServer { path in
        let query = URLComponents(string: path)?.queryItems?.first { $0.name == "q" }?.value ?? ""
        let found = query.isEmpty ? [] : words.filter { $0.hasPrefix(query) }
        let delay: Duration = query == "swi" ? .milliseconds(800) : .milliseconds(50)
        return .answer(status: 200, body: found.joined(separator: "\n"), delay: delay)
    }
} catch {
    exampleFailure("cannot start the server on 127.0.0.1: \(error)", usage: usage)
}

/// Sends queries to the server with URLSession and replies on the main queue. A disconnected
/// request's answer is dropped (the task is left to finish: cancelling a task as it starts can
/// crash swift-corelibs-foundation).
final class HTTPSearchService: SearchService {
    private let server: LoopbackServer

    init(server: LoopbackServer) { self.server = server }

    func search(_ query: String, reply: @escaping ([String]) -> Void) -> Connection {
        final class Pending { var isWanted = true }
        let pending = Pending()
        // Everything below runs on the main queue, this program's one domain.
        let deliver = IsolatedSink<[String]> { if pending.isWanted { reply($0) } }
        var components = URLComponents(url: server.url("/search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "q", value: query)]
        let task = URLSession.shared.dataTask(with: components.url!) { data, _, _ in
            let found = data.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
            DispatchQueue.main.async { deliver(found) }
        }
        task.resume()
        return Connection(isolated: { pending.isWanted = false })
    }
}

let service = HTTPSearchService(server: server)
let environment = SearchEnvironment(scheduler: DispatchScheduler(queue: .main), backend: service)
let boxes = adapters.map { ($0.name, $0.makeSearchBox(in: environment)) }
let width = adapters.map(\.name.count).max() ?? 0

// The devtools page: every paradigm's engine, inspected on the main queue after each line.
tape.showDevTools(
    file: options.devtools, port: options.devtoolsPort, title: "search-as-you-type", usage: usage
) {
    MainActor.assumeIsolated {
        exampleInspection("search-as-you-type", boxes.compactMap { name, box in box.inspect().map { (name, $0) } })
    }
}

/// Prints what every paradigm's results area shows now.
@MainActor func printScreens(_ marker: String) {
    for (name, box) in boxes {
        let shown = box.shownResults.isEmpty ? "(no results)" : box.shownResults.joined(separator: ", ")
        print("\(marker) \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(shown)")
    }
}

/// Reads the input on its own thread, so the main queue stays free for timers and answers.
let script = scriptLines
Thread.detachNewThread {
    var remaining = script
    while true {
        let line: String?
        if remaining != nil {
            line = remaining!.isEmpty ? nil : remaining!.removeFirst()
        } else {
            line = readLine()
        }
        guard let line, line != "quit" else { break }
        if line.hasPrefix("#") { continue }
        tape.note(line)
        if line.hasPrefix("wait "), let milliseconds = Int(line.dropFirst(5)) {
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1_000)
            DispatchQueue.main.sync {
                printScreens("=")
                tape.handled()
            }
            continue
        }
        // In scripts, `type TEXT` (or `type` alone, for an empty field); typed, the line itself.
        let text = line == "type" ? "" : line.hasPrefix("type ") ? String(line.dropFirst(5)) : line
        DispatchQueue.main.sync {
            print("> \(text)")
            for (_, box) in boxes { box.type(text) }
            tape.handled()
        }
    }
    DispatchQueue.main.sync {
        printScreens("=")
        tape.finish()
        for (_, box) in boxes { box.tearDown() }
    }
    exit(0)
}
dispatchMain()
