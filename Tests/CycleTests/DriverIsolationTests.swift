import Cycle
import Foundation
import ReactiveCore
import TestSupport
import Testing

/// A component that fetches and polls, written as if it were the whole program: its request
/// is always `"load"` and its timer always `"poll"`.
private struct IsolatedFetcher: Equatable {
    var id = 0
    var requests: [String: HTTPRequest] = [:]
    var timers: [String: TimerModel] = [:]
    var results: [String] = []
    var ticks = 0
}

private enum IsolatedFetcherEvent {
    case search(String)
    case poll
    case http(HTTPEvent)
    case timer(TimersEvent)
}

private var isolatedFetcher: Component<IsolatedFetcherEvent, IsolatedFetcher> {
    Component { event, model in
        switch event {
        case .search(let query):
            model.requests["load"] = HTTPRequest(url: URL(string: "https://example.com/?q=\(query)")!)
        case .poll:
            model.timers["poll"] = .ticking(every: .seconds(1))
        case .http(.response("load", _, let body)):
            model.results.append(String(decoding: body, as: UTF8.self))
            model.requests["load"] = nil
        case .http:
            break
        case .timer(.tick("poll", let count, _)):
            model.ticks = count
            if count == 2 { model.timers["poll"] = nil }
        case .timer:
            break
        }
    }
}

/// Two isolated fetchers and a collection of them, over one HTTP driver and one timers driver.
private struct IsolationProgram: SinkSourceConverting {
    struct DriverModels: Equatable {
        var left = IsolatedFetcher()
        var right = IsolatedFetcher()
        var items: [IsolatedFetcher] = []
    }
    enum DriverEvent {
        case start
        case left(IsolatedFetcherEvent), right(IsolatedFetcherEvent), item(id: Int, IsolatedFetcherEvent), add(id: Int),
            remove(id: Int)
        case http(HTTPEvent)
        case timer(TimersEvent)
    }

    let http: DriverScript<[String: HTTPRequest], HTTPEvent>
    let timers: TimersDriver

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        .merge(
            http.rendered(effects.map { models in .merging(Self.scoped(models, \.requests)) }).map(DriverEvent.http),
            timers.rendered(effects.map { models in .merging(Self.scoped(models, \.timers)) }).map(DriverEvent.timer))
    }

    /// Every isolatedFetcher's driver model, qualified by its scope.
    static func scoped<Model: ScopedDriverModel>(_ models: DriverModels, _ part: KeyPath<IsolatedFetcher, Model>)
        -> [Model]
    {
        [models.left[keyPath: part].scoped("left"), models.right[keyPath: part].scoped("right")]
            + models.items.map { $0[keyPath: part].scoped(DriverScope($0.id)) }
    }

    /// A driver event for the isolatedFetcher isolated under `scope`, or `nil`.
    static func driverEvent(_ event: DriverEvent, for scope: DriverScope) -> IsolatedFetcherEvent? {
        switch event {
        case .http(let event): event.unscoped(from: scope).map(IsolatedFetcherEvent.http)
        case .timer(let event): event.unscoped(from: scope).map(IsolatedFetcherEvent.timer)
        default: nil
        }
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        Component<DriverEvent, DriverModels>.combine(
            Component { event, models in
                switch event {
                case .add(let id): models.items.append(IsolatedFetcher(id: id))
                case .remove(let id): models.items.removeAll { $0.id == id }
                default: break
                }
            },
            isolatedFetcher.isolated(
                \.left, events: { if case .left(let event) = $0 { event } else { Self.driverEvent($0, for: "left") } }),
            isolatedFetcher.isolated(
                \.right,
                events: { if case .right(let event) = $0 { event } else { Self.driverEvent($0, for: "right") } }),
            isolatedFetcher.forEach(
                \.items, id: \.id,
                events: { event in
                    switch event {
                    case .item(let id, let event): return (id, event)
                    case .http(let driverEvent):
                        guard let scope = driverEvent.scope, let id = Int(scope.name) else { return nil }
                        return Self.driverEvent(event, for: scope).map { (id, $0) }
                    case .timer(let driverEvent):
                        guard let scope = driverEvent.scope, let id = Int(scope.name) else { return nil }
                        return Self.driverEvent(event, for: scope).map { (id, $0) }
                    default: return nil
                    }
                })
        ).effects(from: events)
    }

    func start() -> (DriverEvent, DriverModels) { (.start, DriverModels()) }
}

