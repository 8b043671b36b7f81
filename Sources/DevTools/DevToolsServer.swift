import Foundation
import ReactiveCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A devtools page served live while a program runs: open ``url`` in a browser, and the page
/// follows each input the program takes, as it happens.
///
/// ```swift
/// let server = try DevToolsServer(following: recorder, paradigm: "Incremental") { total.inspect() }
/// print("devtools: \(server.url)")
/// // … the program runs; its tape channels' inputs appear on the page …
/// server.stop()
/// ```
///
/// The server listens on 127.0.0.1 only, on the port given or one the system picks, and
/// serves two things: the page (`/`), with the trace so far, and the page's event stream
/// (`/events`, Server-Sent Events), which sends each new step, the graph again when its shape
/// changed, and how many steps a slow page missed.
///
/// Nothing is inspected while no page watches: an input then costs the program one atomic
/// load and increment, and is counted. The first input after a page started watching is
/// compared with the last inspection taken, so its step shows what changed across the
/// inputs not traced too, and says how many there were. While a page watches, each input
/// costs an inspection of the program, taken where the input was applied (the program's
/// isolation domain), as `TraceRecorder` does.
///
/// A slow or vanished browser never blocks the program: each page is served by a thread of
/// its own, which reads the recorder's steps when it can; the recorder keeps at most
/// `capacity` steps, and a page that falls behind is told how many it missed. ``stop()``, or
/// releasing the server, closes its socket and every page's connection.
public final class DevToolsServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: UInt16
    private let core: ServerCore
    private let following: Connection

    /// The page's address.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// Starts serving the devtools page of the program whose inputs go through `recorder`'s
    /// channels, which `inspect` inspects (once now, then after each input while a page
    /// watches). `paradigm` and `title` name the page; `capacity` bounds the steps kept.
    /// `diff`, when given, is called where `inspect` is, after each input while a page
    /// watches: the changes to the program's state since its last call, shown as the step's
    /// diff rows (a Resin store's `stateChanges()`).
    ///
    /// - Throws: ``DevToolsServerError/cannotListen(port:)`` when the port is taken.
    public init(
        following recorder: TapeRecorder, paradigm: String, title: String? = nil, port: UInt16 = 0,
        capacity: Int = 10_000, diff: (() -> [Trace.Change])? = nil, inspect: @escaping () -> Inspection
    ) throws {
        guard let (descriptor, bound) = Loopback.listeningSocket(port: port) else {
            throw DevToolsServerError.cannotListen(port: port)
        }
        self.port = bound
        let tracer = TraceRecorder(paradigm: paradigm, capacity: capacity, inspect: inspect)
        let core = ServerCore(listener: descriptor, tracer: tracer, title: title ?? paradigm, diff: diff)
        self.core = core
        following = recorder.afterEachInput { entry in core.inputApplied(entry) }
        core.startAccepting()
    }

    deinit {
        stop()
    }

    /// How many pages are following the program now.
    public var watchers: Int { core.watchers.load(ordering: .acquiring) }

    /// Waits until a page follows the program, at most `timeout`; returns whether one does.
    /// For a program that has nothing to show before someone looks (a demonstration); the
    /// program's own thread waits, so call it where the program may wait.
    public func waitForWatcher(timeout: Duration) -> Bool {
        core.waitForWatcher(timeout: timeout)
    }

    /// Stops serving: the socket closes, and every page's connection with it (a page open
    /// shows it is disconnected). Inputs are no longer followed. Calling it again does
    /// nothing.
    public func stop() {
        following.disconnect()
        core.stop()
    }
}

/// Why a devtools server could not start.
public enum DevToolsServerError: Error, CustomStringConvertible, Equatable {
    /// The port could not be bound on 127.0.0.1 (another program has it).
    case cannotListen(port: UInt16)

    /// What went wrong.
    public var description: String {
        switch self {
        case .cannotListen(let port):
            "DevToolsServer: cannot listen on 127.0.0.1:\(port); give another port, or 0 for any free one"
        }
    }
}

/// The server's state, shared by the program's follower and the connections' threads.
///
/// `watchers` and `untraced` are atomics, so that an input with no page watching costs the
/// program no lock. Everything else is guarded by `condition`, which also wakes the event
/// streams when a step is taken.
final class ServerCore: @unchecked Sendable {
    // `@unchecked`: `listener` is written once in `init`; `clients`, `version` and `stopped`
    // are read and written only with `condition` locked; `diff`, like the tracer's inspection,
    // is called only in `inputApplied`, where the program applies its inputs.
    let watchers = Atomic<Int>(0)
    private let untraced = Atomic<Int>(0)
    private let condition = NSCondition()
    private var clients: Set<Int32> = []
    private var version = 0
    private var stopped = false
    private let listener: Int32
    let tracer: TraceRecorder
    private let title: String
    /// The program's state changes since the last step, for the step's diff rows.
    private let diff: (() -> [Trace.Change])?

