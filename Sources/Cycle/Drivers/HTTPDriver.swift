import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request a program wants made.
public struct HTTPRequest: Hashable, Sendable {
    /// Where to send it.
    public var url: URL
    /// The method: `GET`, `POST`, ...
    public var method: String
    /// The body, if any.
    public var body: Data?
    /// How long to wait for a response before reporting a failure.
    public var timeout: Duration

    /// A request to `url`.
    public init(url: URL, method: String = "GET", body: Data? = nil, timeout: Duration = .seconds(30)) {
        self.url = url
        self.method = method
        self.body = body
        self.timeout = timeout
    }
}

/// What an ``HTTPDriver`` reports.
public enum HTTPEvent: Equatable, Sendable {
    /// The request `id` got a response.
    case response(id: String, status: Int, body: Data)
    /// The request `id` failed: no connection, a timeout, an invalid response.
    case failure(id: String, reason: String)
}

/// Makes the HTTP requests its model asks for.
///
/// The model is the set of requests the program wants, by id. A request that appears is
/// started; one that disappears while under way is let go, and nothing more is reported for
/// it; one whose value changes is let go and started again. A request that finished is not
/// repeated while its id stays in the model: the program removes it (usually in the reducer
/// that handles its response). Responses arrive on URLSession's threads and enter the loop
/// through an ``Inbox`` on `scheduler`, in the order they arrive.
///
/// - **Timeouts cover the whole request.** ``HTTPRequest/timeout`` runs on `scheduler` from the
///   start to the last byte of the body: a server that answers its headers and then trickles
///   the body is timed out like one that never answers ("timed out after 5 seconds").
/// - **Letting go of a request.** On Apple platforms its task is cancelled. On Linux it is
///   not: swift-corelibs-foundation's URLSession stops the process when a task is cancelled
///   while its end is being processed ("a task that is not in the registry"), which a search
///   box changing its request on every keystroke hits within seconds. The task is left to end
///   on its own (its connection closes when the server answers, or when the request's timeout
///   passes with nothing received), and whatever it reports is ignored.
/// - Failures have short, readable reasons: "could not connect to 127.0.0.1:8080", "the
///   connection was lost", "timed out after 5 seconds", "not an HTTP response".
public struct HTTPDriver: Driver {
    private let session: URLSession
    private let scheduler: any Scheduler

    /// A driver using `session`, reporting through `scheduler` (which runs its work in the
    /// loop's domain, and times requests out).
    public init(session: URLSession = .shared, scheduler: some Scheduler = DispatchScheduler(queue: .main)) {
        self.session = session
        self.scheduler = scheduler
    }

    /// Starts and lets go of requests as the models say; reports responses and failures.
    public func rendered(_ models: EventStream<[String: HTTPRequest]>) -> EventStream<HTTPEvent> {
        let (session, scheduler) = (session, scheduler)
        return EventStream { sink in
            let state = HTTPState()
            /// Reports `event` for the attempt numbered `generation`, if it is still the
            /// current attempt of a request the model asks for.
            func finish(_ generation: Int, _ event: HTTPEvent) {
                let id = event.id
                guard let attempt = state.attempts[id], attempt.generation == generation else { return }
                state.attempts[id] = nil
                attempt.deadline.disconnect()
                state.finished.insert(id)
                sink(event)
            }
            let inbox = Inbox<(generation: Int, event: HTTPEvent)>(scheduler: scheduler) { message in
                finish(message.generation, message.event)
            }
            let connection = models.subscribe { requests in
                for (id, attempt) in state.attempts where requests[id] != state.requested[id] {
                    attempt.letGo()
                    state.attempts[id] = nil
                }
                state.finished = state.finished.filter { requests[$0] == state.requested[$0] }
                state.requested = requests
                for (id, request) in requests where state.attempts[id] == nil && !state.finished.contains(id) {
                    state.nextGeneration += 1
                    let generation = state.nextGeneration
                    // The response and the deadline race in real time: whichever comes first
                    // settles the attempt, however long the loop's domain then takes to run it.
                    let outcome = HTTPOutcome()
                    let task = session.dataTask(with: request.urlRequest) { data, response, error in
                        guard outcome.settle() else { return }
                        let event = HTTPEvent(id: id, request: request, data: data, response: response, error: error)
                        inbox.post((generation, event))
                    }
                    let deadline = scheduler.schedule(
                        at: scheduler.now + request.timeout,
                        isolated: {
                            guard outcome.settle() else { return }
                            finish(generation, .failure(id: id, reason: "timed out after \(request.timeout.readable)"))
                            // The task is let go (see the type's documentation); it is no longer listed.
                            HTTPAttempt.letGo(task)
                        })
                    state.attempts[id] = HTTPAttempt(generation: generation, task: task, deadline: deadline)
                    task.resume()
                }
            }
            return Connection(isolated: {
                connection.disconnect()
                for attempt in state.attempts.values { attempt.letGo() }
                state.attempts = [:]
                inbox.close()
            })
        }
    }
}

