import DevTools
import Foundation
import Incremental
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to a server on 127.0.0.1 (the suites of this target share it) that sends one GET and reads what comes back, each
/// read waiting at most ten seconds (a test that waits longer has failed).
final class Client {
    private let descriptor: Int32
    private var bytes: [UInt8] = []
    /// What was received so far.
    var received: String { String(decoding: bytes, as: UTF8.self) }

    init(port: UInt16, path: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit {
        close(descriptor)
    }

    /// Reads until what was received holds `marker` (true), or the server closes the
    /// connection or is silent for ten seconds (false). Looks for it only in what each read
    /// adds (and the marker's length before), so a long stream costs its length.
    @discardableResult
    func read(until marker: String) -> Bool {
        let marker = Array(marker.utf8)
        var from = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if bytes.count >= marker.count {
                for start in from...(bytes.count - marker.count) where bytes[start] == marker[0] {
                    if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
                }
                from = bytes.count - marker.count + 1
            }
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return false }
            bytes += buffer[..<count]
        }
    }

    /// Reads until the server closes the connection; true if it did within ten seconds.
    func readToEnd() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count == 0 { return true }
            if count < 0 { return false }
            bytes += buffer[..<count]
        }
    }

    /// The data of each event named `name` received so far.
    func events(_ name: String) -> [String] {
        received.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard lines.contains("event: \(name)") else { return nil }
            return lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }
}

/// A program of two inputs and their sum, observed, taking its inputs through a tape recorder.
private final class Program {
    let graph = Graph()
    let a: Input<Int>
    let sum: I<Int>
    let recorder = TapeRecorder(scheduler: TestScheduler())
    let send: TapeChannel<Int>
    let observation: Connection

    init() {
        a = graph.input(0)
        a.debugName = "a"
        sum = a.map { $0 + 1 }
        sum.debugName = "sum"
        observation = sum.observe { _ in }
        let a = a
        send = recorder.channel("a") { (value: Int) in a.write(value) }
    }
}

@Suite("Devtools pages served live", .serialized)
struct DevToolsServerTests {
    @Test("the page is served on 127.0.0.1 with the trace so far, set to follow the server")
    func servesThePage() throws {
        let program = Program()
        let server = try DevToolsServer(following: program.recorder, paradigm: "Incremental", title: "Sum") {
            program.sum.inspect()
        }
        defer { server.stop() }
        #expect(server.url == "http://127.0.0.1:\(server.port)/")
        let page = try Client(port: server.port, path: "/")
        #expect(page.readToEnd())
        #expect(page.received.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(page.received.contains("\"live\":true"))
        #expect(page.received.contains("connect-src 'self'"))
        #expect(page.received.contains("\"name\":\"sum\""))
        let missing = try Client(port: server.port, path: "/elsewhere")
        #expect(missing.readToEnd() && missing.received.hasPrefix("HTTP/1.1 404"))
    }

