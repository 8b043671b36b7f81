import Cycle
import Foundation
import ReactiveCore
import TestSupport
import Testing

private enum Screen: Equatable {
    case list, item(Int), files(String), missing
}

private var screens: Router<Screen> {
    Router<Screen>()
        .route("/") { _ in .list }
        .route("/items/:id") { parameters in Int(parameters["id"]!).map(Screen.item) }
        .route("/items/:name") { _ in .missing }
        .route("/files/*path") { parameters in .files(parameters["path"]!) }
}

/// A program whose screen follows its history: commands push, replace and go back; the
/// history driver reports the start and the moves from outside.
private struct NavigationProgram<History: Driver>: SinkSourceConverting
where History.Model == HistoryModel, History.Event == HistoryEvent {
    struct DriverModels: Equatable {
        var history = HistoryModel()
        var screen = Screen.missing
    }
    enum DriverEvent {
        case start
        case open(Location), redirect(Location), back
        case history(HistoryEvent)
    }

    let history: History
    let renders: RenderCounter

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        let renders = renders
        return history.rendered(
            effects.map { models in
                renders.count += 1
                return models.history
            }
        ).map(DriverEvent.history)
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var models = models
            switch event {
            case .start: break
            case .open(let location): models.history.push(location)
            case .redirect(let location): models.history.replace(with: location)
            case .back: models.history.back()
            case .history(.started(let history)), .history(.navigated(let history)): models.history = history
            }
            models.screen = screens.match(models.history.location) ?? .missing
            return models
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.start, DriverModels()) }
}

private final class RenderCounter {
    var count = 0
}

@Suite("Cycle: the history driver and the router")
struct HistoryDriverTests {
    @Test("a deep link starts the program; its pushes become the history; a back button comes back as an event")
    func loop() {
        let history = MemoryHistory(HistoryModel("/items/7"))
        let loop = CycleLoop(
            program: NavigationProgram(history: HistoryDriver(history: history), renders: RenderCounter()))
        #expect(loop.currentModels.screen == .item(7))
        loop.receive(.open("/files/a/b.txt"))
        loop.receive(.open("/"))
        #expect(history.model.entries == ["/items/7", "/files/a/b.txt", "/"] && history.model.index == 2)
        #expect(loop.currentModels.screen == .list)

        history.back()  // the platform's back button
        #expect(loop.currentModels.screen == .files("a/b.txt") && loop.currentModels.history == history.model)
        history.open("/items/nine")  // an address typed: a push from outside
        #expect(loop.currentModels.screen == .missing)
        #expect(history.model.entries == ["/items/7", "/files/a/b.txt", "/items/nine"])

        loop.receive(.redirect("/items/9"))
        #expect(history.model.location == "/items/9" && history.model.entries.count == 3)
        loop.dispose()
        history.back()  // no program follows it any more
        #expect(loop.currentModels.screen == .item(9))
    }

    @Test("a move the program takes in renders nothing back, and an equal model renders nothing")
    func noEcho() {
        let history = MemoryHistory()
        let renders = RenderCounter()
        let loop = CycleLoop(program: NavigationProgram(history: HistoryDriver(history: history), renders: renders))
        loop.receive(.open("/items/1"))
        var seen: [HistoryModel] = []
        history.back()
        seen.append(history.model)
        history.forward()
        seen.append(history.model)
        #expect(seen.map(\.index) == [0, 1] && loop.currentModels.history == history.model)
        loop.receive(.back)
        loop.receive(.back)  // already at the start: the same model
        #expect(history.model.index == 0 && history.model.entries == ["/", "/items/1"])
        history.back()  // nothing behind: no move, no event
        #expect(loop.processedEvents == 7)
        loop.dispose()
    }

