import Foundation

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
/// started; one that disappears while under way is cancelled, and nothing more is reported
/// for it; one whose value changes is cancelled and started again. A request that finished is
/// not repeated while its id stays in the model: the program removes it (usually in the
/// reducer that handles its response). Responses arrive on URLSession's threads and enter the
/// loop through an ``Inbox`` on `scheduler`, in the order they arrive.
///
/// On Linux, swift-corelibs-foundation's URLSession has a known race: cancelling a task at the
/// very moment it starts or fails can stop the process in its task registry ("a task that is
/// not in the registry"). Avoid models that add and drop a request in the same instant.
public struct HTTPDriver: Driver {
    private let session: URLSession
    private let scheduler: any Scheduler

    /// A driver using `session`, reporting through `scheduler` (which runs its work in the
    /// loop's domain).
    public init(session: URLSession = .shared, scheduler: some Scheduler = DispatchScheduler(queue: .main)) {
        self.session = session
        self.scheduler = scheduler
    }

    /// Starts and cancels requests as the models say; reports responses and failures.
    public func rendered(_ models: EventStream<[String: HTTPRequest]>) -> EventStream<HTTPEvent> {
        let (session, scheduler) = (session, scheduler)
        return EventStream { sink in
            let state = HTTPState()
            let inbox = Inbox<(generation: Int, event: HTTPEvent)>(scheduler: scheduler) { message in
                // Only the current attempt of a request still asked for is reported.
                let id = message.event.id
                guard state.generations[id] == message.generation else { return }
                state.tasks[id] = nil
                state.finished.insert(id)
                sink(message.event)
            }
            let connection = models.subscribe { requests in
                for (id, task) in state.tasks where requests[id] != state.requested[id] {
                    task.cancel()
                    state.tasks[id] = nil
                    state.generations[id] = nil
                }
                state.finished = state.finished.filter { requests[$0] == state.requested[$0] }
                state.requested = requests
                for (id, request) in requests where state.tasks[id] == nil && !state.finished.contains(id) {
                    state.nextGeneration += 1
                    let generation = state.nextGeneration
                    state.generations[id] = generation
                    let task = session.dataTask(with: request.urlRequest) { data, response, error in
                        inbox.post((generation, HTTPEvent(id: id, data: data, response: response, error: error)))
                    }
                    state.tasks[id] = task
                    task.resume()
                }
            }
            return Connection(isolated: {
                connection.disconnect()
                for task in state.tasks.values { task.cancel() }
                state.tasks = [:]
                inbox.close()
            })
        }
    }
}

final class HTTPState {
    var requested: [String: HTTPRequest] = [:]
    var tasks: [String: URLSessionDataTask] = [:]
    var generations: [String: Int] = [:]
    var finished: Set<String> = []
    var nextGeneration = 0
}

extension HTTPRequest {
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let (seconds, attoseconds) = timeout.components
        request.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
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

    init(id: String, data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error {
            self = .failure(id: id, reason: error.localizedDescription)
        } else if let response = response as? HTTPURLResponse {
            self = .response(id: id, status: response.statusCode, body: data ?? Data())
        } else {
            self = .failure(id: id, reason: "not an HTTP response")
        }
    }
}
