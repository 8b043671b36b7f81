// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Resin's "Effects and testing" article, verbatim, with what they need around
// them. They compile in Swift 6 mode and their tests run.

import Foundation
import Resin
import ResinTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct CounterState: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
}

enum Counter: Action, Equatable {
    case increment
    case factButtonTapped
    case factResponse(String)
    case factFailed(String)
}

var counterReducer: Reducer<CounterState, Counter> {
    Reducer { state, action in
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .factButtonTapped:
            state.isLoading = true
            let number = state.count
            return .run { send in
                @Dependency(\.numberFact) var numberFact
                send(.factResponse(try await numberFact.fetch(number)))
            } catch: { error, send in
                send(.factFailed("\(error)"))
            }
        case .factResponse(let fact):
            state.isLoading = false
            state.fact = fact
            return .none
        case .factFailed:
            state.isLoading = false
            return .none
        }
    }
}

@MainActor
func driveCounterFeature() {
    let counter = FeatureStore(initialState: CounterState(), reducer: counterReducer)
    counter.send(.increment)
}

struct NumberFactClient: Sendable {
    var fetch: @Sendable (Int) async throws -> String
}

enum NumberFactKey: DependencyKey {
    static let liveValue = NumberFactClient { number in
        let url = URL(string: "http://numbersapi.com/\(number)")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return String(decoding: data, as: UTF8.self)
    }
}

extension Dependencies {
    var numberFact: NumberFactClient {
        get { self[NumberFactKey.self] }
        set { self[NumberFactKey.self] = newValue }
    }
}

@Test func fact() async {
    var dependencies = Dependencies(context: .test)
    dependencies.numberFact = NumberFactClient { "\($0) is a good number." }
    let store = TestStore(initialState: CounterState(), dependencies: dependencies) { counterReducer }
    store.send(.increment) { $0.count = 1 }
    store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("1 is a good number.")) {
        $0.isLoading = false
        $0.fact = "1 is a good number."
    }
    await store.finish()
}

extension Counter {
    var factResponse: String? {
        if case .factResponse(let fact) = self { fact } else { nil }
    }
}

@Test func factByCase() async {
    var dependencies = Dependencies(context: .test)
    dependencies.numberFact = NumberFactClient { "\($0) is a good number." }
    let store = TestStore(initialState: CounterState(), dependencies: dependencies) { counterReducer }
    store.send(.increment) { $0.count = 1 }
    store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
        $0.isLoading = false
        $0.fact = "1 is a good number."
    }
    await store.finish()
}

enum Stopwatch: Action, Equatable { case start, tick, stop }

var stopwatchReducer: Reducer<Int, Stopwatch> {
    Reducer { seconds, action in
        switch action {
        case .start:
            return .run(id: "timer") { send in
                @Dependency(\.clock) var clock
                while true {
                    try await clock.sleep(for: .seconds(1))
                    send(.tick)
                }
            }
        case .tick:
            seconds += 1
            return .none
        case .stop:
            return .cancel(id: "timer")
        }
    }
}

@Test func stopwatch() async {
    let store = TestStore(initialState: 0) { stopwatchReducer }
    store.send(.start)
    await store.advance(by: .seconds(2))
    await store.receive(.tick) { $0 = 1 }
    await store.receive(.tick) { $0 = 2 }
    store.send(.stop)
    await store.finish()
}

// MARK: composing effects

private enum Draft: Action, Equatable {
    case save
    case saved(String)
    case synced(Int)
}

private struct DraftState: Equatable {
    var draft = "hello"
    var log: [String] = []
}

private func save(_ draft: String) async throws -> String { "saved \(draft)" }
private func sync() async throws -> Int { 1 }

private var draftReducer: Reducer<DraftState, Draft> {
    Reducer { state, action in
        switch action {
        case .save:
            let draft = state.draft
            return .concatenate(
                .run { send in send(.saved(try await save(draft))) },
                .run { send in send(.synced(try await sync())) }
            )
            .cancellable(id: "save", cancelInFlight: true)
        case .saved(let text):
            state.log.append(text)
            return .none
        case .synced(let count):
            state.log.append("synced \(count)")
            return .none
        }
    }
}

