import Foundation

/// What an example's command line asked for.
public struct ExampleOptions {
    /// The names of the paradigms to run (all of them unless `--paradigm` named one).
    public var paradigms: [String]
    /// The script's lines, if `--script FILE` was given; otherwise the example reads its
    /// standard input.
    public var script: [String]?
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
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            exampleFailure("unknown argument '\(argument)'", usage: usage)
        }
    }
    return options
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
