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
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            exampleFailure("unknown argument '\(argument)'", usage: usage)
        }
    }
    return options
}

/// Runs an example's command loop as ``runExampleCommands(script:help:handle:)`` does, with
/// `--record FILE` and `--replay FILE` (see ``CommandTape``): the commands typed or scripted
/// are saved on a tape, or a saved tape's commands are run, echoed as a script's are.
public func runExampleCommands(options: ExampleOptions, help: String, handle: @escaping (String) -> Bool) {
    let tape = CommandTape(record: options.record, replay: options.replay, usage: help)
    runExampleCommands(script: tape.replayedLines ?? options.script, help: help) { line in
        tape.note(line)
        return handle(line)
    }
    tape.save()
}

/// An example session's commands on a ReactiveCore `Tape`: each command read is recorded, one
/// virtual second after the one before, on a channel named `command`; ``save()`` writes the
/// tape as JSON to the `--record` file. With a `--replay` file, ``replayedLines`` are its
/// commands, in order, for the example to run as it runs a script: the same session again.
///
/// Thread-safe: an example may read its commands on a thread of its own. (Unchecked: ``note(_:)``
/// and ``save()`` run under one lock, so the clock is advanced, the tape recorded and the file
/// written by one caller at a time; the rest is set in the initializer and only read.)
public final class CommandTape: @unchecked Sendable {
    private let lock = NSLock()
    private let clock = TestScheduler()
    private let recorder: TapeRecorder
    private let channel: TapeChannel<String>
    private let recordPath: String?
    private let usage: String
    /// The commands of the tape to replay, if one was given.
    public let replayedLines: [String]?

    /// A tape for a session, saved to `record` and read from `replay` when given; a tape that
    /// cannot be read stops the example with the reason and `usage`.
    public init(record: String?, replay: String?, usage: String) {
        recorder = TapeRecorder(scheduler: clock)
        channel = recorder.channel("command") { (_: String) in }
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

    /// Records `line` as the next command, and saves the tape (an example may end by
    /// exiting from anywhere).
    public func note(_ line: String) {
        lock.withLock {
            clock.advance(by: .seconds(1))
            channel.send(line)
            write()
        }
    }

    /// Writes the tape to the `--record` file, if one was given.
    public func save() {
        lock.withLock { write() }
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
