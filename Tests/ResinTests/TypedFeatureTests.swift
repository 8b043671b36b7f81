import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

/// A counter with a fact effect, written as a TCA user writes a feature: one action enum,
/// a reducer whose `switch` mixes `.none` and effects, a client read from dependencies.
private struct CounterState: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
    var ticks = 0
    var failure: String?
}

private enum Counter: Action, Equatable {
    case increment
    case decrement
    case factButtonTapped
    case factResponse(String)
    case factFailed(String)
    case startTimer
    case stopTimer
    case tick
    case logout
}

extension Counter {
    /// The payload of `.factResponse`, for `receive(\.factResponse)`.
    var factResponse: String? { if case .factResponse(let fact) = self { fact } else { nil } }
}

/// An action of another type, sent from the counter's effects: routed by its own type.
private struct Logout: Action, Equatable {}

private struct FactClient: Sendable {
    var fact: @Sendable (Int) async throws -> String
}

private struct FactError: Error, CustomStringConvertible {
    var description: String { "no fact today" }
}

/// No test value: a test that forgets to set it fails.
private enum FactClientKey: DependencyKey {
    static let liveValue = FactClient { number in "\(number) is the live answer." }
}

extension Dependencies {
    fileprivate var factClient: FactClient {
        get { self[FactClientKey.self] }
        set { self[FactClientKey.self] = newValue }
    }
}

/// A computed global: a reducer is not `Sendable` (its closure runs in the store's domain),
/// so a stored global `let` of one does not compile in Swift 6.
private var counter: Reducer<CounterState, Counter> {
    Reducer { state, action in
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
            return .none
        case .factButtonTapped:
            state.isLoading = true
            let number = state.count
            return .run { send in
                @Dependency(\.factClient) var client
                send(.factResponse(try await client.fact(number)))
            } catch: { error, send in
                send(.factFailed("\(error)"))
            }
        case .factResponse(let fact):
            state.isLoading = false
            state.fact = fact
            return .none
        case .factFailed(let message):
            state.isLoading = false
            state.failure = message
            return .none
        case .startTimer:
            return .run(id: "timer") { send in
                @Dependency(\.clock) var clock
                while true {
                    try await clock.sleep(for: .seconds(1))
                    send(.tick)
                }
            }
        case .stopTimer:
            return .cancel(id: "timer")
        case .tick:
            state.ticks += 1
            return .none
        case .logout:
            return .send(Logout())
        }
    }
}

private func dependencies(fact: @escaping @Sendable (Int) async throws -> String) -> Dependencies {
    var dependencies = Dependencies(context: .test)
    dependencies.factClient = FactClient(fact: fact)
    return dependencies
}

