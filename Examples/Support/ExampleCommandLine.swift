import DevTools
import Foundation
import ReactiveCore

/// What an example's command line asked for.
public struct ExampleOptions {
    /// The names of the paradigms to run (all of them unless `--paradigm` named one).
    public var paradigms: [String]
    /// The script's lines, if `--script FILE` was given; otherwise the example reads its
    /// standard input.
    public var script: [String]?
    /// Where to save the session's commands as a tape (`--record FILE`).
    public var record: String?
    /// A tape of commands to play instead of reading them (`--replay FILE`).
    public var replay: String?
    /// Where to write the session's devtools page (`--devtools FILE`).
    public var devtools: String?
    /// The port to serve the session's devtools page on while it runs (`--devtools-serve
    /// PORT`; 0 for one the system picks).
    public var devtoolsPort: UInt16?
}

/// Prints `message` and `usage` to standard error and exits with status 2.
public func exampleFailure(_ message: String, usage: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

/// Parses the options every side-by-side example takes: `--paradigm NAME` (one of `names`,
/// case-insensitive), `--script FILE` and `--help`. Unknown arguments and names are errors
/// that list what is valid.
public func parseExampleArguments(
    _ arguments: some Sequence<String>, paradigms names: [String], usage: String
) -> ExampleOptions {
    var options = ExampleOptions(paradigms: names)
    var remaining = Array(arguments)[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "--paradigm":
            guard let name = remaining.popFirst() else { exampleFailure("--paradigm needs a name", usage: usage) }
            guard let match = names.first(where: { $0.lowercased() == name.lowercased() }) else {
                exampleFailure(
                    "unknown paradigm '\(name)'; valid paradigms: \(names.joined(separator: ", "))", usage: usage)
            }
            options.paradigms = [match]
        case "--script":
            guard let path = remaining.popFirst() else { exampleFailure("--script needs a file", usage: usage) }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                exampleFailure("cannot read script \(path)", usage: usage)
            }
            options.script = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case "--record":
            guard let path = remaining.popFirst() else { exampleFailure("--record needs a file", usage: usage) }
            options.record = path
        case "--replay":
            guard let path = remaining.popFirst() else { exampleFailure("--replay needs a file", usage: usage) }
            options.replay = path
        case "--devtools":
            guard let path = remaining.popFirst() else { exampleFailure("--devtools needs a file", usage: usage) }
            options.devtools = path
        case "--devtools-serve":
            options.devtoolsPort = parseDevToolsPort(remaining.popFirst(), usage: usage)
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            exampleFailure("unknown argument '\(argument)'", usage: usage)
        }
    }
    return options
}

/// The port `--devtools-serve` was given (`argument`), or stops the example with the reason.
public func parseDevToolsPort(_ argument: String?, usage: String) -> UInt16 {
    guard let argument else { exampleFailure("--devtools-serve needs a port (0 for any free one)", usage: usage) }
    guard let port = UInt16(argument) else {
        exampleFailure("--devtools-serve takes a port from 0 to 65535, not '\(argument)'", usage: usage)
    }
    return port
}

/// The options' line for an example's usage text.
public let devToolsUsage = "[--devtools FILE] [--devtools-serve PORT]"

/// Runs an example's command loop as ``runExampleCommands(script:help:handle:)`` does, with
/// `--record FILE` and `--replay FILE` (see ``CommandTape``): the commands typed or scripted
/// are saved on a tape, or a saved tape's commands are run, echoed as a script's are.
///
/// With `--devtools FILE` or `--devtools-serve PORT`, `inspect` (when given) inspects the
/// program after each command, for its devtools page (see
/// ``CommandTape/showDevTools(file:port:title:usage:pageTrace:diff:inspect:)``).
public func runExampleCommands(
    options: ExampleOptions, help: String, title: String = "session", inspect: (() -> Inspection)? = nil,
    handle: @escaping (String) -> Bool
) {
    let tape = CommandTape(record: options.record, replay: options.replay, usage: help)
    if let inspect {
        tape.showDevTools(
            file: options.devtools, port: options.devtoolsPort, title: title, usage: help, inspect: inspect)
    }
    runExampleCommands(script: tape.replayedLines ?? options.script, help: help) { line in
        tape.note(line)
        defer { tape.handled() }
        return handle(line)
    }
    tape.finish()
}

/// An example session's commands on a ReactiveCore `Tape`: each command read is recorded, one
/// virtual second after the one before, on a channel named `command`; ``save()`` writes the
/// tape as JSON to the `--record` file. With a `--replay` file, ``replayedLines`` are its
/// commands, in order, for the example to run as it runs a script: the same session again.
///
/// Thread-safe: an example may read its commands on a thread of its own. (Unchecked: ``note(_:)``,
/// ``handled()``, ``save()``, ``finish()`` and ``showDevTools(file:port:title:usage:pageTrace:diff:inspect:)`` run under one lock, so
/// the clock is advanced, the tapes recorded, the program inspected and the files written by one
/// caller at a time; the rest is set in the initializer and only read.)
public final class CommandTape: @unchecked Sendable {
    private let lock = NSLock()
    private let clock = TestScheduler()
    private let recorder: TapeRecorder
    private let channel: TapeChannel<String>
    private let recordPath: String?
    private let usage: String
    /// The commands of the tape to replay, if one was given.
    public let replayedLines: [String]?
    /// The devtools page's own recorder: a command is sent on its channel once it has been
    /// handled, so that the page's step shows the program after the command.
    private let shown: TapeRecorder
    private let shownChannel: TapeChannel<String>
    /// The command noted and not yet shown.
    private var pending: String?
    /// The devtools page, when the options asked for one.
    private var devTools: ExampleDevTools?

