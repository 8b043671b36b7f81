import ReactiveCore

/// A search box in one paradigm: what the user types is throttled into requests to a
/// backend, and the results area shows the answer to the latest request.
///
/// The rules every paradigm follows, on the scenario's virtual time:
/// - **Throttle**, leading and trailing, ``SearchBoxRules/pause`` long (ReactiveCore's
///   `PacingRule.throttle(latest: true)`, through the paradigm's own operator where it has
///   one): a query typed while no pause is running passes at once and starts a pause; the
///   last query typed during a pause passes when it ends (and starts another).
/// - **No repeats**: a query that passes is sent to the backend unless it is the query last
///   sent.
/// - **Latest wins**: only the answer to the latest request is shown; an answer to an earlier
///   one is dropped (or its request cancelled).
public protocol SearchBox: AnyObject {
    /// The user edits the text field: the query is now `text`.
    func type(_ text: String)
    /// What the results area shows.
    var shownResults: [String] { get }
    /// Stops observing and cancels what is in flight.
    func tearDown()
    /// The paradigm's engine around the box, for a devtools page; nil for a paradigm that has
    /// none (the baseline's plain properties).
    func inspect() -> Inspection?
}

/// The fixed parts of the search-box scenario.
public enum SearchBoxRules {
    /// The throttle's pause.
    public static let pause = Duration.milliseconds(300)
    /// How long the backend takes to answer.
    public static let latency = Duration.milliseconds(400)
    /// What the backend searches.
    static let words = ["swift", "swiftly", "swim", "swing", "sort", "stream"]

    /// The backend's answer: the words with `query` as prefix, none for an empty query.
    public static func results(for query: String) -> [String] {
        query.isEmpty ? [] : words.filter { $0.hasPrefix(query) }
    }
}

/// Where a search box sends its queries: the scenario's backend on virtual time, or a real
/// server (the `search-as-you-type` example's, on 127.0.0.1).
public protocol SearchService: AnyObject {
    /// Requests `query`; `reply` gets the results, in the search box's domain, unless the
    /// returned connection is disconnected first.
    func search(_ query: String, reply: @escaping ([String]) -> Void) -> Connection
}

/// A backend on virtual time: answers each request after ``SearchBoxRules/latency``.
public final class SearchBackend: SearchService {
    private let scheduler: TestScheduler
    /// The queries requested, in order.
    public private(set) var requests: [String] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Requests `query`; `reply` gets the results after the latency unless the returned
    /// connection is disconnected first.
    public func search(_ query: String, reply: @escaping ([String]) -> Void) -> Connection {
        requests.append(query)
        return scheduler.schedule(
            after: SearchBoxRules.latency, isolated: { reply(SearchBoxRules.results(for: query)) })
    }
}

/// Where a search box runs: its clock and its backend.
public struct SearchEnvironment {
    /// The clock the throttle runs on: virtual time in the scenario, the main queue in the
    /// example.
    public let scheduler: any Scheduler
    /// The backend.
    public let backend: any SearchService

    /// An environment of `scheduler` and `backend`.
    public init(scheduler: any Scheduler, backend: any SearchService) {
        self.scheduler = scheduler
        self.backend = backend
    }
}

/// Throttled queries sent to the backend, a repeat of the query last sent skipped, the request
/// in flight cancelled when a newer one goes out (latest wins), each answer handed to
/// `answer`: what the search boxes of the paradigms that cancel requests share.
final class ThrottledSearch {
    private let backend: any SearchService
    private let answer: ([String]) -> Void
    private var throttle: Pacer<String>?
    private var lastSent: String?
    private var inFlight: Connection?

    init(_ environment: SearchEnvironment, answer: @escaping ([String]) -> Void) {
        backend = environment.backend
        self.answer = answer
        throttle = Pacer(.throttle(latest: true), pause: SearchBoxRules.pause, scheduler: environment.scheduler) {
            [unowned self] in send($0)
        }
    }

    /// A typed query, throttled here: for paradigms with no throttle of their own.
    func offer(_ query: String) { throttle?.send(query) }

    /// A query that a throttle let through: sent unless it is the one last sent.
    func send(_ query: String) {
        guard query != lastSent else { return }
        lastSent = query
        inFlight?.disconnect()
        inFlight = backend.search(query, reply: answer)
    }

    func cancel() {
        throttle?.cancel()
        inFlight?.disconnect()
    }
}

extension Scenario {
    /// When the user types what: (milliseconds, text).
    static let typing: [(Int, String)] = [
        (0, "s"), (100, "sw"), (200, "swi"), (250, "swif"), (800, "swim"), (1_500, ""),
    ]

    /// The search box: throttled typing, requests with latency, latest answer wins.
    public static let search = Scenario(
        id: "search",
        summary:
            "typing s, sw, swi, swif (0–250 ms), swim (800 ms), nothing (1.5 s); requests throttled to one per 300 ms, answered after 400 ms; the number of results shown",
        expected: ScenarioOutcome(values: [0, 2, 1, 0], freed: true),
        updates: typing.count,
        pickWhen:
            "Cycle or Resin when requests and timers should be data you can script in tests; any paradigm can hold the query and results",
        searchBody: { makeSearchBox in
            let (outcome, isFreed) = searchBody(makeSearchBox)
            return ScenarioOutcome(values: outcome.values, glitches: outcome.glitches, freed: isFreed())
        })
}

/// Types on virtual time and records what the results area shows. A stale answer shown, or
/// requests other than the throttle's, count as glitches.
private func searchBody(
    _ makeSearchBox: (SearchEnvironment) -> any SearchBox
) -> (ScenarioOutcome, isFreed: () -> Bool) {
    let scheduler = TestScheduler()
    let backend = SearchBackend(scheduler: scheduler)
    let box = makeSearchBox(SearchEnvironment(scheduler: scheduler, backend: backend))
    var shown = [box.shownResults.count]
    var glitches = 0
    var last = box.shownResults
    func look() {
        guard box.shownResults != last else { return }
        last = box.shownResults
        shown.append(last.count)
        // Only the latest request's answer may be shown.
        if last != SearchBoxRules.results(for: backend.requests.last ?? "") { glitches += 1 }
    }
    for (milliseconds, text) in Scenario.typing {
        // Step through time so every change of the results area is seen.
        while let next = scheduler.nextInstant, next <= .zero + .milliseconds(milliseconds) {
            scheduler.advance(to: next)
            look()
        }
        scheduler.advance(to: .zero + .milliseconds(milliseconds))
        box.type(text)
        look()
    }
    while let next = scheduler.nextInstant {
        scheduler.advance(to: next)
        look()
    }
    if backend.requests != ["s", "swif", "swim", ""] { glitches += 1 }
    box.tearDown()
    return (ScenarioOutcome(values: shown, glitches: glitches), { [weak box] in box == nil })
}