    @Test("a page watching is sent the graph, then each step the program takes after it opened")
    func followsSteps() throws {
        let program = Program()
        let server = try DevToolsServer(following: program.recorder, paradigm: "Incremental") {
            program.sum.inspect()
        }
        defer { server.stop() }
        let events = try Client(port: server.port, path: "/events?after=0")
        #expect(events.read(until: "event: graph"))
        #expect(server.watchers == 1)
        program.send.send(4)
        #expect(events.read(until: "event: step"))
        program.send.send(4)  // the same value: a step that changes nothing
        program.send.send(9)
        #expect(events.read(until: "\"i\":\"9\""))
        let steps = try events.events("step").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(steps.map { $0["channel"] as? String } == ["a", "a", "a"])
        let details = steps.map { $0["step"] as? [String: Any] }
        #expect(details.map { $0?["i"] as? String } == ["4", "4", "9"])
        #expect(details.map { ($0?["ch"] as? [Int])?.count } == [2, 0, 2])
        #expect(details.map { ($0?["to"] as? [Int])?.count } == [1, 0, 1])
        let graph = try #require(events.events("graph").first)
        let nodes = try #require(
            (JSONSerialization.jsonObject(with: Data(graph.utf8)) as? [String: Any])?["nodes"] as? [Any])
        #expect(nodes.count == 2)
    }

    @Test("a server given a diff sends each step with the diff rows it returned, taken where the input was applied")
    func diffRows() throws {
        let program = Program()
        let calls = LockedCount()
        let server = try DevToolsServer(
            following: program.recorder, paradigm: "Incremental",
            diff: {
                calls.add()
                return [Trace.Change(path: "a", old: "\(calls.value - 1)", new: "\(calls.value)")]
            }
        ) { program.sum.inspect() }
        defer { server.stop() }
        program.send.send(1)  // no page watches: no step, no diff asked for
        #expect(calls.value == 0)
        let events = try Client(port: server.port, path: "/events?after=0")
        #expect(events.read(until: "event: graph"))
        program.send.send(2)
        #expect(events.read(until: "event: step"))
        #expect(calls.value == 1)
        let step = try #require(
            try events.events("step").first.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }?["step"] as? [String: Any])
        #expect((step["d"] as? [[Any]])?.first?.compactMap { $0 as? String } == ["a", "0", "1"])
    }

    @Test("with no page watching nothing is inspected; the first step after says how many went untraced")
    func untracedWhileNobodyWatches() throws {
        let program = Program()
        let inspections = LockedCount()
        let server = try DevToolsServer(following: program.recorder, paradigm: "Incremental") {
            inspections.add()
            return program.sum.inspect()
        }
        defer { server.stop() }
        let before = inspections.value
        for value in 1...50 { program.send.send(value) }
        #expect(inspections.value == before)
        let events = try Client(port: server.port, path: "/events")
        #expect(events.read(until: "event: graph"))
        program.send.send(100)
        #expect(events.read(until: "event: step"))
        let step = try #require(events.events("step").first)
        #expect(step.contains("after 50 inputs not traced"))
        #expect(inspections.value == before + 1)
    }

    @Test("a page that reads nothing never holds the program up; when it reads, it is told what it missed")
    func slowPage() throws {
        // Steps of about 6 KB each (an input, and two values, of 2,000 characters): 1,500 of
        // them, 9 MB, are more than twice what a connection on 127.0.0.1 holds while its reader
        // reads nothing (3.9 MB measured on this kind of machine), so the server's thread for
        // the page waits to write while the program goes on and the recorder drops old steps.
        // (Not more: the test's work runs beside the whole suite's timing tests.)
        // (The page's receive buffer is left as it is: shrunk to a few kilobytes, the flow fell
        // back on TCP's zero-window probes, a byte every few minutes, and the test hung under
        // ThreadSanitizer.)
        let count = 1_500
        let graph = Graph()
        let text = graph.input("")
        let shown = text.map { $0 }
        let observation = shown.observe { _ in }
        defer { observation.disconnect() }
        let recorder = TapeRecorder(scheduler: TestScheduler())
        let send = recorder.channel("text") { (value: String) in text.write(value) }
        let server = try DevToolsServer(following: recorder, paradigm: "Incremental", capacity: 5) {
            shown.inspect()
        }
        defer { server.stop() }
        let events = try Client(port: server.port, path: "/events?after=0")
        #expect(events.read(until: "event: graph"))
        let filler = String(repeating: "x", count: 2_000)
        for value in 1...count { send.send("\(value)" + filler) }
        #expect(events.read(until: "\"i\":\"\(count)x"))
        let dropped = events.events("dropped").compactMap { Int($0) }.reduce(0, +)
        let steps = events.events("step").count
        #expect(dropped > 0)
        #expect(dropped + steps == count)
    }

    @Test("stop ends every page's connection and the server; a second stop does nothing")
    func stops() throws {
        let program = Program()
        let server = try DevToolsServer(following: program.recorder, paradigm: "Incremental") {
            program.sum.inspect()
        }
        let port = server.port
        let events = try Client(port: port, path: "/events")
        #expect(events.read(until: "event: graph"))
        server.stop()
        #expect(events.readToEnd())
        server.stop()
        #expect(throws: (any Error).self) { try Client(port: port, path: "/") }
        program.send.send(1)  // followed no more
    }

    @Test("a port that is taken is an error naming it")
    func portTaken() throws {
        let program = Program()
        let first = try DevToolsServer(following: program.recorder, paradigm: "Incremental") { program.sum.inspect() }
        defer { first.stop() }
        #expect(throws: DevToolsServerError.cannotListen(port: first.port)) {
            try DevToolsServer(following: program.recorder, paradigm: "Incremental", port: first.port) {
                program.sum.inspect()
            }
        }
    }
}

/// A count several threads add to.
final class LockedCount: @unchecked Sendable {
    // `@unchecked`: `count` is read and written only with `lock` held.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
