import Foundation
import Resin
import TestSupport
import Testing

@testable import ResinTesting

struct SearchState: Equatable {
    var query = ""
    var results: [String] = []
    var isSearching = false
}

struct Search: Action, Equatable { var query: String }
struct Results: Action, Equatable { var items: [String] }
struct CancelSearch: Action, Equatable {}

/// A search backend the test controls: it reports each request, answers at once, and holds
/// the queries it is told to hold until their effect is cancelled.
final class Backend: Sendable {
    let (requests, requestContinuation) = AsyncStream.makeStream(of: String.self)
    private let held: Set<String>
    private let never = Gate()

    init(holding held: Set<String> = []) {
        self.held = held
    }

    func search(_ query: String) async -> [String] {
        requestContinuation.yield(query)
        if held.contains(query) { await never.wait() }
        return [query.uppercased(), query + "!"]
    }
}

func searchParcel(_ backend: Backend) -> Parcel<SearchState> {
    Parcel(
        reducers: [
            ParcelReducer(
                Reducer<SearchState, Search> { state, search in
                    state.query = search.query
                    state.isSearching = true
                }),
            ParcelReducer(
                Reducer<SearchState, Results> { state, results in
                    state.results = results.items
                    state.isSearching = false
                }),
            ParcelReducer(Reducer<SearchState, CancelSearch> { state, _ in state.isSearching = false }),
        ],
        middleware: [
            .on(Search.self) { search, context in
                context.run(id: "search") { send in
                    let items = await backend.search(search.query)
                    send(Results(items: items))
                }
            },
            .on(CancelSearch.self) { _, context in context.cancel(id: "search") },
        ])
}

@Suite("Effects and the test store")
struct EffectTests {
    @Test("an effect's action comes back into the store, asserted exhaustively")
    func effectRoundTrip() async {
        let store = TestStore(initialState: SearchState()) { $0.register(searchParcel(Backend())) }
        store.send(Search(query: "swift")) {
            $0.query = "swift"
            $0.isSearching = true
        }
        await store.receive(Results(items: ["SWIFT", "swift!"])) {
            $0.results = ["SWIFT", "swift!"]
            $0.isSearching = false
        }
        await store.finish()
    }

    @Test("cancelling an effect by id drops what it sends afterwards")
    func cancellation() async {
        struct Slow: Action {}
        struct Late: Action, Equatable {}
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let store = TestStore(initialState: SearchState()) { store in
            [
                store.register(
                    Middleware<SearchState>.on(Slow.self) { _, context in
                        context.run(id: "slow") { send in
                            for await _ in gate { break }
                            send(Late())
                        }
                    }),
                store.register(
                    Middleware<SearchState>.on(CancelSearch.self) { _, context in context.cancel(id: "slow") }),
            ]
        }
        store.send(Slow())
        #expect(store.store.runningEffectCount == 1)
        store.send(CancelSearch())
        #expect(store.store.runningEffectCount == 0)
        open.yield()
        await store.finish()
    }

    @Test("a new effect with the same id cancels the one in flight")
    func cancelInFlight() async {
        // "a" is held, so that its effect is surely in flight when "ab" is sent.
        let store = TestStore(initialState: SearchState()) { $0.register(searchParcel(Backend(holding: ["a"]))) }
        store.send(Search(query: "a")) {
            $0.query = "a"
            $0.isSearching = true
        }
        store.send(Search(query: "ab")) { $0.query = "ab" }
        await store.receive(Results(items: ["AB", "ab!"])) {
            $0.results = ["AB", "ab!"]
            $0.isSearching = false
        }
        await store.finish()
    }

    @Test("the test store records a state change the test did not describe")
    func unexpectedState() {
        let store = TestStore(initialState: SearchState()) { $0.register(searchParcel(Backend())) }
        withKnownIssue {
            store.send(CancelSearch()) { $0.isSearching = true }
        }
    }

