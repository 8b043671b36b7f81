import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Finder: Equatable {
    var query = ""
    var results: [String] = []
    var requests: [String] = []
    var rows: [Int: String] = [:]
}

private struct Typed: Action, Equatable { var text: String }
private struct Found: Action, Equatable { var query: String }
private struct Echo: Action, Equatable { var text: String }
private struct Stop: Action, Equatable {}
private struct Start: Action, Equatable { var row: Int }
private struct RemoveRow: Action, Equatable { var row: Int }

/// Counts from any thread.
private final class Counter: Sendable {
    private let count = LockedState(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

@Suite("Resin: effects returned by reducers")
struct ReducerEffectTests {
    @Test("a reducer's effect starts after the state changed and propagated; what it sends comes back FIFO")
    func effectSeesNewState() async {
        let store = TestStore(initialState: Finder()) { store in
            [
                store.register(
                    Reducer<Finder, Typed> { state, action in
                        state.query = action.text
                        let query = state.query
                        return .run { send in send(Found(query: query.uppercased())) }
                    }),
                store.register(Reducer<Finder, Found> { state, found in state.results.append(found.query) }),
            ]
        }
        store.send(Typed(text: "a")) { $0.query = "a" }
        await store.receive(Found(query: "A")) { $0.results = ["A"] }
        await store.finish()
    }

    @Test("Effect.send dispatches after the current action and its observers' actions, in order, through middleware")
    func sendIsQueued() {
        let registrations = Connector()
        let store = Store(initialState: Finder(), scheduler: TestScheduler())
        var order: [String] = []
        registrations += store.register(
            Middleware<Finder> { action, _ in
                order.append("middleware \(action)")
                return .pass
            })
        registrations += store.register(
            Reducer<Finder, Typed> { state, action in
                state.query = action.text
                return .merge(.send(Echo(text: action.text)), .send(Echo(text: action.text + "!")))
            })
        registrations += store.register(Reducer<Finder, Echo> { state, echo in state.requests.append(echo.text) })
        var observed: [String] = []
        let connection = store.state.map(\.query).observe { query in
            observed.append(query)
            // Observers run while the action propagates, before its effects start, so an
            // observer's action is queued ahead of what the effects send.
            if query == "x" { store.dispatch(Echo(text: "from observer")) }
        }
        store.dispatch(Typed(text: "x"))
        #expect(store.state.value.requests == ["from observer", "x", "x!"])
        #expect(order.count == 4)
        #expect(observed == ["", "x"])
        _ = connection
    }

    @Test(
        "cancel(id:) from a reducer cancels the running effect; what it sends afterwards is dropped, and its id is forgotten"
    )
    func cancelFromReducer() async {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let store = TestStore(initialState: Finder()) { store in
            [
                store.register(
                    Reducer<Finder, Typed> { state, action in
                        state.query = action.text
                        return .run(id: "search") { send in
                            for await _ in gate { break }
                            send(Found(query: "late"))
                        }
                    }),
                store.register(Reducer<Finder, Stop> { _, _ in .cancel(id: "search") }),
            ]
        }
        store.send(Typed(text: "a")) { $0.query = "a" }
        #expect(store.store.runningEffectCount == 1)
        store.send(Stop())
        #expect(store.store.runningEffectCount == 0)
        open.yield()
        open.finish()
        await store.finish()
    }

    @Test("debounce: only the last of a burst starts, a pause after it, on virtual time")
    func debounce() async {
        let registrations = Connector()
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(), scheduler: scheduler)
        registrations += store.register(
            Reducer<Finder, Typed> { state, action in
                state.query = action.text
                return .send(Found(query: action.text)).debounce(id: "search", for: .milliseconds(300))
            })
        registrations += store.register(Reducer<Finder, Found> { state, found in state.requests.append(found.query) })
        store.dispatch(Typed(text: "s"))
        scheduler.advance(by: .milliseconds(200))
        store.dispatch(Typed(text: "sw"))
        scheduler.advance(by: .milliseconds(200))
        store.dispatch(Typed(text: "swi"))
        #expect(store.pacingEffectCount == 1)
        scheduler.advance(by: .milliseconds(299))
        #expect(store.state.value.requests.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(store.state.value.requests == ["swi"])
        #expect(store.pacingEffectCount == 0)
    }

    @Test("throttle(latest:): the first passes at once, the newest of the pause at its end, the rest dropped")
    func throttle() {
        let registrations = Connector()
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(), scheduler: scheduler)
        registrations += store.register(
            Reducer<Finder, Typed> { _, action in
                .send(Found(query: action.text)).throttle(id: "t", for: .seconds(1), latest: true)
            })
        registrations += store.register(Reducer<Finder, Found> { state, found in state.requests.append(found.query) })
        for text in ["a", "b", "c"] { store.dispatch(Typed(text: text)) }
        #expect(store.state.value.requests == ["a"])
        scheduler.advance(by: .seconds(1))
        #expect(store.state.value.requests == ["a", "c"])
        scheduler.advance(by: .seconds(1))
        #expect(store.pacingEffectCount == 0)
        store.dispatch(Typed(text: "d"))
        #expect(store.state.value.requests == ["a", "c", "d"])
    }

