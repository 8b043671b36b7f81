import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

/// A network client as an app would declare it.
private struct SearchClient: Sendable {
    var search: @Sendable (String) async -> [String]
}

private enum SearchClientKey: DependencyKey {
    static let liveValue = SearchClient { query in ["live \(query)"] }
    static let testValue = SearchClient { _ in [] }
}

/// A storage as an app would declare it; the test value keeps everything in memory.
private final class MemoryStorage: Sendable {
    private let entries = LockedState<[String: String]>([:])
    func save(_ value: String, for key: String) { entries.withLock { $0[key] = value } }
    func load(_ key: String) -> String? { entries.withLock { $0[key] } }
}

private enum StorageKey: DependencyKey {
    static let liveValue = MemoryStorage()
    static var testValue: MemoryStorage { MemoryStorage() }
}

extension Dependencies {
    fileprivate var searchClient: SearchClient {
        get { self[SearchClientKey.self] }
        set { self[SearchClientKey.self] = newValue }
    }

    fileprivate var storage: MemoryStorage {
        get { self[StorageKey.self] }
        set { self[StorageKey.self] = newValue }
    }
}

private struct Page: Equatable {
    var query = ""
    var results: [String] = []
    var ticks = 0
}

private struct Query: Action, Equatable { var text: String }
private struct Answer: Action, Equatable { var results: [String] }
private struct Wait: Action, Equatable {}
private struct Tick: Action, Equatable {}

private func pageReducers(_ store: Store<Page>) -> [Connection] {
    [
        store.register(
            Reducer<Page, Query> { state, query in
                state.query = query.text
                let text = query.text
                return .run { send in
                    @Dependency(\.searchClient) var client
                    @Dependency(\.storage) var storage
                    let results = await client.search(text)
                    storage.save(results.joined(separator: ","), for: text)
                    send(Answer(results: results))
                }
            }),
        store.register(Reducer<Page, Answer> { state, answer in state.results = answer.results }),
        store.register(
            Reducer<Page, Wait> { _, _ in
                .run { send in
                    @Dependency(\.clock) var clock
                    do { try await clock.sleep(for: .seconds(5)) } catch { return }
                    send(Tick())
                }
            }),
        store.register(Reducer<Page, Tick> { state, _ in state.ticks += 1 }),
    ]
}

@Suite("Resin: dependencies of effects")
struct DependencyTests {
    @Test("a test store gives effects the test values, and the ones a test sets (a network stub, a storage)")
    func testValues() async {
        let storage = MemoryStorage()
        var dependencies = Dependencies(context: .test)
        dependencies.searchClient = SearchClient { query in [query.uppercased(), query + "!"] }
        dependencies.storage = storage
        let store = TestStore(initialState: Page(), dependencies: dependencies, setUp: pageReducers)
        store.send(Query(text: "swift")) { $0.query = "swift" }
        await store.receive(Answer(results: ["SWIFT", "swift!"])) { $0.results = ["SWIFT", "swift!"] }
        await store.finish()
        #expect(storage.load("swift") == "SWIFT,swift!")
    }

    @Test("unset keys give their test values in a test store")
    func defaultTestValues() async {
        let store = TestStore(initialState: Page(), setUp: pageReducers)
        store.send(Query(text: "a")) { $0.query = "a" }
        await store.receive(Answer(results: []))
        await store.finish()
    }

    @Test("the test store's scheduler is the effects' clock: time moves only when the test moves it")
    func clockIsTheScheduler() async {
        let store = TestStore(initialState: Page(), setUp: pageReducers)
        store.send(Wait())
        #expect(await eventually { store.scheduler.pendingCount == 1 })
        await store.scheduler.advanceTasks(by: .seconds(4))
        #expect(store.store.runningEffectCount == 1)
        await store.scheduler.advanceTasks(by: .seconds(1))
        await store.receive(Tick()) { $0.ticks = 1 }
        await store.finish()
    }

    @Test(
        "a store's effects run with its dependencies, tasks they start inherit them, and code outside sees live values")
    func liveStore() async {
        let scheduler = TestScheduler()
        var dependencies = Dependencies()
        dependencies.searchClient = SearchClient { _ in ["injected"] }
        let store = Store(initialState: Page(), scheduler: scheduler, dependencies: dependencies)
        let seen = LockedState<[String]>([])
        let registration = store.register(
            Reducer<Page, Query> { _, _ in
                .run { _ in
                    let inherited = await Task {
                        @Dependency(\.searchClient) var client
                        return await client.search("x")
                    }.value
                    seen.withLock { $0 += inherited }
                }
            })
        store.dispatch(Query(text: "x"))
        #expect(await eventually { seen.withLock { $0 } == ["injected"] })
        @Dependency(\.searchClient) var outside
        #expect(await outside.search("q") == ["live q"])
        #expect(store.dependencies.isSet(SearchClientKey.self))
        #expect(!store.dependencies.isSet(StorageKey.self))
        _ = registration
    }
}
