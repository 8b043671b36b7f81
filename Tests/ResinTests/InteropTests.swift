import Observation
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Profile: Equatable {
    var name = "Ann"
    var score = 0
    var tags: [String] = []
    var notes: [String: Int] = [:]
    var mode: Mode = .idle
    var nickname: String?

    enum Mode: Equatable {
        case idle
        case editing(field: String)
    }
}

private struct Rename: Action, Equatable { var name: String }
private struct Score: Action, Equatable {}
private struct Ignored: Action {}
private struct Swallowed: Action {}

/// A profile store and the registrations of its reducers, which last while `registrations`
/// is held.
private func profileStore(_ registrations: Connector) -> Store<Profile> {
    let store = Store(initialState: Profile(), scheduler: TestScheduler())
    registrations += store.register(Reducer<Profile, Rename> { state, rename in state.name = rename.name })
    registrations += store.register(Reducer<Profile, Score> { state, _ in state.score += 1 })
    registrations += store.register(Reducer<Profile, Ignored> { _, _ in })
    return store
}

@Suite("StateDiff")
struct StateDiffTests {
    @Test("lists only the changed leaves, with their paths")
    func changedLeaves() {
        var after = Profile()
        after.score = 2
        after.tags = ["a"]
        after.notes = ["x": 1]
        after.mode = .editing(field: "name")
        after.nickname = "A"
        let diff = StateDiff(from: Profile(), to: after)
        #expect(
            diff.changes.map(\.description) == [
                "score: 0 → 2",
                #"tags[0]: added "a""#,
                #"notes["x"]: added 1"#,
                "mode: \(String(reflecting: Profile.Mode.idle)) → \(String(reflecting: after.mode))",
                #"nickname: nil → Optional("A")"#,
            ])
    }

    @Test("nested changes name the path into arrays, dictionaries, optionals and enum payloads")
    func nestedPaths() {
        var before = Profile()
        before.tags = ["a", "b"]
        before.notes = ["x": 1, "y": 2]
        before.mode = .editing(field: "name")
        before.nickname = "A"
        var after = before
        after.tags = ["a"]
        after.notes["y"] = 3
        after.mode = .editing(field: "score")
        after.nickname = "B"
        let lines = StateDiff(from: before, to: after).changes.map(\.description)
        #expect(
            lines == [
                #"tags[1]: removed "b""#, #"notes["y"]: 2 → 3"#, #"mode(editing).field: "name" → "score""#,
                #"nickname: "A" → "B""#,
            ])
    }

    @Test("equal states have no changes (no-op)")
    func equalStates() {
        #expect(StateDiff(from: Profile(), to: Profile()).isEmpty)
        #expect(StateDiff(from: 1, to: 1).description == "")
        #expect(StateDiff(from: 1, to: 2).changes.map(\.description) == ["(state): 1 → 2"])
    }
}

@Suite("Resin and the Swift ecosystem")
struct ResinInteropTests {
    @Test("a store's observed state re-evaluates a view once per change of what it read, and is freed")
    func observedStore() {
        let registrations = Connector()
        let store = profileStore(registrations)
        weak var weakObserved: ObservedValue<Profile>?
        do {
            let observed = store.observed()
            weakObserved = observed
            var names: [String] = []
            let view = ViewEvaluation { names.append(observed.name) }
            store.dispatch(Score())
            #expect(!view.renderIfNeeded())
            store.dispatch(Rename(name: "Bea"))
            #expect(view.renderIfNeeded())
            store.dispatch(Rename(name: "Bea"))
            store.dispatch(Ignored())
            #expect(!view.renderIfNeeded())
            #expect(names == ["Ann", "Bea"])
        }
        #expect(weakObserved == nil)
        #expect(registrations.count == 3)
    }

    @Test("a focused store's observed value follows its slice only")
    func observedFocus() {
        let registrations = Connector()
        let store = profileStore(registrations)
        let score = store.focus(\.score).observed()
        let view = ViewEvaluation { _ = score.value }
        store.dispatch(Rename(name: "Cy"))
        #expect(!view.renderIfNeeded())
        store.dispatch(Score())
        #expect(view.renderIfNeeded())
        #expect(score.value == 1)
        #expect(registrations.count == 3)
    }

