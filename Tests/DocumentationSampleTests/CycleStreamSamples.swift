// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Cycle's event streams and their operators, verbatim, with what they need
// around them.

import Cycle
import Foundation
import ReactiveCore
import Testing

/// Stand-ins for the services the samples call.
private struct PageLoader {
    func page(_ number: Int) -> EventStream<String> { EventStream.of("page \(number)") }
}

private struct Uploader {
    func upload(_ file: String) -> EventStream<Double> { EventStream.of(0.5, 1) }
}

private struct SearchService {
    func results(for query: String) -> EventStream<[String]> { EventStream.of([query]) }
}

@Test func cycleEventStreamSamples() {
    let countdown = EventStream<Int>(subscribeEvents: { sink in
        for value in [3, 2, 1] { sink(.value(value)) }
        sink(.completion(.finished))
        return Connection()
    })
    let connection = countdown.subscribe({ print($0) }, onCompleted: { print("lift-off") })
    #expect(!connection.isConnected)
    let steps = EventStream.of(1, 2, 3)
    #expect(steps.record().values == [1, 2, 3])
}

@Test func cycleOperatorSamples() {
    let requests = EventSubject<Int>().stream
    let responses = EventSubject<String>().stream
    let names = EventSubject<String>().stream
    let passwords = EventSubject<String>().stream
    let submitTaps = EventSubject<Void>().stream
    let form = EventSubject<String>().stream
    let pageNumbers = EventStream.of(1, 2, 3)
    let loader = PageLoader()
    let files = EventStream.of("a.txt")
    let uploader = Uploader()
    let queries = EventSubject<String>().stream
    let search = SearchService()
    let steps = EventStream.of("one", "two")
    let purchases = EventStream.of(3, 4)
    let clicks = EventSubject<Void>().stream
    let increments = EventStream.of(1, 2)

    let pairs = requests.zip(responses)
    let canSubmit = names.combineLatest(passwords).map { name, password in !name.isEmpty && !password.isEmpty }
    let submissions = submitTaps.withLatestFrom(form)
    let pages = pageNumbers.flatMap(maxConcurrent: 2) { number in loader.page(number) }
    let uploads = files.concatMap { file in uploader.upload(file) }
    let results = queries.flatMapLatest { query in search.results(for: query) }
    let log = steps.append("done")
    let total = purchases.reduce(0, +)
    let counts = clicks.scan(0) { count, _ in count + 1 }
    let count = increments.fold(0) { count, step in count + step }   // 0, then a total per step

    _ = (pairs, canSubmit, submissions, results, counts)
    #expect(pages.record().values == ["page 1", "page 2", "page 3"])
    #expect(uploads.record().values == [0.5, 1])
    #expect(log.record().values == ["one", "two", "done"])
    #expect(total.record().values == [7])
    #expect(count.record().values == [0, 1, 3])
}

@Test func cyclePrependSample() {
    let typed = EventSubject<String>().stream
    let queries = typed.prepend("")
    #expect(queries.record().values == [""])
}

@Test func driverScopeSample() {
    struct Search { var requests: [String: HTTPRequest] = [:] }
    struct Models { var left = Search(); var right = Search() }
    var models = Models()
    models.left.requests["load"] = HTTPRequest(url: URL(string: "https://example.com/?q=ada")!)
    models.right.requests["load"] = HTTPRequest(url: URL(string: "https://example.com/?q=grace")!)
    let event = HTTPEvent.response(id: "left/load", status: 200, body: Data())

    // The drivers' models: each child's requests, qualified by its scope.
    let requests = [String: HTTPRequest].merging([
        models.left.requests.scoped("left"), models.right.requests.scoped("right"),
    ])
    // A driver event reaches the child whose scope it names, with the child's own id.
    let forLeft = event.unscoped(from: "left")   // .response(id: "load", ...) or nil

    #expect(Set(requests.keys) == ["left/load", "right/load"])
    #expect(forLeft == .response(id: "load", status: 200, body: Data()))
    #expect(event.unscoped(from: "right") == nil)
}

@Test func locationAndRouterSamples() {
    let location: Location = "/items/42?tab=notes"
    // location.path == "/items/42", location.query == ["tab": "notes"]

    #expect(location.path == "/items/42" && location.query == ["tab": "notes"])
}

@Test func routerSample() {
    enum Screen: Equatable { case list, item(Int), files(String), missing }

    let router = Router<Screen>()
        .route("/") { _ in .list }
        .route("/items/:id") { parameters in Int(parameters["id"]!).map(Screen.item) }
        .route("/files/*path") { parameters in .files(parameters["path"]!) }

    let screen = router.match("/items/42")          // .item(42)
    let file = router.match("/files/a/b.txt")       // .files("a/b.txt")
    let refused = router.match("/items/forty-two")  // nil: no later pattern matches

    #expect(screen == .item(42) && file == .files("a/b.txt") && refused == nil)
}
