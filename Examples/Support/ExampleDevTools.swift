import DevTools
import Foundation

/// An example's devtools page, as its command line asked: with `--devtools FILE`, the page of
/// the inputs so far is written to FILE after each input `recorder`'s channels apply (and at
/// ``finish()``); with `--devtools-serve PORT`, the page is served on 127.0.0.1 while the
/// example runs, following each input, its address printed to standard error. Neither option:
/// nothing is inspected, written or served.
///
/// `inspect` inspects the program: once now, then after each input, where the input was
/// applied (the example's thread). A `pageTrace`, when given, is what the file shows instead
/// of those inspections (a Resin store's history, with each action's state diff: `History`'s
/// `trace(of:)`); it is read where the inputs are applied too. A `diff`, when given, gives the
/// served page's steps their state diff rows (a Resin store's `stateChanges()`). A port that
/// is taken, or a file that cannot be written, stops the example with the reason.
public final class ExampleDevTools {
    private let usage: String
    private let page: (trace: () -> Trace, path: String, title: String)?
    private let following: Connection?
    private let server: DevToolsServer?

    /// Shows the program whose inputs go through `recorder`'s channels; `title` names the page.
    public init(
        following recorder: TapeRecorder, title: String, file: String?, port: UInt16?, usage: String,
        pageTrace: (() -> Trace)? = nil, diff: (() -> [Trace.Change])? = nil, inspect: @escaping () -> Inspection
    ) {
        self.usage = usage
        if let file {
            var connections: [Connection] = []
            let trace: () -> Trace
            if let pageTrace {
                trace = pageTrace
            } else {
                let tracer = TraceRecorder(paradigm: title, inspect: inspect)
                connections.append(tracer.follow(recorder))
                trace = { tracer.trace }
            }
            page = (trace, file, title)
            // This follower runs after the tracer's own (added first): the page written holds
            // the step just taken.
            connections.append(
                recorder.afterEachInput { [usage] _ in Self.write(trace(), path: file, title: title, usage: usage) })
            following = Connection(grouping: connections)
            Self.write(trace(), path: file, title: title, usage: usage)
        } else {
            page = nil
            following = nil
        }
        if let port {
            do {
                let server = try DevToolsServer(
                    following: recorder, paradigm: title, title: title, port: port, diff: diff, inspect: inspect)
                FileHandle.standardError.write(Data("devtools: \(server.url)\n".utf8))
                self.server = server
            } catch {
                exampleFailure("\(error)", usage: usage)
            }
        } else {
            server = nil
        }
    }

    /// The port the page is served on, when it is.
    public var port: UInt16? { server?.port }

    /// Writes the page a last time and stops the server: the example's session has ended.
    public func finish() {
        if let page { Self.write(page.trace(), path: page.path, title: page.title, usage: usage) }
        following?.disconnect()
        server?.stop()
    }

    private static func write(_ trace: Trace, path: String, title: String, usage: String) {
        do {
            try DevToolsPage(trace: trace, title: title).write(to: path)
        } catch {
            exampleFailure("cannot write the devtools page \(path): \(error)", usage: usage)
        }
    }
}