    @Test("the logging middleware logs each action with what it changed, in the order processed")
    func loggingMiddleware() {
        let registrations = Connector()
        let store = profileStore(registrations)
        var lines: [String] = []
        registrations += store.register(.logging("app", log: { lines.append($0) }))
        registrations += store.register(
            Middleware<Profile> { action, context in
                if action is Swallowed { return .swallow }
                // Reentrant: dispatching from middleware queues the action after this one.
                if let rename = action as? Rename, rename.name == "Dee" { context.dispatch(Score()) }
                return .pass
            })
        store.dispatch(Rename(name: "Dee"))
        store.dispatch(Ignored())
        store.dispatch(Swallowed())
        #expect(
            lines == [
                "app: Rename(name: \"Dee\")\n  name: \"Ann\" → \"Dee\"",
                "app: Score()\n  score: 0 → 1",
                "app: Ignored()\n  (no state change)",
                "app: Swallowed()\n  (no state change)",
            ])
    }

    @Test("a store describes its state and running effects")
    func debugDescription() {
        let store = Store(initialState: 3, scheduler: TestScheduler())
        #expect(store.debugDescription == "Store<Int>(3, running effects: 0)")
    }
}

private struct Start: Action, Equatable {}
private struct Tick: Action, Equatable {}
private struct Step: Action, Equatable { var value: Int }

@Suite("The test store: diffs, non-exhaustive mode, virtual time")
struct TestStoreModesTests {
    @Test("a failure shows only the paths that differ")
    func failureShowsDiff() {
        let store = TestStore(initialState: Profile()) { $0.register(Reducer<Profile, Score> { s, _ in s.score += 1 }) }
        withKnownIssue {
            store.send(Score()) { $0.score = 2 }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("score: 2 → 1") && !text.contains("name")
        }
    }

    @Test("non-exhaustive: send checks only what its closure sets, and still fails when that is wrong")
    func nonExhaustiveSend() {
        let store = TestStore(initialState: Profile()) { store in
            store.register(
                Reducer<Profile, Rename> { state, rename in
                    state.name = rename.name
                    state.score += 10
                })
        }
        store.exhaustivity = .off
        store.send(Rename(name: "Eve")) { $0.name = "Eve" }
        store.send(Rename(name: "Eve"))
        #expect(store.state.score == 20)
        withKnownIssue {
            store.send(Rename(name: "Fay")) { $0.name = "Gus" }
        }
    }

    @Test("non-exhaustive: receive skips (and dispatches) actions before the expected one; finish tolerates the rest")
    func nonExhaustiveReceive() async {
        let store = TestStore(initialState: Profile()) { store in
            [
                store.register(Reducer<Profile, Step> { state, step in state.score = step.value }),
                store.register(
                    Middleware<Profile>.on(Start.self) { _, context in
                        context.run { send in
                            for value in 1...3 { send(Step(value: value)) }
                        }
                    }),
            ]
        }
        store.exhaustivity = .off
        store.send(Start())
        await store.receive(Step(value: 2)) { $0.score = 2 }
        await store.finish()
        #expect(store.state.score == 3)
    }

    @Test("exhaustive: the same skipped action is a failure")
    func exhaustiveReceiveFails() async {
        let store = TestStore(initialState: Profile()) { store in
            [
                store.register(Reducer<Profile, Step> { state, step in state.score = step.value }),
                store.register(
                    Middleware<Profile>.on(Start.self) { _, context in
                        context.run { send in
                            send(Step(value: 1))
                            send(Step(value: 2))
                        }
                    }),
            ]
        }
        store.send(Start())
        await withKnownIssue {
            await store.receive(Step(value: 2)) { $0.score = 2 }
        }
        await store.receive(Step(value: 2)) { $0.score = 2 }
        await store.finish()
    }

    @Test("an effect sleeps on a TestScheduler used as its clock; the test moves time")
    func effectSleepsOnVirtualTime() async {
        let clock = TestScheduler()
        let store = TestStore(initialState: Profile()) { store in
            [
                store.register(Reducer<Profile, Tick> { state, _ in state.score += 1 }),
                store.register(
                    Middleware<Profile>.on(Start.self) { _, context in
                        context.run { send in
                            for _ in 0..<2 {
                                do { try await clock.sleep(for: .seconds(1)) } catch { return }
                                send(Tick())
                            }
                        }
                    }),
            ]
        }
        store.send(Start())
        // The effect's task has started its sleep before time moves (see advanceTasks).
        #expect(await eventually { clock.pendingCount == 1 })
        await clock.advanceTasks(by: .milliseconds(500))
        #expect(clock.pendingCount == 1)
        await clock.advanceTasks(by: .milliseconds(500))
        await store.receive(Tick()) { $0.score = 1 }
        await clock.advanceTasks(by: .seconds(1))
        await store.receive(Tick()) { $0.score = 2 }
        await store.finish()
        #expect(clock.now == .zero + .seconds(2))
    }
}
