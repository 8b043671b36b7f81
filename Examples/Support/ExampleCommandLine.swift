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

/// Runs an example's command loop as ``runExampleCommands(script:help:handle:)`` does, each
/// command going through a tape channel one virtual second after the one before: with
/// `--record FILE` the commands are saved on a tape at the end; with `--replay FILE` the tape's
/// commands are played, at their times, instead of reading any (each echoed, as from a script).
public func runExampleCommands(options: ExampleOptions, help: String, handle: @escaping (String) -> Bool) {
    let clock = TestScheduler()
    let recorder = TapeRecorder(scheduler: clock)
    let commands = recorder.channel("command") { (line: String) in
        if options.replay != nil { print("> \(line)") }
        if !handle(line) { print(help) }
    }
    if let path = options.replay {
        guard let data = FileManager.default.contents(atPath: path) else {
            exampleFailure("cannot read tape \(path)", usage: help)
        }
        let decoder = JSONDecoder()
        decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
        let tape: Tape
        do {
            tape = try decoder.decode(Tape.self, from: data)
        } catch {
            exampleFailure("cannot load tape \(path): \(error)", usage: help)
        }
        let playing = recorder.replay(tape)
        for entry in tape.entries { clock.advance(to: SchedulerInstant(offset: entry.time)) }
        playing.disconnect()
    } else {
        runExampleCommands(script: options.script, help: help) { line in
            clock.advance(by: .seconds(1))
            commands.send(line)
            return true
        }
    }
    guard let path = options.record else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(recorder.tape).write(to: URL(fileURLWithPath: path))
    } catch {
        exampleFailure("cannot save tape \(path): \(error)", usage: help)
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