    /// A tape for a session, saved to `record` and read from `replay` when given; a tape that
    /// cannot be read stops the example with the reason and `usage`.
    public init(record: String?, replay: String?, usage: String) {
        recorder = TapeRecorder(scheduler: clock)
        channel = recorder.channel("command") { (_: String) in }
        shown = TapeRecorder(scheduler: clock)
        shownChannel = shown.channel("command") { (_: String) in }
        recordPath = record
        self.usage = usage
        guard let replay else {
            replayedLines = nil
            return
        }
        guard let data = FileManager.default.contents(atPath: replay) else {
            exampleFailure("cannot read tape \(replay)", usage: usage)
        }
        let decoder = JSONDecoder()
        decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
        do {
            replayedLines = try decoder.decode(Tape.self, from: data).entries.compactMap { $0.value(as: String.self) }
        } catch {
            exampleFailure("cannot load tape \(replay): \(error)", usage: usage)
        }
    }

    /// Shows the session in a devtools page (see ``ExampleDevTools``): with a `file`
    /// (`--devtools FILE`), the page of the commands so far is written there after each one;
    /// with a `port` (`--devtools-serve PORT`), the page is served on 127.0.0.1 while the
    /// session runs. A command's step is taken when it is marked ``handled()`` (or when the
    /// next command is noted, or the session finishes), so that the page shows the program
    /// after it; `inspect` inspects the program, once now and at each step, on the thread that
    /// marks it handled; `pageTrace` is what the file shows instead, and `diff` gives the
    /// served page's steps their diff rows, when given (see ``ExampleDevTools``). Does nothing
    /// when neither is given.
    public func showDevTools(
        file: String?, port: UInt16?, title: String, usage: String, pageTrace: (() -> Trace)? = nil,
        diff: (() -> [Trace.Change])? = nil, inspect: @escaping () -> Inspection
    ) {
        guard file != nil || port != nil else { return }
        lock.withLock {
            devTools = ExampleDevTools(
                following: shown, title: title, file: file, port: port, usage: usage, pageTrace: pageTrace,
                diff: diff, inspect: inspect)
        }
    }

    /// Records `line` as the next command, and saves the tape (an example may end by
    /// exiting from anywhere). A command noted before and not marked ``handled()`` is shown
    /// on the devtools page first.
    public func note(_ line: String) {
        lock.withLock {
            showPending()
            clock.advance(by: .seconds(1))
            channel.send(line)
            pending = line
            write()
        }
    }

    /// Marks the command last noted as handled: the devtools page shows the program as it is
    /// now, after it.
    public func handled() {
        lock.withLock { showPending() }
    }

    /// Writes the tape to the `--record` file, if one was given, and the devtools page, with
    /// the last command shown.
    public func save() {
        lock.withLock {
            showPending()
            write()
        }
    }

    /// Saves the tape and the devtools page, and stops serving the page: the session has
    /// ended.
    public func finish() {
        lock.withLock {
            showPending()
            write()
            devTools?.finish()
        }
    }

    /// Shows the pending command, if any, on the devtools page (which writes its file).
    private func showPending() {
        guard let line = pending else { return }
        pending = nil
        if devTools != nil { shownChannel.send(line) }
    }

    /// The body of ``save()``, with the lock held.
    private func write() {
        guard let recordPath else { return }
        saveTape(recorder.tape, toPath: recordPath, usage: usage)
    }
}

/// Writes `tape` as JSON to the file at `path` through the package's durable writer (whole or
/// not at all, through symbolic links), or stops the program with the reason and `usage`.
public func saveTape(_ tape: Tape, toPath path: String, usage: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        let data = try encoder.encode(tape)
        try data.withUnsafeBytes { try DurableFile.replace(atPath: path, with: $0) }
    } catch {
        exampleFailure("cannot save tape \(path): \(error)", usage: usage)
    }
}

/// Runs an example's command loop: reads lines from the script, or from standard input with
/// a prompt; skips blank lines and `#` comments; stops at `quit` or the end. Each other line
/// goes to `handle` (echoed first when it comes from a script, so the output reads like a
/// session); `handle` returns `false` for a line it does not understand, and `help` is printed.
public func runExampleCommands(script: [String]?, help: String, handle: (String) -> Bool) {
    var remaining = script
    while true {
        let next: String?
        if remaining != nil {
            next = remaining!.isEmpty ? nil : remaining!.removeFirst()
        } else {
            print("> ", terminator: "")
            next = readLine()
        }
        guard let line = next?.trimmingCharacters(in: .whitespaces), line != "quit" else { return }
        if line.isEmpty || line.hasPrefix("#") { continue }
        if remaining != nil { print("> \(line)") }
        if !handle(line) { print(help) }
    }
}

/// An example's paradigms inspected as one page: `parts`' inspections side by side, each node's
/// details naming its paradigm (`paradigm`), and each counter prefixed with it.
public func exampleInspection(_ title: String, _ parts: [(paradigm: String, inspection: Inspection)]) -> Inspection {
    Inspection(
        paradigm: title,
        merging: parts.map { part in
            var inspection = part.inspection
            for index in inspection.nodes.indices { inspection.nodes[index].details["paradigm"] = part.paradigm }
            inspection.statistics = Dictionary(
                uniqueKeysWithValues: inspection.statistics.map { ("\(part.paradigm) \($0.key)", $0.value) })
            return inspection
        })
}
