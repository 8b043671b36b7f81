import Cycle
import ExampleSupport
import Foundation
import TestSupport
import Testing

@Suite("Cycle HTTP driver under rapid request changes")
struct HTTPStressTests {
    @Test("a request changed every millisecond, as a search box does per keystroke, never crashes the process")
    func requestChangedPerKeystroke() async {
        // In a child process: the failure this guards against stops the whole process.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            guard let server = try? LoopbackServer(respond: StressServer.respond) else { exit(2) }
            let typist = Typist(server: server)
            typist.start()
            typist.done.wait()
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!output.contains("Fatal error"), "\(output.prefix(2_000))")
    }
}

/// Answers at once, after a few milliseconds, never, or by hanging up, by the query's last digit.
enum StressServer {
    @Sendable static func respond(_ path: String) -> LoopbackServer.Reply {
        if path.hasSuffix("5") { return .hangUp }
        if path.hasSuffix("7") { return .silence }
        return .answer(status: 200, body: "ok", delay: .milliseconds(path.count % 4))
    }
}

/// Changes one request of an HTTP driver 1,500 times, every 0 to 1.5 ms, on `queue`.
///
/// Unchecked `Sendable`: everything but `done` and `server` (both `Sendable`) is touched only on
/// `queue`, the loop's isolation domain.
final class Typist: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let server: LoopbackServer
    private let queue = DispatchQueue(label: "typist")
    private var models: EventSubject<[String: HTTPRequest]>?
    private var connection: Connection?
    private var step = 0

    init(server: LoopbackServer) { self.server = server }

    func start() {
        queue.async { [self] in
            let models = EventSubject<[String: HTTPRequest]>()
            self.models = models
            connection = HTTPDriver(scheduler: DispatchScheduler(queue: queue)).rendered(models.stream)
                .subscribe { _ in }
            next()
        }
    }

    private func next() {
        step += 1
        guard step <= 1_500 else {
            connection?.disconnect()
            done.signal()
            return
        }
        models?.send(["search": HTTPRequest(url: server.url("/search?q=\(step)"), timeout: .milliseconds(200))])
        if step % 3 == 0 { models?.send([:]) }
        queue.asyncAfter(deadline: .now() + .microseconds(step * 7 % 1_500)) { [self] in next() }
    }
}

@Suite("Cycle HTTP driver: timeouts and reasons")
struct HTTPTimeoutTests {
    /// Sends `requests` as the driver's model and waits for `count` events.
    @MainActor
    private func events(for requests: [String: HTTPRequest], count: Int) async -> [HTTPEvent] {
        let models = EventSubject<[String: HTTPRequest]>()
        let received = LockedState<[HTTPEvent]>([])
        let connection = HTTPDriver(scheduler: DispatchScheduler(queue: .main)).rendered(models.stream).subscribe {
            event in received.withLock { $0.append(event) }
        }
        models.send(requests)
        _ = await eventually { received.withLock { $0.count } >= count }
        connection.disconnect()
        return received.withLock { $0 }
    }

    @MainActor
    @Test("the timeout covers the whole request: a body trickled slowly times out like silence")
    func trickledBodyTimesOut() async throws {
        let server = try TestServer()
        let started = ContinuousClock.now
        let events = await events(
            for: [
                "trickle": HTTPRequest(url: server.url("/trickle"), timeout: .milliseconds(400)),
                "silent": HTTPRequest(url: server.url("/silent"), timeout: .milliseconds(400)),
            ], count: 2)
        #expect(events.contains(.failure(id: "trickle", reason: "timed out after 400 milliseconds")))
        #expect(events.contains(.failure(id: "silent", reason: "timed out after 400 milliseconds")))
        #expect(ContinuousClock.now - started >= .milliseconds(400))
    }

    @MainActor
    @Test("failures have short reasons: a refused connection, a lost one, garbage")
    func readableReasons() async throws {
        let server = try TestServer()
        // A port nothing listens on, held for the whole test.
        let refusing = try RefusingPort()
        let closedPort = refusing.url("/hello")
        let events = await events(
            for: [
                "refused": HTTPRequest(url: closedPort),
                "close": HTTPRequest(url: server.url("/close")),
                "garbage": HTTPRequest(url: server.url("/garbage")),
            ], count: 3)
        let reasons = Dictionary(
            uniqueKeysWithValues: events.compactMap { event -> (String, String)? in
                if case .failure(let id, let reason) = event { return (id, reason) }
                return nil
            })
        #expect(reasons["refused"] == "could not connect to 127.0.0.1:\(closedPort.port ?? 0)")
        for (id, reason) in reasons {
            #expect(!reason.contains("Domain") && !reason.contains("NSURL"), "\(id): \(reason)")
        }
        #expect(reasons.count == 3)
        withExtendedLifetime(refusing) {}
    }
}