@Test func concatenationSample() async {
    let store = TestStore(initialState: DraftState()) { store in [store.register(draftReducer)] }
    store.send(Draft.save)
    await store.receive(Draft.saved("saved hello")) { $0.log = ["saved hello"] }
    await store.receive(Draft.synced(1)) { $0.log.append("synced 1") }
    await store.finish()
}

private struct LanguageSettings: Equatable {
    var language = "en"
    var translationsLoaded = true
    mutating func apply(_ action: SettingsAction) {
        if case .choose(let language) = action { self.language = language }
        if case .translationsLoaded = action { translationsLoaded = true }
    }
}

private enum SettingsAction: Action, Equatable {
    case choose(String)
    case translationsLoaded([String])
}

private func translations(for language: String) async throws -> [String] { [language] }

@Test func onChangeSample() async {
    let settings = Reducer<LanguageSettings, SettingsAction> { settings, action in
        settings.apply(action)
    }
    .onChange(of: \.language) { old, new, settings in
        settings.translationsLoaded = false
        return .run { send in send(.translationsLoaded(try await translations(for: new))) }
    }

    let store = TestStore(initialState: LanguageSettings()) { store in [store.register(settings)] }
    store.send(SettingsAction.choose("fr")) {
        $0.language = "fr"
        $0.translationsLoaded = false
    }
    await store.receive(SettingsAction.translationsLoaded(["fr"])) { $0.translationsLoaded = true }
    await store.finish()
}

// MARK: awaiting what an action started

private struct Refresh: Action, Equatable {}

@MainActor
@Test func storeTaskSamples() async {
    let store = Store(initialState: 0, scheduler: TestScheduler())
    let reducer = store.register(Reducer<Int, Refresh> { count, _ in count += 1 })
    let (notifications, notify) = AsyncStream.makeStream(of: Void.self)

    await store.dispatch(Refresh()).finish()   // the refresh's effects have all ended
    let feed = store.dispatch(from: notifications.map { _ in Refresh() })

    notify.yield()
    notify.finish()
    while store.state.value < 2 { await Task.yield() }
    #expect(store.state.value == 2)
    feed.disconnect()
    reducer.disconnect()
}

// MARK: the test store's tools

private struct Loaded: Action, Equatable { var items: [Int] }
private struct StartLoading: Action, Equatable {}
private struct LoadState: Equatable {
    var count = 2
    var isLoading = false
}

@Test func testStoreToolSamples() async {
    let store = TestStore(initialState: LoadState()) { store in
        [
            store.register(
                Reducer<LoadState, StartLoading> { state, _ in
                    state.isLoading = true
                    return .run { send in send(Loaded(items: [1, 2, 3])) }
                }),
            store.register(Reducer<LoadState, Loaded> { state, _ in state.isLoading = false }),
        ]
    }
    store.send(StartLoading()) { $0.isLoading = true }

    await store.receive(where: { ($0 as? Loaded)?.items.count == 3 }) { $0.isLoading = false }
    store.assert { $0.count = 2 }

    await store.finish()
}

// MARK: EffectsAndTesting.md: effects that follow effects

enum Countdown: Action, Equatable { case start, tick }

private func tick(after duration: Duration) -> Effect<Countdown> {
    .run { send in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: duration)
        send(.tick)
    }
}

@Test func countdownChain() async {
    let countdown = Reducer<Int, Countdown> { count, action in
        switch action {
        case .start:
            return .concatenate(tick(after: .seconds(1)), tick(after: .seconds(1)), tick(after: .seconds(1)))
        case .tick:
            count += 1
            return .none
        }
    }
    let store = TestStore(initialState: 0, sending: Countdown.self) { $0.register(countdown) }
    store.send(.start)
    await store.advance(by: .seconds(3))
    await store.receive(.tick) { $0 = 1 }
    await store.receive(.tick) { $0 = 2 }
    await store.receive(.tick) { $0 = 3 }
    await store.finish()
}