@Suite("Resin: features typed by their action enum")
struct TypedFeatureTests {
    @Test("a feature's cases are named with a leading dot in send, in effects and in receive")
    func leadingDots() async {
        let store = TestStore(
            initialState: CounterState(), dependencies: dependencies { "\($0) is a good number." }
        ) { counter }
        store.send(.increment) { $0.count = 1 }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factResponse("1 is a good number.")) {
            $0.isLoading = false
            $0.fact = "1 is a good number."
        }
        store.send(.decrement) { $0.count = 0 }
        await store.finish()
    }

    @Test("receive matches a case by its payload property, with or without the payload")
    func casePaths() async {
        let store = TestStore(
            initialState: CounterState(), dependencies: dependencies { "fact \($0)" }
        ) { counter }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(\.factResponse) {
            $0.isLoading = false
            $0.fact = "fact 0"
        }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(\.factResponse, "fact 0") { $0.isLoading = false }
        await store.finish()
    }

    @Test("receive fails on another case, another payload, and names what it expected")
    func receiveMismatch() async {
        let store = TestStore(
            initialState: CounterState(), dependencies: dependencies { "fact \($0)" }
        ) { counter }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await withKnownIssue {
            await store.receive(\.factResponse, "another fact")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Expected to receive an action with") }
        }
        // The mismatched action was not dispatched: the state still says it is loading.
        store.send(.factButtonTapped)
        await withKnownIssue {
            await store.receive(.tick)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Expected to receive tick, received factResponse") }
        }
        store.exhaustivity = .off
    }

    @Test("an error thrown by .run goes to its catch: handler, which sends through the same Send")
    func catchHandler() async {
        let store = TestStore(initialState: CounterState(), dependencies: dependencies { _ in throw FactError() }) {
            counter
        }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factFailed("no fact today")) {
            $0.isLoading = false
            $0.failure = "no fact today"
        }
        await store.finish()
    }

    @Test("an error no catch: handler takes fails the test, naming the error")
    func uncaughtErrorFails() async {
        let throwing = Reducer<CounterState, Counter> { _, _ in
            .run { _ in throw FactError() }
        }
        let store = TestStore(initialState: CounterState()) { throwing }
        // Recorded at the first call on the test store after the effect threw: the send
        // itself, if the effect ran before it returned, else finish.
        await withKnownIssue {
            store.send(.increment)
            await store.finish()
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("An effect threw no fact today, and no catch: handler took it")
            }
        }
    }

    @Test("a cancelled effect's CancellationError goes nowhere: cancelling is not failing")
    func cancellationIsSilent() async {
        let store = TestStore(initialState: CounterState()) { counter }
        store.send(.startTimer)
        await store.advance(by: .seconds(1))
        await store.receive(.tick) { $0.ticks = 1 }
        store.send(.stopTimer)
        await store.finish()
        #expect(store.store.runningEffectCount == 0)
    }

    @Test("in a live store, an uncaught error reaches unhandledErrorHandler in the store's domain")
    func liveUnhandledError() async {
        let scheduler = TestScheduler()
        let store = Store(initialState: CounterState(), scheduler: scheduler)
        let errors = LockedState<[String]>([])
        store.unhandledErrorHandler = { error in errors.withLock { $0.append("\(error)") } }
        let registration = store.register(Reducer<CounterState, Counter> { _, _ in .run { _ in throw FactError() } })
        store.dispatch(Counter.increment)
        let delivered = await eventually {
            scheduler.advance()
            return errors.withLock { $0 } == ["no fact today"]
        }
        #expect(delivered)
        registration.disconnect()
    }

    @Test("advance(by:) lets effects reach their sleeps, then moves time: one call per step")
    func advanceWaitsForSleepers() async {
        let store = TestStore(initialState: CounterState()) { counter }
        store.send(.startTimer)
        await store.advance(by: .seconds(3))
        await store.receive(.tick) { $0.ticks = 1 }
        await store.receive(.tick) { $0.ticks = 2 }
        await store.receive(.tick) { $0.ticks = 3 }
        // Less than a second more wakes no one.
        await store.advance(by: .milliseconds(999))
        #expect(!store.store.hasWaitingEffectActions)
        await store.advance(by: .milliseconds(1))
        await store.receive(.tick) { $0.ticks = 4 }
        store.send(.stopTimer)
        await store.finish()
    }

    @Test("advance(by:) with no effect running moves time; with nothing due, nothing happens")
    func advanceNoOp() async {
        let store = TestStore(initialState: CounterState()) { counter }
        await store.advance(by: .seconds(5))
        #expect(store.scheduler.now == .zero + .seconds(5))
        await store.advance()
        #expect(store.scheduler.now == .zero + .seconds(5))
        await store.finish()
    }

    @Test(
        "a dependency with no test value fails the test once, naming the key; the effect that read it is cancelled, so the live answer never arrives"
    )
    func unimplementedDependency() async {
        let store = TestStore(initialState: CounterState()) { counter }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("The dependency FactClientKey has no test value: a test read it")
            }
        }
        // Read again: already reported, so no second failure; the effect is cancelled again.
        store.send(.factButtonTapped)
        await store.finish()
        #expect(store.state.fact == nil)
    }

    @Test("a live client that checks cancellation never runs in a test that did not set it")
    @MainActor
    func unimplementedClientDoesNotRun() async {
        let calls = LockedState(0)
        var dependencies = Dependencies(context: .test)
        let reported = LockedState<[String]>([])
        dependencies.unimplementedReporter = { key in reported.withLock { $0.append(key) } }
        let store = Store(initialState: CounterState(), dependencies: dependencies)
        let reducer = store.register(
            Reducer<CounterState, Counter> { _, _ in
                .run { _ in
                    @Dependency(\.factClient) var client
                    let live = client
                    // What a live client's request does first: URLSession checks the same.
                    try Task.checkCancellation()
                    calls.withLock { $0 += 1 }
                    _ = try await live.fact(1)
                }
            })
        await store.dispatch(Counter.factButtonTapped).finish()
        #expect(calls.withLock { $0 } == 0)
        #expect(reported.withLock { $0 } == ["FactClientKey"])
        reducer.disconnect()
    }

    @Test("withDependencies: changes a test store's dependencies on top of dependencies:, with no report")
    func withDependenciesForm() async {
        var dependencies = Dependencies(context: .test)
        dependencies.clock = ContinuousClock()
        let store = TestStore(initialState: CounterState(), dependencies: dependencies) {
            counter
        } withDependencies: {
            $0.factClient.fact = { "fact \($0)" }
        }
        #expect(store.store.dependencies.isSet(FactClientKey.self))
        #expect(store.store.dependencies.clock is ContinuousClock)
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factResponse("fact 0")) {
            $0.isLoading = false
            $0.fact = "fact 0"
        }
        await store.finish()
    }

    @Test("withDependencies: on a store and a feature store starts from the live values")
    @MainActor
    func withDependenciesLive() {
        let store = Store(initialState: CounterState()) { $0.factClient.fact = { _ in "set" } }
        #expect(store.dependencies.isSet(FactClientKey.self))
        #expect(store.dependencies.context == .live)
        let feature = FeatureStore(initialState: CounterState()) {
            counter
        } withDependencies: {
            $0.factClient.fact = { _ in "set" }
        }
        #expect(feature.store.dependencies.isSet(FactClientKey.self))
        feature.send(.increment)
        #expect(feature.store.state.value.count == 1)
    }

    @Test("changing part of a key with no test value in place reports nothing; the parts not set stay live")
    func partialOverrideUnreported() async {
        // As a test's own code does it, before a test store listens for reads.
        var test = Dependencies(context: .test)
        test.factClient.fact = { _ in "set" }
        #expect(test.isSet(FactClientKey.self))
        // A test store's `withDependencies:` runs before it listens, too.
        let store = TestStore(initialState: CounterState()) {
            counter
        } withDependencies: {
            $0.factClient.fact = { _ in "set" }
        }
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factResponse("set")) {
            $0.isLoading = false
            $0.fact = "set"
        }
        await store.finish()
        var live = Dependencies()
        live.factClient.fact = { _ in "set live" }
        #expect(live.isSet(FactClientKey.self))
    }

    @Test(
        "a key without a test value: live reads are silent, and each test read goes to the reporter until the test sets a value"
    )
    func liveContextUnreported() async {
        let live = Dependencies()
        #expect((try? await live.factClient.fact(3)) == "3 is the live answer.")
        var test = Dependencies(context: .test)
        let reported = LockedState<[String]>([])
        test.unimplementedReporter = { key in reported.withLock { $0.append(key) } }
        _ = test.factClient
        _ = test.factClient
        #expect(reported.withLock { $0 } == ["FactClientKey", "FactClientKey"])
        test.factClient = FactClient { _ in "set" }
        _ = test.factClient
        #expect(reported.withLock { $0 }.count == 2)
    }

    @Test("an action of another type sent from a typed effect is routed by its own type")
    func otherTypesRoute() async {
        let logouts = LockedState(0)
        let store = TestStore(initialState: CounterState(), sending: Counter.self) { store in
            Connection(grouping: [
                store.register(counter),
                store.register(Middleware<CounterState>.on(Logout.self) { _, _ in logouts.withLock { $0 += 1 } }),
            ])
        }
        store.send(.logout)
        await store.receive(Logout())
        #expect(logouts.withLock { $0 } == 1)
        await store.finish()
    }

    @Test("a handler that sends from inside its delivery: the feature store queues it after the current action")
    func featureStoreReentrant() {
        let feature = FeatureStore(initialState: CounterState(), reducer: counter, scheduler: TestScheduler())
        var seen: [Int] = []
        let observer = feature.state.map(\.count).observe { count in
            seen.append(count)
            if count == 1 { feature.send(.increment) }
        }
        feature.send(.increment)
        #expect(seen == [0, 1, 2])
        feature.send(.tick)  // does not change the count: no delivery
        #expect(seen == [0, 1, 2])
        observer.disconnect()
    }

    @Test("a feature store from a focus sends its own cases, and its reducer goes with it")
    func featureStoreFocus() {
        struct App { var counter = CounterState() }
        let root = Store(initialState: App(), scheduler: TestScheduler())
        weak var weakEngine: AnyObject?
        do {
            let registration = root.focus(\.counter).register(counter)
            let feature = root.sending(Logout.self).focus(\.counter, sending: Counter.self)
            feature.send(.increment)
            feature.send(.increment)
            #expect(root.stateForTesting.counter.count == 2)
            registration.disconnect()
            feature.send(.increment)
            #expect(root.stateForTesting.counter.count == 2)
        }
        do {
            let standalone = FeatureStore(initialState: CounterState(), reducer: counter, scheduler: TestScheduler())
            weakEngine = standalone.store.engineForTesting.engine
            standalone.send(.increment)
            #expect(standalone.store.stateForTesting.count == 1)
        }
        #expect(weakEngine == nil)
    }

    @Test("an effect built untyped is given to a typed reducer with Effect(_:)")
    func retyping() async {
        func shared() -> Effect<any Action> { .send(Logout()) }
        let reducer = Reducer<CounterState, Counter> { _, _ in Effect(shared()) }
        let store = TestStore(initialState: CounterState()) { reducer }
        store.send(.increment)
        await store.receive(Logout())
        await store.finish()
    }

    @Test("advance(by:) with a negative duration is a precondition failure")
    func negativeAdvance() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = TestStore(initialState: CounterState()) { counter }
            await store.advance(by: .seconds(-1))
        }
        expectStandardError(of: result, contains: "TestStore.advance(by:) cannot move time backwards")
    }
}
