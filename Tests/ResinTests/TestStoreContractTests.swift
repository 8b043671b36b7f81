import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

// What a test written against TCA's TestStore relies on, in Resin's test store: the task a
// send returns, assertions that must change something, the state before the action inside
// the closure, sends from effects that completed, one report per problem, and a finish that
// waits for cancelled work.

private enum Tap: Action, Equatable {
    case tap, noop, late, cancel, slow, forever, loaded
}

private struct Loaded: Action, Equatable {
    var items: [String]
    var page: Int
}

private enum Response: Action, Equatable {
    case fact(String)
    case failed
}

private final class Flag: Sendable {
    private let state = LockedState(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}

/// A reducer of counts whose effects are given by `effect`.
private func tapReducer(_ effect: @escaping @Sendable (Tap) -> Effect<Tap>) -> Reducer<Int, Tap> {
    Reducer { count, action in
        switch action {
        case .tap: count += 1
        case .loaded: count = 100
        case .noop, .late, .cancel, .slow, .forever: break
        }
        return effect(action)
    }
}

@Suite("ResinTesting: what a TCA user's tests rely on")
struct TestStoreContractTests {
    @Test("send returns a task whose finish waits for the action's effects; the store's own task never hangs")
    func sendReturnsATask() async {
        let store = TestStore(initialState: 0) { tapReducer { _ in .run { _ in } } }
        let task = store.send(.tap) { $0 = 1 }
        await task.finish()
        #expect(task.isFinished)
        // The store's own StoreTask, which a test can reach, ends too.
        await store.store.dispatch(Tap.noop).finish()
        await store.finish()
    }

    @Test("a task's finish waits for every part of a concatenation, and leaves the actions sent to receive")
    func taskFinishWaitsForConcatenation() async {
        let store = TestStore(initialState: 0) {
            tapReducer { action in
                guard action == .tap else { return .none }
                return .concatenate(.run { _ in await Task.yield() }, .run { send in send(.loaded) })
            }
        }
        let task = store.send(.tap) { $0 = 1 }
        await task.finish()
        #expect(task.isFinished)
        await store.receive(.loaded) { $0 = 100 }
        await store.finish()
    }

    @Test("a task's finish records a failure when an effect still runs after the timeout")
    func taskFinishTimesOut() async {
        let gate = Gate()
        let store = TestStore(initialState: 0, timeout: .milliseconds(20)) {
            tapReducer { action in action == .forever ? .run { _ in await gate.wait() } : .none }
        }
        let task = store.send(.forever)
        await withKnownIssue {
            await task.finish()
        } matching: {
            $0.description.contains("Expected the effects of forever to finish")
        }
        gate.open()
        await task.finish(timeout: .seconds(60))
        await store.finish()
    }

    @Test("a task's cancel ends the action's effects and waits for their tasks")
    func taskCancel() async {
        let ended = Flag()
        let store = TestStore(initialState: 0) {
            tapReducer { action in
                guard action == .forever else { return .none }
                return .run { _ in
                    let (never, _) = AsyncStream.makeStream(of: Void.self)
                    for await _ in never {}
                    // Work after cancellation: the cancel below waits for it.
                    for _ in 0..<100 { await Task.yield() }
                    ended.set()
                }
            }
        }
        let task = store.send(.forever)
        await task.cancel()
        #expect(task.isCancelled)
        #expect(ended.isSet)
        await store.finish()
    }

    @Test("a receive of another action names both and shows where they differ, when they are of one type")
    func receiveMismatchShowsDiff() async {
        let store = TestStore(initialState: 0) {
            $0.register(
                Reducer<Int, Tap> { _, action in
                    action == .tap
                        ? .merge(.send(Loaded(items: ["a", "b"], page: 1)), .send(Response.fact("one"))) : .none
                })
        }
        store.send(Tap.tap)
        let recorded = LockedState<[String]>([])
        await withKnownIssue {
            await store.receive(Loaded(items: ["a", "c"], page: 1))
            await store.receive(Response.failed)
        } matching: { issue in
            recorded.withLock { $0.append(issue.description) }
            return true
        }
        let messages = recorded.withLock { $0 }
        #expect(messages.count == 2)
        #expect(messages.first?.contains("items[1]: \"c\" → \"b\"") == true)
        #expect(messages.first?.contains("page: 1 →") == false)
        #expect(messages.last?.hasSuffix("Expected to receive failed, received fact(\"one\")") == true)
        store.exhaustivity = .off
    }

    @Test("an exhaustive closure that changes nothing fails, for send and receive; an assert does not")
    func noChangeClosureFails() async {
        let store = TestStore(initialState: 0) {
            tapReducer { action in action == .noop ? .send(.cancel) : .none }
        }
        await withKnownIssue {
            store.send(.noop) { $0 = 0 }
            await store.receive(.cancel) { $0 = 0 }
        } matching: { issue in
            issue.description.contains("but no change occurred; if no change is expected, pass no closure")
        }
        // Without a closure, no change is what the test asserts.
        store.send(.tap) { $0 = 1 }
        store.assert { $0 = 1 }
        store.exhaustivity = .off
        // Non-exhaustive, a closure that sets what the state already is asserts it.
        store.send(.noop) { $0 = 1 }
        await store.receive(.cancel) { $0 = 1 }
    }