    @Test("a back button pressed while the loop renders is queued, processed after the event under way")
    func reentrantMove() {
        let history = MemoryHistory()
        let loop = CycleLoop(
            program: NavigationProgram(history: HistoryDriver(history: history), renders: RenderCounter()))
        var screens: [Screen] = []
        let connection = loop.modelChanges.subscribe { models in
            screens.append(models.screen)
            // The user presses back as soon as an item shows: the move waits for its turn.
            if case .item = models.screen { history.back() }
        }
        loop.receive(.open("/items/5"))
        #expect(screens == [.item(5), .list])
        #expect(history.model.index == 0 && loop.currentModels.history == history.model)
        connection.disconnect()
        loop.dispose()
    }

    @Test("a script in the history driver's place starts the program where a test says and records its history")
    func scripted() {
        let history = DriverScript<HistoryModel, HistoryEvent>()
        history.play(.started(HistoryModel(entries: ["/", "/items/3"], index: 1)))
        let loop = CycleLoop(program: NavigationProgram(history: history, renders: RenderCounter()))
        #expect(loop.currentModels.screen == .item(3))
        loop.receive(.back)
        #expect(history.rendered.last?.location == "/" && loop.currentModels.screen == .list)
        history.play(.navigated(HistoryModel("/files/x")))
        #expect(loop.currentModels.screen == .files("x"))
        loop.dispose()
    }