/// A request under way: its number, its task and its timeout.
struct HTTPAttempt {
    let generation: Int
    let task: URLSessionDataTask
    let deadline: Connection

    /// Stops waiting for the request, and lets go of its task.
    func letGo() {
        deadline.disconnect()
        Self.letGo(task)
    }

    /// Cancels `task` where that is safe (see ``HTTPDriver``); on Linux leaves it to end.
    static func letGo(_ task: URLSessionDataTask) {
        #if !canImport(FoundationNetworking)
            task.cancel()
        #endif
    }
}

/// Whether an attempt's response came or its deadline passed, whichever was first.
final class HTTPOutcome: Sendable {
    private let settled = Mutex(false)

    /// Settles the attempt; returns whether this call did (the first one).
    func settle() -> Bool {
        settled.withLock { settled in
            defer { settled = true }
            return !settled
        }
    }
}

final class HTTPState {
    var requested: [String: HTTPRequest] = [:]
    var attempts: [String: HTTPAttempt] = [:]
    var finished: Set<String> = []
    var nextGeneration = 0
}

extension HTTPRequest {
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        // The driver times the whole request itself, on its scheduler. URLSession's own
        // timeout (an idle timeout) only ends a task the driver let go: whole seconds, at
        // least one, since swift-corelibs-foundation times out at once below a second.
        let (seconds, attoseconds) = timeout.components
        request.timeoutInterval = max(1, (Double(seconds) + Double(attoseconds) / 1e18).rounded(.up))
        return request
    }
}

extension HTTPEvent {
    /// The request the event is about.
    public var id: String {
        switch self {
        case .response(let id, _, _), .failure(let id, _): id
        }
    }

    init(id: String, request: HTTPRequest, data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error {
            self = .failure(id: id, reason: Self.reason(for: error, request: request))
        } else if let response = response as? HTTPURLResponse {
            self = .response(id: id, status: response.statusCode, body: data ?? Data())
        } else {
            self = .failure(id: id, reason: "not an HTTP response")
        }
    }
}

extension HTTPEvent {
    /// A short account of a URLSession error: the cause, the host where it matters; never a
    /// raw `NSError` description.
    static func reason(for error: any Error, request: HTTPRequest) -> String {
        let host = request.url.host.map { host in request.url.port.map { "\(host):\($0)" } ?? host } ?? "the server"
        guard let error = error as? URLError else { return "the request failed" }
        switch error.code {
        case .timedOut: return "timed out after \(request.timeout.readable)"
        case .cannotConnectToHost: return "could not connect to \(host)"
        case .cannotFindHost, .dnsLookupFailed: return "could not find \(host)"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "not connected to the network"
        case .badServerResponse, .cannotParseResponse: return "the server sent an invalid response"
        case .badURL, .unsupportedURL: return "the URL \(request.url.absoluteString) is not one the driver can request"
        case .cancelled: return "cancelled"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the secure connection to \(host) failed"
        case .dataLengthExceedsMaximum: return "the response is too large"
        default: return "the request failed (URL error \(error.code.rawValue))"
        }
    }
}

extension Duration {
    /// "5 seconds", "300 milliseconds", "1.5 seconds".
    var readable: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        if milliseconds < 1_000, milliseconds == milliseconds.rounded() { return "\(Int(milliseconds)) milliseconds" }
        return "\(milliseconds / 1_000) seconds"
    }
}