@Suite("Cycle: drivers isolated per component")
struct DriverIsolationTests {
    private func response(_ id: String, _ body: String) -> HTTPEvent {
        .response(id: id, status: 200, body: Data(body.utf8))
    }

    @Test("two children that send the same request id each see only their own response")
    func sameRequestId() {
        let http = DriverScript<[String: HTTPRequest], HTTPEvent>()
        let loop = CycleLoop(program: IsolationProgram(http: http, timers: TimersDriver(scheduler: TestScheduler())))
        loop.receive(.left(.search("ada")))
        loop.receive(.right(.search("grace")))
        #expect(http.rendered.last.map { Set($0.keys) } == ["left/load", "right/load"])
        #expect(http.rendered.last?["left/load"]?.url.query == "q=ada")

        http.play(response("right/load", "grace's"))
        #expect(loop.currentModels.right.results == ["grace's"])
        #expect(loop.currentModels.left.results.isEmpty)
        #expect(loop.currentModels.left.requests.keys.sorted() == ["load"])
        #expect(http.rendered.last.map { Set($0.keys) } == ["left/load"])

        http.play(response("left/load", "ada's"))
        http.play(response("nobody/load", "lost"))  // no scope of this program: dropped
        http.play(response("load", "unscoped"))  // qualified by no scope: dropped
        #expect(loop.currentModels.left.results == ["ada's"] && loop.currentModels.right.results == ["grace's"])
        #expect(http.rendered.last == [:])
        loop.dispose()
    }

    @Test("children of a collection are scoped by id: their requests, responses and timers stay apart")
    func collectionChildren() {
        let http = DriverScript<[String: HTTPRequest], HTTPEvent>()
        let scheduler = TestScheduler()
        let loop = CycleLoop(program: IsolationProgram(http: http, timers: TimersDriver(scheduler: scheduler)))
        loop.receive(.add(id: 1))
        loop.receive(.add(id: 2))
        loop.receive(.item(id: 1, .search("one")))
        loop.receive(.item(id: 2, .search("two")))
        loop.receive(.item(id: 2, .poll))
        loop.receive(.left(.poll))
        #expect(http.rendered.last.map { Set($0.keys) } == ["1/load", "2/load"])

        http.play(response("2/load", "second"))
        #expect(loop.currentModels.items.map(\.results) == [[], ["second"]])
        scheduler.advance(by: .seconds(1))
        #expect(loop.currentModels.items.map(\.ticks) == [0, 1] && loop.currentModels.left.ticks == 1)
        #expect(loop.currentModels.right.ticks == 0)

        // A child removed with a request under way: its request leaves the model, and a late
        // response finds no child.
        loop.receive(.remove(id: 1))
        #expect(http.rendered.last.map { Set($0.keys) } == [])
        http.play(response("1/load", "late"))
        #expect(loop.currentModels.items.map(\.results) == [["second"]])

        // Each child's timer stops itself after two ticks; no other child's tick counts.
        scheduler.advance(by: .seconds(5))
        #expect(loop.currentModels.items.map(\.ticks) == [2] && loop.currentModels.left.ticks == 2)
        #expect(loop.currentModels.items[0].timers.isEmpty && loop.currentModels.left.timers.isEmpty)
        loop.dispose()
    }

    @Test("scopes qualify and unqualify ids, and nest")
    func scopes() {
        let inner = DriverScope("suggestions").qualify("load")
        let outer = DriverScope("left").qualify(inner)
        #expect(outer == "left/suggestions/load")
        #expect(DriverScope("left").unqualify(outer) == inner)
        #expect(DriverScope("lef").unqualify(outer) == nil)
        #expect(DriverScope.split(outer).map { ($0.scope.name, $0.id) }! == ("left", inner))
        #expect(DriverScope.split("load") == nil && DriverScope.split("/load") == nil)
        #expect(DriverScope(42).name == "42")

        let merged = [String: Int].merging([["a": 1].scoped("x"), ["a": 2, "b": 3].scoped("y")])
        #expect(merged == ["x/a": 1, "y/a": 2, "y/b": 3])
        #expect(merged.unscoped(from: "y") == ["a": 2, "b": 3])
    }