    @Test("a debounce asked for again with another pause starts over with the new pause")
    func debounceNewPause() {
        let registrations = Connector()
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(), scheduler: scheduler)
        registrations += store.register(
            Reducer<Finder, Typed> { _, action in
                .send(Found(query: action.text)).debounce(id: "search", for: .seconds(action.text == "slow" ? 5 : 1))
            })
        registrations += store.register(Reducer<Finder, Found> { state, found in state.requests.append(found.query) })
        store.dispatch(Typed(text: "fast"))
        store.dispatch(Typed(text: "slow"))
        scheduler.advance(by: .seconds(4))
        #expect(store.state.value.requests.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(store.state.value.requests == ["slow"])
        #expect(store.pacingEffectCount == 0)
    }

    @Test("cancel(id:) also drops a debounce still waiting")
    func cancelWaitingDebounce() {
        let registrations = Connector()
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(), scheduler: scheduler)
        registrations += store.register(
            Reducer<Finder, Typed> { _, action in
                .send(Found(query: action.text)).debounce(id: "search", for: .seconds(1))
            })
        registrations += store.register(Reducer<Finder, Stop> { _, _ in .cancel(id: "search") })
        registrations += store.register(Reducer<Finder, Found> { state, found in state.requests.append(found.query) })
        store.dispatch(Typed(text: "a"))
        store.dispatch(Stop())
        scheduler.advance(by: .seconds(2))
        #expect(store.state.value.requests.isEmpty)
        #expect(store.pacingEffectCount == 0)
    }

    @Test("an element's effects are cancelled when the element is removed, and when its focus is freed")
    func effectsEndWithTheirFocus() async {
        let gate = Gate()
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(rows: [1: "a", 2: "b"]), scheduler: scheduler)
        let remove = store.register(Reducer<Finder, RemoveRow> { state, action in state.rows[action.row] = nil })
        var rows: [Int: Connection] = [:]
        for row in [1, 2] {
            rows[row] = store.focus(\.rows, key: row).register(
                Reducer<String?, Start> { _, start in
                    guard start.row == row else { return .none }
                    return .merge(
                        .run { _ in await gate.wait() },
                        .send(Echo(text: "late")).debounce(id: "row \(row)", for: .seconds(1)))
                })
        }
        store.dispatch(Start(row: 1))
        store.dispatch(Start(row: 2))
        #expect(store.runningEffectCount == 2)
        #expect(store.pacingEffectCount == 2)
        store.dispatch(RemoveRow(row: 1))
        #expect(store.runningEffectCount == 1)
        #expect(store.pacingEffectCount == 1)
        rows[2] = nil
        #expect(store.runningEffectCount == 0)
        #expect(store.pacingEffectCount == 0)
        var unhandled = 0
        store.unhandledActionHandler = { _ in unhandled += 1 }
        scheduler.advance(by: .seconds(2))
        #expect(unhandled == 0)
        gate.open()
        _ = remove
    }

    @Test("an element's effects asked for in the action that removes the element never start")
    func effectsOfAnElementRemovedByTheSameAction() async {
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(rows: [1: "a", 2: "b"]), scheduler: scheduler)
        let started = Counter()
        // The element's reducer runs first and asks for work; the parent's removes it after.
        var rows: [Connection] = []
        for row in [1, 2] {
            rows.append(
                store.focus(\.rows, key: row).register(
                    Reducer<String?, RemoveRow> { _, action in
                        guard action.row == row else { return .none }
                        return .merge(
                            .run { _ in started.increment() },
                            .send(Echo(text: "from \(row)")),
                            .send(Echo(text: "paced \(row)")).debounce(id: "row \(row)", for: .seconds(1)),
                            .send(Echo(text: "throttled \(row)")).throttle(
                                id: "throttle \(row)", for: .seconds(1), latest: true))
                    }))
        }
        let remove = store.register(Reducer<Finder, RemoveRow> { state, action in state.rows[action.row] = nil })
        var echoes: [String] = []
        let echo = store.register(Reducer<Finder, Echo> { _, echo in echoes.append(echo.text) })
        store.dispatch(RemoveRow(row: 1))
        #expect(store.runningEffectCount == 0)
        #expect(store.pacingEffectCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(echoes.isEmpty)
        // The element that stays still starts its effects.
        store.dispatch(RemoveRow(row: 3))
        #expect(echoes.isEmpty)
        _ = (rows, remove, echo)
        await Task.yield()
        #expect(started.value == 0)
    }

    @Test("an element removed while its debounce waits: the debounced effect does not start when the pause ends")
    func debounceOfARemovedElement() {
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(rows: [1: "a"]), scheduler: scheduler)
        let element = store.focus(\.rows, key: 1).register(
            Reducer<String?, Start> { _, _ in .send(Echo(text: "late")).debounce(id: "row", for: .seconds(1)) })
        let remove = store.register(Reducer<Finder, RemoveRow> { state, action in state.rows[action.row] = nil })
        var echoes: [String] = []
        let echo = store.register(Reducer<Finder, Echo> { _, echo in echoes.append(echo.text) })
        store.dispatch(Start(row: 1))
        #expect(store.pacingEffectCount == 1)
        store.dispatch(RemoveRow(row: 1))
        scheduler.advance(by: .seconds(2))
        #expect(echoes.isEmpty)
        _ = (element, remove, echo)
    }

    @Test("a debounce shared by id belongs to the focus that asked last: freeing another focus keeps it")
    func sharedDebounceFollowsItsOwner() {
        let scheduler = TestScheduler()
        let store = Store(initialState: Finder(rows: [1: "a", 2: "b"]), scheduler: scheduler)
        var echoes: [String] = []
        let echo = store.register(Reducer<Finder, Echo> { _, echo in echoes.append(echo.text) })
        var rows: [Int: Connection] = [:]
        for row in [1, 2] {
            rows[row] = store.focus(\.rows, key: row).register(
                Reducer<String?, Start> { _, start in
                    guard start.row == row else { return .none }
                    return .send(Echo(text: "from \(row)")).debounce(id: "shared", for: .seconds(1))
                })
        }
        store.dispatch(Start(row: 1))
        store.dispatch(Start(row: 2))
        // Row 1 asked first; its effect was replaced by row 2's, which now waits.
        rows[1] = nil
        #expect(store.pacingEffectCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(echoes == ["from 2"])
        // The other way round: the focus whose effect waits goes, and takes it along.
        store.dispatch(Start(row: 2))
        rows[2] = nil
        #expect(store.pacingEffectCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(echoes == ["from 2"])
        _ = echo
    }

    @Test("finished and cancelled effects are forgotten: a thousand of them leave nothing behind")
    func idsAreForgotten() async {
        let store = TestStore(initialState: Finder()) { store in
            [
                store.register(
                    Reducer<Finder, Typed> { _, action in
                        .merge(.run(id: action.text) { _ in }, .cancel(id: action.text))
                    }),
                store.register(Reducer<Finder, Echo> { _, echo in .run(id: echo.text) { _ in } }),
            ]
        }
        store.exhaustivity = .off
        for index in 0..<1_000 {
            store.send(Typed(text: "\(index)"))
            store.send(Echo(text: "\(index)"))
        }
        await store.finish()
        #expect(store.store.runningEffectCount == 0)
    }

    @Test("the test store fails on a debounce still waiting at the end")
    func testStoreFailsOnWaitingDebounce() async {
        let store = TestStore(initialState: Finder()) { store in
            store.register(
                Reducer<Finder, Typed> { state, action in
                    state.query = action.text
                    return .send(Found(query: action.text)).debounce(id: "search", for: .seconds(1))
                })
        }
        store.send(Typed(text: "a")) { $0.query = "a" }
        await withKnownIssue {
            await store.finish()
        }
        store.scheduler.advance(by: .seconds(1))
        // The debounce has sent its action, which the test does not receive.
        store.exhaustivity = .off
    }

    @Test("a negative debounce or throttle pause is a precondition failure")
    func negativePause() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Effect<any Action>.none.debounce(id: "x", for: .seconds(-1))
        }
        expectStandardError(
            of: result, contains: "Resin: debounce and throttle need a pause of zero or more, got -1.0 seconds")
        let throttled = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Effect<any Action>.none.throttle(id: "x", for: .seconds(-1), latest: true)
        }
        expectStandardError(of: throttled, contains: "Resin: debounce and throttle need a pause of zero or more")
    }
}

