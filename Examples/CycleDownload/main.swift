// `swift run cycle-download`: the Cycle seed's network / screen / session program.
//
// Press `d` (then Return) to download, `q` to quit. The screen shows a button that turns grey
// while a download runs; the number of downloads is kept in a session file across runs.
// Options: `--url URL` (what to download), `--session FILE`, `--script FILE` (keys from a file),
// `--record FILE` (save the keys on a tape), `--replay FILE` (type a saved tape's keys),
// `--devtools FILE` (a devtools page of the loop, a step at each frame drawn),
// `--devtools-serve PORT` (the same page, served while the program runs).

import Cycle
import ExampleSupport
import Foundation

struct Saved: Codable, Equatable, Sendable {
    var downloads: Int
}

enum ButtonColor: String {
    case blue, grey
}

/// Ends the program once its model says so: a driver of our own, to show how one is written.
struct ExitDriver: Driver {
    func rendered(_ models: EventStream<Bool>) -> EventStream<Never> {
        EventStream { _ in
            models.subscribe { quit in
                if quit { exit(0) }
            }
        }
    }
}

struct Download: SinkSourceConverting {
    enum DriverEvent {
        case launching
        case network(HTTPEvent)
        case screen(TerminalEvent)
        case session(SessionEvent<Saved>)
    }

    struct DriverModels {
        var network: [String: HTTPRequest] = [:]
        var screen = TerminalFrame()
        var session: Saved?
        var quit = false
        // The app's own state, rendered by the drivers above.
        var button = ButtonColor.blue
        var status = "launching"
        var downloads = 0
        var wantsToQuit = false
    }

    let url: URL
    let network: HTTPDriver
    let screen: TerminalDriver
    let session: SessionDriver<Saved>

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        let exit = ExitDriver().rendered(effects.map(\.quit))
        return .merge(
            network.rendered(effects.map(\.network)).map(DriverEvent.network),
            screen.rendered(effects.map(\.screen)).map(DriverEvent.screen),
            session.rendered(effects.map(\.session)).map(DriverEvent.session),
            EventStream { _ in exit.subscribe { _ in } })
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var new = models
            switch event {
            case .launching: break
            case .session(let event): new.reduce(session: event)
            case .screen(let event): new.reduce(screen: event, url: url)
            case .network(let event): new.reduce(network: event)
            }
            new.screen = new.frame
            new.quit = new.wantsToQuit && new.network.isEmpty
            return new
        }
    }

    func start() -> (DriverEvent, DriverModels) {
        (.launching, DriverModels())
    }
}

extension Download.DriverModels {
    mutating func reduce(session event: SessionEvent<Saved>) {
        switch event {
        case .restored(let saved):
            downloads = saved.downloads
            status = "ready (restored \(saved.downloads) download(s))"
        case .missing: status = "ready"
        case .corrupt: status = "ready (the session file was corrupt and was set aside)"
        case .saved, .failed: break
        }
    }

    mutating func reduce(screen event: TerminalEvent, url: URL) {
        switch event {
        case .key("d") where network.isEmpty:
            network["download"] = HTTPRequest(url: url, timeout: .seconds(10))
            button = .grey
            status = "downloading \(url.absoluteString)"
        case .key("q"), .endOfInput: wantsToQuit = true
        case .key: break
        }
    }

    mutating func reduce(network event: HTTPEvent) {
        network[event.id] = nil
        button = .blue
        switch event {
        case .response(_, let code, let body):
            downloads += 1
            session = Saved(downloads: downloads)
            status = "downloaded \(body.count) bytes (HTTP \(code))"
        case .failure(_, let reason):
            status = "download failed: \(reason)"
        }
    }

    var frame: TerminalFrame {
        TerminalFrame([
            "[ Download ] (\(button.rawValue))", "status: \(status)", "downloads: \(downloads)",
            "keys: d = download, q = quit",
        ])
    }
}

var url = URL(string: "http://127.0.0.1:9/")!
var sessionFile = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-download-session.json")
var input: any TerminalInput = StandardInput()
var recordPath: String?
var replayPath: String?
var devToolsPath: String?
var devToolsPort: UInt16?
let usage = "options: --url URL, --session FILE, --script FILE, --record FILE, --replay FILE, \(devToolsUsage)"
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard let value = arguments.first else {
        FileHandle.standardError.write(Data("error: \(option) needs a value\n".utf8))
        exit(2)
    }
    arguments.removeFirst()
    switch option {
    case "--url": url = URL(string: value) ?? url
    case "--session": sessionFile = URL(fileURLWithPath: value)
    case "--script":
        guard let script = try? String(contentsOfFile: value, encoding: .utf8) else {
            FileHandle.standardError.write(Data("error: cannot read script \(value)\n".utf8))
            exit(2)
        }
        input = ScriptedInput(script.split(separator: "\n").map(String.init))
    case "--record": recordPath = value
    case "--replay": replayPath = value
    case "--devtools": devToolsPath = value
    case "--devtools-serve": devToolsPort = parseDevToolsPort(value, usage: usage)
    default:
        FileHandle.standardError.write(Data("error: unknown option '\(option)'; \(usage)\n".utf8))
        exit(2)
    }
}

let tape = CommandTape(record: recordPath, replay: replayPath, usage: usage)
if let replayed = tape.replayedLines { input = ScriptedInput(replayed) }

/// Keys from `base`, each noted on the tape as it is typed.
struct TapedInput: TerminalInput {
    let base: any TerminalInput
    let tape: CommandTape

    func start(_ deliver: @escaping @Sendable (TerminalEvent) -> Void) {
        base.start { [tape] event in
            if case .key(let key) = event { tape.note(key) }
            deliver(event)
        }
    }
}

// The devtools page takes a step at each frame the screen draws: the loop as the event that
// drew it left it, inspected on the main queue, where the loop runs.
final class LoopInspection: @unchecked Sendable {
    // Unchecked: set once below, before the loop starts; read on the main queue only.
    var loop: CycleLoop<Download>?
}
let inspected = LoopInspection()
let frames = TapeRecorder(scheduler: DispatchScheduler(queue: .main))
let frameChannel = frames.channel("frame") { (frame: String) in print(frame, terminator: "") }
let devTools = ExampleDevTools(
    following: frames, title: "cycle-download", file: devToolsPath, port: devToolsPort, usage: usage
) {
    MainActor.assumeIsolated {
        inspected.loop?.inspect() ?? Inspection(paradigm: "Cycle", nodes: [], edges: [], statistics: [:])
    }
}
let drawn = devToolsPath != nil || devToolsPort != nil

let loop = CycleLoop(
    program: Download(
        url: url, network: HTTPDriver(),
        screen: TerminalDriver(
            input: TapedInput(base: input, tape: tape),
            output: { frame in
                if drawn { frameChannel.send(frame) } else { print(frame, terminator: "") }
            }),
        session: SessionDriver(url: sessionFile)))
inspected.loop = loop
dispatchMain()