    /// How long an event stream waits for a step before it writes a comment, which finds a
    /// connection the browser closed.
    private static let keepAlive: TimeInterval = 10

    init(listener: Int32, tracer: TraceRecorder, title: String, diff: (() -> [Trace.Change])?) {
        self.listener = listener
        self.tracer = tracer
        self.title = title
        self.diff = diff
    }

    /// An input was applied (in the program's domain): a step if a page watches, a count if
    /// not.
    func inputApplied(_ entry: Tape.Entry) {
        guard watchers.load(ordering: .relaxed) > 0 else {
            untraced.wrappingAdd(1, ordering: .relaxed)
            return
        }
        let skipped = untraced.exchange(0, ordering: .relaxed)
        var input = Trace.describe(entry.anyValue)
        if skipped > 0 { input += "  (after \(skipped) inputs not traced: no page was watching)" }
        tracer.step(channel: entry.channel, input: input, time: entry.time, diff: diff?() ?? [])
        condition.lock()
        version += 1
        condition.broadcast()
        condition.unlock()
    }

    func waitForWatcher(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while watchers.load(ordering: .acquiring) == 0 && !stopped {
            guard condition.wait(until: deadline) else { break }
        }
        return watchers.load(ordering: .acquiring) > 0
    }

    func startAccepting() {
        let listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                condition.lock()
                let open = !stopped
                if open { clients.insert(client) }
                condition.unlock()
                guard open else {
                    Loopback.shutDown(client)
                    return
                }
                Thread.detachNewThread { [self] in serve(client) }
            }
        }
    }

    func stop() {
        condition.lock()
        let wasStopped = stopped
        stopped = true
        let open = clients
        clients = []
        condition.broadcast()
        condition.unlock()
        guard !wasStopped else { return }
        Loopback.shutDown(listener)
        for client in open { shutdown(client, Int32(SHUT_RDWR)) }
    }

    /// Serves one connection: the page, its event stream, or a 404.
    private func serve(_ client: Int32) {
        defer {
            condition.lock()
            clients.remove(client)
            condition.unlock()
            close(client)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(client, &buffer, buffer.count)
        guard count > 0 else { return }
        let request = String(decoding: buffer[..<count], as: UTF8.self)
        let words = request.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0] == "GET" else {
            _ = Loopback.write(client, Self.response(status: "405 Method Not Allowed", type: "text/plain", body: ""))
            return
        }
        let target = String(words[1])
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        switch path {
        case "/", "/index.html":
            let html = DevToolsPage.html(trace: tracer.trace, title: title, live: true)
            _ = Loopback.write(client, Self.response(status: "200 OK", type: "text/html; charset=utf-8", body: html))
        case "/events":
            let after = target.split(separator: "after=").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
            stream(to: client, after: after ?? tracer.stepCount)
        default:
            _ = Loopback.write(client, Self.response(status: "404 Not Found", type: "text/plain", body: "not found"))
        }
    }

    /// Writes the event stream: the graph, then each step after `after` as it is taken, and
    /// `dropped` when steps went before this page read them; ends when the page goes or the
    /// server stops.
    private func stream(to client: Int32, after: Int) {
        let headers =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            + "Connection: keep-alive\r\n\r\n"
        guard Loopback.write(client, headers) else { return }
        condition.lock()
        watchers.wrappingAdd(1, ordering: .acquiringAndReleasing)
        condition.broadcast()
        condition.unlock()
        defer { watchers.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        var sent = after
        var graph: Inspection?
        var seen = -1
        while true {
            condition.lock()
            if version == seen && !stopped {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.keepAlive))
            }
            let current = version
            let isStopped = stopped
            condition.unlock()
            if isStopped { return }
            if current == seen {
                guard Loopback.write(client, ": still here\n\n") else { return }
                continue
            }
            seen = current
            let trace = tracer.trace(after: sent)
            var events = ""
            if graph != trace.graph {
                graph = trace.graph
                events +=
                    "event: graph\ndata: "
                    + PageData(trace: Trace(paradigm: trace.paradigm, graph: trace.graph), title: title, live: true)
                    .text
                    + "\n\n"
            }
            if trace.dropped > 0 {
                events += "event: dropped\ndata: \(trace.dropped)\n\n"
                sent += trace.dropped
            }
            for step in trace.steps {
                events += "event: step\ndata: " + PageData.stepEvent(step) + "\n\n"
            }
            sent += trace.steps.count
            guard events.isEmpty || Loopback.write(client, events) else { return }
        }
    }

    private static func response(status: String, type: String, body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n\(body)"
    }
}