/// Every way of writing a reducer's closure picks the initializer that keeps what it returns.
@Suite("Resin: reducer closures and their initializers")
struct ReducerSpellingTests {
    private struct Go: Action, Equatable {}
    private struct Done: Action, Equatable {}
    private struct Row: RoutedAction, Equatable {
        var route: Int
    }

    /// Registers `reducer` and a counter of `Done`, dispatches `action`; returns how many
    /// `Done` arrived and the state.
    private func run<Handled: Action>(_ reducer: Reducer<Int, Handled>, _ action: Handled) -> (done: Int, state: Int) {
        let store = Store(initialState: 0)
        var done = 0
        let registrations = [
            store.register(reducer), store.register(Reducer<Int, Done> { _, _ in done += 1 }),
        ]
        store.dispatch(action)
        _ = registrations
        return (done, store.state.value)
    }

    @Test("a single expression returning an effect keeps the effect, spelled with or without its type")
    func singleExpressionEffect() {
        #expect(run(Reducer<Int, Go> { _, _ in Effect.send(Done()) }, Go()).done == 1)
        #expect(run(Reducer<Int, Go> { _, _ in .send(Done()) }, Go()).done == 1)
        #expect(run(Reducer(for: Go.self) { (_: inout Int, _) in .send(Done()) }, Go()).done == 1)
        #expect(run(Reducer<Int, Row>(route: 1) { _, _ in .send(Done()) }, Row(route: 1)).done == 1)
    }

    @Test("closures that return nothing, one expression or several statements, take the Void initializer")
    func mutationsOnly() {
        #expect(run(Reducer<Int, Go> { count, _ in count += 1 }, Go()) == (0, 1))
        let several = Reducer<Int, Go> { count, _ in
            count += 1
            if count > 5 { count = 0 }
        }
        #expect(run(several, Go()) == (0, 1))
        #expect(run(Reducer<Int, Row>(route: 2) { count, _ in count += 2 }, Row(route: 2)) == (0, 2))
    }

    @Test("a switch whose branches return .none and other effects compiles and keeps them")
    func switchReturningEffects() {
        let reducer = Reducer<Int, Row> { count, row in
            switch row.route {
            case 0:
                count += 1
                return .none
            default:
                count += 10
                return .send(Done())
            }
        }
        let store = Store(initialState: 0)
        var done = 0
        let registrations = [
            store.register(reducer), store.register(Reducer<Int, Done> { _, _ in done += 1 }),
        ]
        store.dispatch(Row(route: 0))
        store.dispatch(Row(route: 1))
        #expect(store.state.value == 11)
        #expect(done == 1)
        _ = registrations
    }
}
