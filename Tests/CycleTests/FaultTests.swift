import Cycle
import Foundation
import TestSupport
import Testing

/// A program that asks for whatever URLs the test feeds it, and counts what comes back.
struct Fetcher: SinkSourceConverting {
    enum DriverEvent { case started, fetch(String, URL), network(HTTPEvent) }
    struct DriverModels {
        var requests: [String: HTTPRequest] = [:]
        var results: [String: String] = [:]
    }

    let network: HTTPDriver

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        network.rendered(effects.map(\.requests)).map(DriverEvent.network)
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var new = models
            switch event {
            case .started: break
            // A guard, not a timing: the test's failures come from the server at once. Under
            // ThreadSanitizer, with the whole suite running, a good answer once took longer
            // than 5 s of real time and the request was reported timed out.
            case .fetch(let id, let url): new.requests[id] = HTTPRequest(url: url, timeout: .seconds(60))
            case .network(let event):
                new.requests[event.id] = nil
                switch event {
                case .response(_, let status, _): new.results[event.id] = "status \(status)"
                case .failure: new.results[event.id] = "failed"
                }
            }
            return new
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}

@Suite("Cycle fault injection")
struct FaultTests {
    @MainActor
    @Test("a server that closes connections or sends garbage: failures are events, the loop keeps running")
    func badServer() async throws {
        let server = try TestServer()
        let loop = CycleLoop(program: Fetcher(network: HTTPDriver(scheduler: DispatchScheduler(queue: .main))))
        loop.receive(.fetch("close", server.url("/close")))
        loop.receive(.fetch("garbage", server.url("/garbage")))
        loop.receive(.fetch("hello", server.url("/hello")))
        #expect(await eventually { loop.currentModels.results.count == 3 })
        #expect(loop.currentModels.results["close"] == "failed")
        #expect(loop.currentModels.results["garbage"] == "failed")
        #expect(loop.currentModels.results["hello"] == "status 200")
        #expect(loop.currentModels.requests.isEmpty)
        loop.receive(.fetch("again", server.url("/hello")))
        #expect(await eventually { loop.currentModels.results["again"] != nil })
        #expect(loop.currentModels.results["again"] == "status 200")
        loop.dispose()
    }

    @Test("a session file that cannot be read at start is an event; the session goes on and can save")
    func unreadableSession() throws {
        struct State: Codable, Equatable, Sendable { var count: Int }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.json")
        // A folder where the file should be: unreadable as a file.
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var events: [SessionEvent<State>] = []
        let models = EventSubject<State?>()
        let connection = SessionDriver<State>(url: url).rendered(models.stream).subscribe { events.append($0) }
        guard case .corrupt = events.first else {
            Issue.record("expected a corrupt event, got \(events)")
            return
        }
        models.send(State(count: 3))
        #expect(events.last == .saved)
        #expect(try JSONDecoder().decode(State.self, from: Data(contentsOf: url)) == State(count: 3))
        connection.disconnect()
    }

    @Test("a session file truncated mid-run is reported at the next start, and the next save replaces it")
    func truncatedSession() throws {
        struct State: Codable, Equatable, Sendable { var text: String }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.json")
        let models = EventSubject<State?>()
        var events: [SessionEvent<State>] = []
        var connection = SessionDriver<State>(url: url).rendered(models.stream).subscribe { events.append($0) }
        models.send(State(text: "a long enough value"))
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        connection.disconnect()
        events = []
        connection = SessionDriver<State>(url: url).rendered(models.stream).subscribe { events.append($0) }
        guard case .corrupt = events.first else {
            Issue.record("expected a corrupt event, got \(events)")
            return
        }
        models.send(State(text: "recovered"))
        #expect(events.last == .saved)
        connection.disconnect()
    }
}