    @Test(
        "history moves match a browser's back and forward stacks through random steps", arguments: [1, 2] as [UInt64])
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var history = HistoryModel("/0")
        // The reference: what lies behind the current page and what lies ahead of it.
        var (behind, current, ahead): ([String], String, [String]) = ([], "/0", [])
        for step in 1...2_000 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                history.push(Location(path: "/\(step)"))
                behind.append(current)
                (current, ahead) = ("/\(step)", [])
            case 1:
                history.back()
                if let previous = behind.popLast() {
                    ahead.insert(current, at: 0)
                    current = previous
                }
            case 2:
                history.forward()
                if !ahead.isEmpty {
                    behind.append(current)
                    current = ahead.removeFirst()
                }
            case 3:
                let offset = Int.random(in: -3...3, using: &random)
                history.go(offset)
                if offset < 0, behind.count >= -offset {
                    for _ in 0..<(-offset) {
                        ahead.insert(current, at: 0)
                        current = behind.removeLast()
                    }
                } else if offset > 0, ahead.count >= offset {
                    for _ in 0..<offset {
                        behind.append(current)
                        current = ahead.removeFirst()
                    }
                }
            default:
                history.replace(with: Location(path: "/r\(step)"))
                current = "/r\(step)"
            }
            guard history.entries.map(\.path) == behind + [current] + ahead, history.index == behind.count,
                history.canGoBack == !behind.isEmpty, history.canGoForward == !ahead.isEmpty
            else {
                Issue.record("the history diverged from the stacks at step \(step), seed \(seed)")
                return
            }
        }
    }

    @Test("locations parse, decode and print back")
    func locations() {
        let location: Location = "/files/a%20b?tab=notes&x&tab=last#top"
        #expect(location.path == "/files/a b")
        #expect(location.query == ["tab": "last", "x": ""])
        #expect(location.description == "/files/a%20b?tab=last&x=")
        #expect(Location(parsing: location.description) == location)
        #expect(Location(parsing: "/a b")?.path == "/a b")
        #expect(Location(parsing: "https://example.com/a") == nil && Location(parsing: "//example.com/a") == nil)
        #expect(Location(path: "/", query: [:]).description == "/")
    }

    @Test(
        "every location survives its own round trip, and its address never begins with // (which would name a host)",
        arguments: [1, 2, 3] as [UInt64])
    func locationRoundTrip(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces = [
            "/", "//", "a", "%", "%2F", "?", "#", "&", "=", "+", ":", "@", " ", "é", "😀", ".", "..", ";", "\u{0}",
            "evil.example",
        ]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for step in 0..<2_000 {
            var query: [String: String] = [:]
            for _ in 0..<Int.random(in: 0..<3, using: &random) {
                query[text(Int.random(in: 0..<3, using: &random))] = text(Int.random(in: 0..<3, using: &random))
            }
            let location = Location(path: text(Int.random(in: 0..<6, using: &random)), query: query)
            let address = location.description
            #expect(!address.hasPrefix("//"), "seed \(seed), step \(step): \(address)")
            #expect(Location(parsing: address) == location, "seed \(seed), step \(step): \(location) as \(address)")
            #expect(URL(string: address)?.host == nil, "seed \(seed), step \(step): \(address) names a host")
        }
    }

    @Test("a path that would name another host is written so that it does not, and comes back the same")
    func locationNamingAHost() throws {
        let parsed = try #require(Location(parsing: "/%2F%2Fevil.example/phish"))
        #expect(parsed.path == "///evil.example/phish" || parsed.path == "//evil.example/phish")
        #expect(!parsed.description.hasPrefix("//"))
        #expect(Location(parsing: parsed.description) == parsed)
        let direct = Location(path: "//evil.example/x")
        #expect(direct.description == "/%2Fevil.example/x")
        #expect(Location(parsing: direct.description) == direct)
        #expect(Location(path: "a:b").description == "a%3Ab")
    }

    @Test("going by an offset past either end, Int.min and Int.max included, does nothing")
    func extremeOffsets() {
        var model = HistoryModel(entries: ["/", "/a", "/b"], index: 1)
        for offset in [Int.max, Int.min, Int.max - 1, Int.min + 1, 2, -2] {
            model.go(offset)
            #expect(model.index == 1, "go(\(offset))")
        }
        model.go(1)
        #expect(model.location == "/b")
        let history = MemoryHistory(model)
        history.go(Int.max)
        history.go(Int.min)
        #expect(history.model == model)
    }

    @Test("the router tries patterns in order, lets a closure refuse, captures the rest, and reads the query")
    func router() {
        #expect(screens.match("/") == .list)
        #expect(screens.match("/items/42/") == .item(42))
        #expect(screens.match("/items/forty-two") == .missing)
        #expect(screens.match("/items") == nil && screens.match("/items/1/2") == nil)
        #expect(screens.match("/files") == .files("") && screens.match("/files/a/b") == .files("a/b"))
        #expect(screens.match("/files//a") == .files("a"))
        let query = Router<String>().route("/search/:term") { "\($0["term"]!) page \($0["page"] ?? "1")" }
        #expect(query.match("/search/ada?page=2&term=ignored") == "ada page 2")
        #expect(Router<Int>().match("/") == nil)
    }

    @Test("a route pattern without a leading slash is a precondition failure")
    func patternWithoutSlash() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Router<Int>().route("items/:id") { _ in 1 }
        }
        expectStandardError(of: result, contains: "Cycle: a route pattern must start with a slash: items/:id")
    }

    @Test("a rest capture before the end of a pattern is a precondition failure")
    func restNotLast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Router<Int>().route("/files/*path/edit") { _ in 1 }
        }
        expectStandardError(of: result, contains: "Cycle: a rest capture must end its route pattern: /files/*path/edit")
    }

    @Test("a capture named twice or emptily is a precondition failure")
    func captureNamedTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Router<Int>().route("/a/:id/b/:id") { _ in 1 }
        }
        expectStandardError(
            of: result, contains: "Cycle: a route pattern names a capture emptily or twice: /a/:id/b/:id")
    }

    @Test("a location literal that is no URL reference is a precondition failure")
    func badLocation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let location: Location = "https://example.com/"
            _ = location
        }
        expectStandardError(
            of: result, contains: "Cycle: a location literal is not a URL reference to a path: https://example.com/")
    }

    @Test("a history whose index is outside its entries is a precondition failure")
    func badIndex() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = HistoryModel(entries: ["/"], index: 1)
        }
        expectStandardError(of: result, contains: "Cycle: a history's index must be one of its entries' positions")
    }
}
