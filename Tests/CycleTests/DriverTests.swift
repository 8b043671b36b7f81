import Cycle
import Foundation
import TestSupport
import Testing

@Suite("Cycle drivers")
struct DriverTests {
    @Test("the timer driver ticks while its model asks, on virtual time, and restarts on a new interval")
    func timer() {
        let scheduler = TestScheduler()
        let models = EventSubject<TimerModel>()
        var events: [TimerEvent] = []
        let connection = TimerDriver(scheduler: scheduler).rendered(models.stream).subscribe { events.append($0) }
        models.send(.ticking(every: .seconds(1)))
        scheduler.advance(by: .seconds(2))
        models.send(.ticking(every: .seconds(1)))
        scheduler.advance(by: .seconds(1))
        models.send(.ticking(every: .seconds(5)))
        scheduler.advance(by: .seconds(5))
        models.send(.stopped)
        scheduler.advance(by: .seconds(10))
        let expected: [TimerEvent] = [(1, 1), (2, 2), (3, 3), (1, 8)].map { count, second in
            .tick(count: count, at: SchedulerInstant(offset: .seconds(second)))
        }
        #expect(events == expected)
        connection.disconnect()
        #expect(scheduler.pendingCount == 0)
    }

    @Test("the session driver: missing, saved, restored; a corrupt file is an event and is kept aside")
    func session() throws {
        struct State: Codable, Equatable, Sendable { var count: Int }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.json")
        let driver = SessionDriver<State>(url: url)

        var events: [SessionEvent<State>] = []
        let models = EventSubject<State?>()
        var connection = driver.rendered(models.stream).subscribe { events.append($0) }
        models.send(State(count: 1))
        models.send(State(count: 1))
        models.send(nil)
        connection.disconnect()
        #expect(events == [.missing, .saved])

        events = []
        connection = driver.rendered(models.stream).subscribe { events.append($0) }
        #expect(events == [.restored(State(count: 1))])
        connection.disconnect()

        try Data("{ not json".utf8).write(to: url)
        events = []
        connection = driver.rendered(models.stream).subscribe { events.append($0) }
        guard case .corrupt(_, let preserved?) = events.first else {
            Issue.record("expected a corrupt event with the file kept aside, got \(events)")
            return
        }
        #expect(FileManager.default.fileExists(atPath: preserved.path))
        connection.disconnect()
    }

    @Test("a failed session write is an event, and the last good file is kept")
    func sessionWriteFailure() throws {
        struct State: Codable, Equatable, Sendable { var count: Int }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.json")
        let models = EventSubject<State?>()
        var events: [SessionEvent<State>] = []
        let connection = SessionDriver<State>(url: url).rendered(models.stream).subscribe { events.append($0) }
        models.send(State(count: 1))
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("blocker"), withIntermediateDirectories: true)
        models.send(State(count: 2))
        guard case .failed = events.last else {
            Issue.record("expected a failed write, got \(events)")
            return
        }
        connection.disconnect()
    }

    @Test("the terminal driver writes new frames and reports scripted keys through its inbox")
    func terminal() {
        let scheduler = TestScheduler()
        var written: [String] = []
        var events: [TerminalEvent] = []
        let driver = TerminalDriver(
            input: ScriptedInput(["a", "b"]), output: { written.append($0) }, scheduler: scheduler)
        let frames = EventSubject<TerminalFrame>()
        let connection = driver.rendered(frames.stream).subscribe { events.append($0) }
        frames.send(TerminalFrame(["hello"]))
        frames.send(TerminalFrame(["hello"]))
        frames.send(TerminalFrame(["hello", "world"]))
        #expect(events.isEmpty)
        scheduler.advance()
        #expect(events == [.key("a"), .key("b"), .endOfInput])
        #expect(written == ["hello\n", "hello\nworld\n"])
        connection.disconnect()
    }

    @MainActor
    @Test("the HTTP driver against a real server on 127.0.0.1: responses, failures, cancellation")
    func http() async throws {
        let server = try TestServer()
        let models = EventSubject<[String: HTTPRequest]>()
        let received = LockedState<[HTTPEvent]>([])
        let arrival = Gate()
        let driver = HTTPDriver(scheduler: DispatchScheduler(queue: .main))
        let connection = driver.rendered(models.stream).subscribe { event in
            received.withLock { $0.append(event) }
            if received.withLock({ $0.count }) == 3 { arrival.open() }
        }
        models.send([
            "hello": HTTPRequest(url: server.url("/hello")),
            "missing": HTTPRequest(url: server.url("/missing")),
            "silent": HTTPRequest(url: server.url("/silent"), timeout: .milliseconds(300)),
        ])
        await arrival.wait()
        let events = received.withLock { $0 }.sorted { $0.id < $1.id }
        #expect(events.first == .response(id: "hello", status: 200, body: Data("hi".utf8)))
        #expect(events.dropFirst().first == .response(id: "missing", status: 404, body: Data()))
        if case .failure(let id, _) = events.last {
            #expect(id == "silent")
        } else {
            Issue.record("no timeout: \(events)")
        }

        // A request the model stops asking for is cancelled and reports nothing. It is cancelled
        // once the server has it: cancelling a task that is still starting trips a known race in
        // swift-corelibs-foundation's task registry (see HTTPDriver's documentation).
        // Its timeout is far longer than the test: under ThreadSanitizer, with every suite
        // sharing the main actor, the wait below has outlasted the default 30 seconds, and a
        // timeout reported before the request is let go is a fourth event.
        let silentBefore = server.silentRequests.value
        models.send(["slow": HTTPRequest(url: server.url("/silent"), timeout: .seconds(3_600))])
        // Waited for by yielding, with bounds far above what a loaded machine needs (under
        // AddressSanitizer with every suite running, 100,000 yields once ran out first).
        #expect(await eventually({ server.silentRequests.value != silentBefore }, yields: 10_000_000))
        models.send([:])
        await MainActor.run {}
        connection.disconnect()
        #expect(received.withLock { $0 }.count == 3)
    }
}
