// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of the "Coming from …" articles, verbatim, with what they need around them.

import Dispatch
import Resin
import ResinTesting
import ReactiveCore
import Signals
import Synchronization
import Testing

// MARK: Coming from Combine or RxSwift

private final class SearchService: Sendable {
    func search(_ text: String) async throws -> [String] { [text] }
}

@MainActor private func show(_ results: [String]) { print(results) }

private func latestWinsSample(backend: SearchService) -> ObservableCollection {
    let query = Property<String>(value: "")
    let latest = LatestTask()
    let observables = ObservableCollection()
    query.didSet
        .throttle(pause: .milliseconds(300), latest: true, scheduler: DispatchScheduler(queue: .main))
        .then { text in
            latest.replace {
                let results = try await backend.search(text)
                try Task.checkCancellation()   // superseded: drop the answer
                await MainActor.run { show(results) }
            }
        }
        .append(to: observables)
    return observables
}

private func flatMapLatestSample(backend: SearchService) -> ObservableCollection {
    let query = Property<String>(value: "")
    let observables = ObservableCollection()
    @Sendable func show(_ results: [String]) { print(results) }
    query.didSet
        .throttle(pause: .milliseconds(300), latest: true, scheduler: DispatchScheduler(queue: .main))
        .flatMapLatest { text in (try? await backend.search(text)) ?? [] }
        .then { results in show(results) }
        .append(to: observables)
    return observables
}

final class LatestTask: Sendable {
    private let current = Mutex<Task<Void, any Error>?>(nil)

    func replace(_ operation: @escaping @Sendable () async throws -> Void) {
        let task = Task { try await operation() }
        current.withLock { $0?.cancel(); $0 = task }
    }
}

@Test func latestTaskCancelsTheOneBefore() async {
    let latest = LatestTask()
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    latest.replace {
        while !Task.isCancelled { await Task.yield() }
        try Task.checkCancellation()
        continuation.yield("first finished")
    }
    latest.replace { continuation.yield("second") }
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == "second")
}

// MARK: Coming from The Composable Architecture

struct Fact: Equatable {
    var number = 0
    var text: String?
}

enum FactAction: Action, Equatable {
    case incrementTapped
    case factTapped
    case factLoaded(String)
}

extension FactAction {
    var factLoaded: String? {
        if case .factLoaded(let text) = self { text } else { nil }
    }
}

var factReducer: Reducer<Fact, FactAction> {
    Reducer { state, action in
        switch action {
        case .incrementTapped:
            state.number += 1
            return .none
        case .factTapped:
            let number = state.number
            return .run { send in
                @Dependency(\.numberFact) var numberFact
                send(.factLoaded(try await numberFact.fetch(number)))
            } catch: { _, send in
                send(.factLoaded("No fact for \(number)."))
            }
        case .factLoaded(let text):
            state.text = text
            return .none
        }
    }
}

@Test func loadsAFactForTheNumber() async {
    var dependencies = Dependencies(context: .test)
    dependencies.numberFact = NumberFactClient { "\($0) is the number of the day." }
    let store = TestStore(initialState: Fact(), dependencies: dependencies) { factReducer }
    store.send(.incrementTapped) { $0.number = 1 }
    store.send(.factTapped)
    await store.receive(\.factLoaded) { $0.text = "1 is the number of the day." }
    await store.finish()
}