    @Test("a closure that gives the state it had before is still a failure when the action changed it")
    func closureRestoringStateFails() {
        let store = TestStore(initialState: 0) { tapReducer { _ in .none } }
        withKnownIssue {
            store.send(.tap) { $0 = 0 }
        } matching: {
            $0.description.contains("State after tap differs from the expected state")
        }
    }

    @Test("inside the assertion closure, state is the state before the action; after it, the state after")
    func stateBeforeInClosure() async {
        let store = TestStore(initialState: 0) { tapReducer { action in action == .tap ? .send(.loaded) : .none } }
        var seen: [Int] = []
        store.send(.tap) {
            seen.append(store.state)
            $0 = store.state + 1
        }
        await store.receive(.loaded) {
            seen.append(store.state)
            $0 = 100
        }
        #expect(seen == [0, 1])
        #expect(store.state == 100)
        await store.finish()
    }

    @Test("an action sent from a task that outlived its effect is reported and dropped")
    func sendFromCompletedEffect() async {
        let opened = Gate()
        let sent = Gate()
        let store = TestStore(initialState: 0) {
            tapReducer { action in
                guard action == .late else { return .none }
                return .run { send in
                    Task {
                        await opened.wait()
                        send(.tap)
                        sent.open()
                    }
                }
            }
        }
        await store.send(.late).finish()
        opened.open()
        await sent.wait()
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.description.contains("An effect sent tap after it completed, and the action was dropped")
        }
        #expect(store.state == 0)
    }

    @Test("in a live store, an action sent after its effect completed is dropped")
    @MainActor
    func liveSendFromCompletedEffect() async {
        let opened = Gate()
        let sent = Gate()
        let store = Store(initialState: 0)
        let reducer = store.register(
            tapReducer { action in
                guard action == .late else { return .none }
                return .run { send in
                    Task {
                        await opened.wait()
                        send(.tap)
                        sent.open()
                    }
                }
            })
        await store.dispatch(Tap.late).finish()
        opened.open()
        await sent.wait()
        // A delivery of the dropped action would come through the main actor's queue.
        await yieldTimes(1_000)
        #expect(store.state.value == 0)
        reducer.disconnect()
    }

    @Test("an effect running at the end is reported once: by finish, not again when the store is released")
    func reportedOnce() async {
        let gate = Gate()
        let reports = LockedState(0)
        await withKnownIssue {
            let store = TestStore(initialState: 0, timeout: .milliseconds(20)) {
                tapReducer { action in action == .forever ? .run { _ in await gate.wait() } : .none }
            }
            store.send(.forever)
            await store.finish()
        } matching: { issue in
            reports.withLock { $0 += 1 }
            return issue.description.contains("1 effect(s) still running at the end of the test")
        }
        gate.open()
        #expect(reports.withLock { $0 } == 1)
    }

    @Test("finish waits for cancelled effects' tasks to end, and fails when one does not")
    func finishWaitsForCancelled() async {
        let ended = Flag()
        let stuck = Gate()
        let store = TestStore(initialState: 0, timeout: .milliseconds(50)) {
            tapReducer { action in
                switch action {
                case .slow:
                    return .run(id: "slow") { _ in
                        let (never, _) = AsyncStream.makeStream(of: Void.self)
                        for await _ in never {}
                        for _ in 0..<100 { await Task.yield() }
                        ended.set()
                    }
                case .forever:
                    // Ignores cancellation: waits on a task of its own, which no cancellation reaches.
                    return .run(id: "stuck") { _ in await Task { await stuck.wait() }.value }
                case .cancel:
                    return .merge(.cancel(id: "slow"), .cancel(id: "stuck"))
                default:
                    return .none
                }
            }
        }
        store.send(.slow)
        store.send(.cancel)
        await store.finish()
        #expect(ended.isSet)

        store.send(.forever)
        store.send(.cancel)
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.description.contains("1 cancelled effect(s) did not end within")
                && issue.description.contains("an effect started by forever (id \"stuck\")")
        }
        stuck.open()
    }
}

/// A view model on the main actor, beside a test store in a main-actor test.
@MainActor
private final class TapViewModel {
    var taps = 0
}

@Suite("ResinTesting: a test store in a main-actor test")
struct MainActorTestStoreTests {
    @MainActor
    @Test("send, receive, advance and finish are awaited from the main actor, beside a main-actor model")
    func mainActorTest() async {
        let model = TapViewModel()
        let store = TestStore(initialState: 0) {
            tapReducer { action in
                guard action == .tap else { return .none }
                return .run { send in
                    @Dependency(\.clock) var clock
                    try? await clock.sleep(for: .seconds(1))
                    send(.loaded)
                }
            }
        }
        let task = store.send(.tap) { $0 = 1 }
        model.taps += 1
        await store.advance(by: .seconds(1))
        await store.receive(.loaded) { $0 = 100 }
        await task.finish()
        await store.finish()
        #expect(model.taps == 1)
    }
}