    @Test("the test store records actions nobody received and effects left running")
    func exhaustiveness() async {
        struct Forever: Action {}
        // The effect that never ends makes `finish` wait its whole timeout: kept short.
        let store = TestStore(initialState: SearchState(), timeout: .milliseconds(100)) { store in
            [
                store.register(searchParcel(Backend())),
                store.register(
                    Middleware<SearchState>.on(Forever.self) { _, context in
                        context.run { _ in for await _ in AsyncStream<Int>.makeStream().stream {} }
                    }),
            ]
        }
        // Forever first: the search's results may come at any time after its send, and a
        // send after them would record that they were not received (the race this test once
        // lost), outside the known issue.
        store.send(Forever())
        store.send(Search(query: "q")) {
            $0.query = "q"
            $0.isSearching = true
        }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("still running") || text.contains("did not receive")
        }
        // What `finish` reported would be reported again when the test store goes.
        store.exhaustivity = .off
    }

    @Test("a test store released without finish() records what was left, at the line that made it")
    func releasedWithoutFinish() {
        struct Forever: Action {}
        let line = #line + 3
        withKnownIssue {
            do {
                let store = TestStore(initialState: SearchState()) { store in
                    store.register(
                        Middleware<SearchState>.on(Forever.self) { _, context in
                            context.run { _ in for await _ in AsyncStream<Int>.makeStream().stream {} }
                        })
                }
                store.send(Forever())
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "1 effect(s) still running when the test store was released")
                && issue.sourceLocation?.line == line
        }
    }

    @Test("a test store released with an action nobody received records it")
    func releasedWithUnreceivedAction() {
        struct Go: Action {}
        struct Done: Action, Equatable {}
        withKnownIssue {
            let store = TestStore(initialState: SearchState()) { store in
                store.register(Middleware<SearchState>.on(Go.self) { _, context in context.perform(.send(Done())) })
            }
            store.send(Go())
            #expect(store.store.hasWaitingEffectActions)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("An effect sent Done()")
        }
    }

    @Test("a test store that ends with finish() records nothing more when it goes")
    func finishedStoreIsQuiet() async {
        struct Go: Action {}
        struct Done: Action, Equatable {}
        let store = TestStore(initialState: SearchState()) { store in
            store.register(Middleware<SearchState>.on(Go.self) { _, context in context.perform(.send(Done())) })
        }
        store.send(Go())
        await store.receive(Done())
        await store.finish()
    }

    @Test("outside any test framework a failure is written to standard error and the process exits failing")
    func failureOutsideTestFrameworks() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            UnattributedFailures.report("Session.swift:12: an effect was left running")
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("ResinTesting failure: Session.swift:12: an effect was left running"))
    }

    @Test("receive waits on the real clock, not a count of yields: an action that comes after many yields is received")
    func receiveWaitsForSlowEffects() async {
        struct Go: Action {}
        struct Done: Action, Equatable {}
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let store = TestStore(initialState: SearchState()) { store in
            store.register(
                Middleware<SearchState>.on(Go.self) { _, context in
                    context.run { send in
                        for await _ in gate { break }
                        send(Done())
                    }
                })
        }
        store.send(Go())
        // Opened only after more yields than the test store's former bound (10,000), counted
        // on an executor of its own, so that tests running in parallel do not slow them.
        let opening = Task(executorPreference: QueueExecutor("EffectTests.opener")) {
            await yieldTimes(30_000)
            opener.yield()
        }
        await store.receive(Done())
        await opening.value
        await store.finish()
    }

    @Test("a wait that outlasts the timeout records that the action never came, and says how long it waited")
    func receiveTimesOut() async {
        struct Go: Action {}
        let gate = Gate()
        let store = TestStore(initialState: SearchState(), timeout: .milliseconds(20)) { store in
            store.register(
                Middleware<SearchState>.on(Go.self) { _, context in
                    context.run { _ in await gate.wait() }
                })
        }
        #expect(store.timeout == .milliseconds(20))
        store.send(Go())
        await withKnownIssue {
            await store.receive(Results(items: []))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("none came within 0.02 seconds")
        }
        // Once the effect ends, nothing is left running.
        gate.open()
        store.timeout = .seconds(60)
        await store.finish()
    }

    @Test("the test store records an expected action that never comes")
    func missingAction() async {
        let store = TestStore(initialState: SearchState())
        await withKnownIssue {
            await store.receive(Results(items: []))
        }
    }

    @Test("with a scheduler, effects' actions are dispatched when the scheduler runs")
    func schedulerDelivery() async {
        let registrations = Connector()
        let scheduler = TestScheduler()
        let store = Store(initialState: SearchState(), scheduler: scheduler)
        registrations += store.register(searchParcel(Backend()))
        store.dispatch(Search(query: "x"))
        #expect(await eventually { scheduler.pendingCount > 0 })
        #expect(store.state.value.results.isEmpty)
        scheduler.advance()
        #expect(store.state.value.results == ["X", "x!"])
        #expect(store.state.value.isSearching == false)
    }
}
