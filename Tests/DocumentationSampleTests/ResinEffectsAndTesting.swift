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