    @Test("a stored entries' load reaches each scope with its own keys; a store that cannot be read reaches all")
    func keyValueEvents() {
        let loaded = KeyValueEvent<String>.loaded(["left/draft": "a", "right/draft": "b", "stray": "c"])
        #expect(loaded.unscoped(from: "left") == .loaded(["draft": "a"]))
        #expect(loaded.unscoped(from: "middle") == .loaded([:]))
        #expect(loaded.scope == nil)
        let failed = KeyValueEvent<String>.failed(key: "right/draft", reason: "full")
        #expect(failed.unscoped(from: "right") == .failed(key: "draft", reason: "full"))
        #expect(failed.unscoped(from: "left") == nil && failed.scope == "right")
        let unreadable = KeyValueEvent<String>.unreadable(reason: "locked")
        #expect(unreadable.unscoped(from: "left") == unreadable && unreadable.scope == nil)
    }

    @Test("merged optional models stay nil until every scope has one, so no scope's stored entries are erased")
    func optionalModels() {
        let left: [String: String]? = ["draft": "a"]
        let right: [String: String]? = nil
        #expect([String: String]?.merging([left.scoped("left"), right.scoped("right")]) == nil)
        #expect([String: String]?.merging([left.scoped("left"), [:].scoped("right")]) == ["left/draft": "a"])
    }

    @Test("a scope name that is empty or holds a slash is a precondition failure")
    func badScope() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DriverScope("a/b")
        }
        expectStandardError(
            of: result,
            contains: "Cycle: a driver scope must be a non-empty name without a slash, which separates it from the id")
    }

    @Test("merging two models that hold the same id is a precondition failure")
    func duplicateIds() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = [String: Int].merging([["a": 1].scoped("x"), ["a": 2].scoped("x")])
        }
        expectStandardError(of: result, contains: "Cycle: two merged driver models hold the same id")
    }
}

extension TimersEvent {
    fileprivate var count: Int {
        switch self {
        case .tick(_, let count, _): count
        }
    }
}

@Suite("Cycle: the timers driver")
struct TimersDriverTests {
    @Test("timers start, restart on a new model, and stop when they leave the model, each counted by id")
    func timers() {
        let scheduler = TestScheduler()
        let models = EventSubject<[String: TimerModel]>()
        var ticks: [TimersEvent] = []
        let connection = TimersDriver(scheduler: scheduler).rendered(models.stream).subscribe { ticks.append($0) }
        models.send(["a": .ticking(every: .seconds(1)), "b": .ticking(every: .seconds(2)), "c": .stopped])
        scheduler.advance(by: .seconds(2))
        #expect(ticks.filter { $0.id == "a" }.count == 2 && ticks.filter { $0.id == "b" }.count == 1)
        #expect(!ticks.contains { $0.id == "c" })

        ticks = []
        // The same models: nothing restarts. A new interval for "a" restarts its count.
        models.send(["a": .ticking(every: .seconds(3)), "b": .ticking(every: .seconds(2))])
        scheduler.advance(by: .seconds(3))
        #expect(ticks.map { "\($0.id)\($0.count)" } == ["b2", "a1"])

        ticks = []
        models.send([:])
        scheduler.advance(by: .seconds(10))
        #expect(ticks.isEmpty)
        connection.disconnect()
    }

    @Test("a timer stopped by a tick due at the same instant as its own ticks no more; disposal stops all")
    func stopAtSameInstant() {
        let scheduler = TestScheduler()
        let models = EventSubject<[String: TimerModel]>()
        var ticks: [String] = []
        let every = ["a": TimerModel.ticking(every: .seconds(1)), "b": .ticking(every: .seconds(1))]
        let connection = TimersDriver(scheduler: scheduler).rendered(models.stream).subscribe { event in
            ticks.append(event.id)
            // The first tick stops the other timer, due at this same instant.
            if ticks.count == 1 { models.send(every.filter { $0.key == event.id }) }
        }
        models.send(every)
        scheduler.advance(by: .seconds(1))
        #expect(ticks.count == 1)
        connection.disconnect()
        scheduler.advance(by: .seconds(3))
        #expect(ticks.count == 1)
        #expect(scheduler.pendingCount == 0)
    }
}
