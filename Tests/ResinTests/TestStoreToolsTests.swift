import Resin
import ResinTesting
import TestSupport
import Testing

private struct Counts: Equatable {
    var count = 0
    var items: [Int] = []
}

private struct Add: Action, Equatable { var amount: Int }
private struct Fill: Action, Equatable {}
private struct Filled: Action, Equatable { var items: [Int] }
private struct Progress: Action, Equatable { var step: Int }
private struct Forever: Action, Equatable {}

private var countsReducer: Reducer<Counts, Add> {
    Reducer { state, add in
        state.count += add.amount
        return .none
    }
}

private var fillReducer: Reducer<Counts, Fill> {
    Reducer { _, _ in
        .run { send in
            send(Progress(step: 1))
            send(Progress(step: 2))
            send(Filled(items: [1, 2, 3]))
        }
    }
}

@Suite("ResinTesting: the test store's tools")
struct TestStoreToolsTests {
    private func makeStore() -> TestStore<Counts, any Action> {
        TestStore(initialState: Counts(), timeout: .milliseconds(200)) { store in
            [
                store.register(countsReducer),
                store.register(fillReducer),
                store.register(Reducer<Counts, Filled> { state, filled in state.items = filled.items }),
                store.register(Reducer<Counts, Progress> { state, progress in state.count = progress.step }),
                store.register(
                    Reducer<Counts, Forever> { _, _ in
                        .run { _ in for await _ in AsyncStream<Void>.makeStream().stream {} }
                    }
                ),
            ]
        }
    }

    @Test("receive(where:) takes the action the predicate accepts; exhaustive, an action before it fails")
    func receiveWhere() async {
        let store = makeStore()
        store.send(Fill())
        await store.receive(where: { ($0 as? Progress)?.step == 1 }) { $0.count = 1 }
        await withKnownIssue {
            await store.receive(where: { $0 is Filled }) { $0.items = [1, 2, 3] }
        }
        await store.receive(where: { $0 is Filled }) { $0.items = [1, 2, 3] }
        await store.finish()
    }

    @Test("skipReceivedActions dispatches what effects sent without asserting it; strict, finding none fails")
    func skipReceived() async {
        let store = makeStore()
        store.send(Fill())
        await store.skipReceivedActions()
        store.assert {
            $0.count = 2
            $0.items = [1, 2, 3]
        }
        await store.finish()
        await withKnownIssue { await store.skipReceivedActions() }
        await store.skipReceivedActions(strict: false)
    }

    @Test("skipInFlightEffects cancels what still runs, so the test ends without it; strict, finding none fails")
    func skipInFlight() async {
        let store = makeStore()
        store.send(Forever())
        #expect(store.store.runningEffectCount == 1)
        await store.skipInFlightEffects()
        #expect(store.store.runningEffectCount == 0)
        await store.finish()
        await withKnownIssue { await store.skipInFlightEffects() }
    }

    @Test("assert checks the state without an action, and fails when it differs")
    func assertState() {
        let store = makeStore()
        store.send(Add(amount: 2)) { $0.count = 2 }
        store.assert { $0.count = 2 }
        withKnownIssue { store.assert { $0.count = 3 } }
    }

    @Test("withExhaustivity lets a block skip what it does not assert, then puts exhaustivity back")
    func scopedExhaustivity() async {
        let store = makeStore()
        await store.withExhaustivity(.off) {
            store.send(Fill())
            await store.receive(Filled(items: [1, 2, 3])) { $0.items = [1, 2, 3] }
        }
        #expect(store.exhaustivity == .on)
        store.send(Add(amount: 1)) { $0.count = 3 }
        await store.finish()
    }
}
