import Resin
import ResinTesting
import TestSupport
import Testing

private struct Ticks: Equatable {
    var ticks: [String] = []
    var note = ""
}

private struct StartChain: Action, Equatable {}
private struct StartDebounced: Action, Equatable {}
private struct Tick: Action, Equatable { var name: String }
private struct Load: Action, Equatable { var query: String }
private struct Annotate: Action, Equatable {}

/// Sleeps `seconds` on the effects' clock, then sends `Tick(name)`.
private func timer(_ name: String, after seconds: Int) -> Effect<Tick> {
    .run { send in
        @Dependency(\.clock) var clock
        try? await clock.sleep(for: .seconds(seconds))
        send(Tick(name: name))
    }
}

private func tickStore(timeout: Duration = .seconds(5)) -> TestStore<Ticks, any Action> {
    TestStore(initialState: Ticks(), timeout: timeout) { store in
        [
            store.register(
                Reducer<Ticks, StartChain> { _, _ in
                    Effect(.concatenate(timer("a", after: 1), timer("b", after: 1), timer("c", after: 2)))
                }),
            store.register(
                Reducer<Ticks, StartDebounced> { _, _ in
                    Effect(timer("late", after: 1)).debounce(id: "debounce", for: .seconds(1))
                }),
            store.register(Reducer<Ticks, Tick> { state, tick in state.ticks.append(tick.name) }),
            store.register(
                Reducer<Ticks, Load> { _, _ in
                    .run { _ in
                        let (never, _) = AsyncStream.makeStream(of: Void.self)
                        for await _ in never {}
                    }
                    .cancellable(id: "load")
                }),
            store.register(
                Reducer<Ticks, Annotate> { state, _ in
                    state.note = "noted"
                    state.ticks.append("annotated")
                    return Effect(timer("annotation", after: 1))
                }),
        ]
    }
}

@Suite("ResinTesting: effects on virtual time end on their own")
struct TestStoreTimeTests {
    @Test("a concatenation of timers runs through one advance: each part starts when the one before ends")
    func timerChain() async {
        let store = tickStore()
        store.send(StartChain())
        await store.advance(by: .seconds(4))
        #expect(store.scheduler.now == .zero + .seconds(4))
        await store.receive(Tick(name: "a")) { $0.ticks = ["a"] }
        await store.receive(Tick(name: "b")) { $0.ticks.append("b") }
        await store.receive(Tick(name: "c")) { $0.ticks.append("c") }
        await store.finish()
    }

    @Test("an advance that stops halfway leaves the next part asleep at its own time")
    func chainHalfway() async {
        let store = tickStore()
        store.send(StartChain())
        await store.advance(by: .seconds(2))
        await store.receive(Tick(name: "a")) { $0.ticks = ["a"] }
        await store.receive(Tick(name: "b")) { $0.ticks.append("b") }
        #expect(store.store.runningEffectCount == 1)
        await store.advance(by: .seconds(1))
        #expect(store.store.runningEffectCount == 1)
        await store.advance(by: .seconds(1))
        await store.receive(Tick(name: "c")) { $0.ticks.append("c") }
        await store.finish()
    }

    @Test("a debounce lets out an effect that sleeps, and the same advance runs it to its end")
    func debounceThenSleep() async {
        let store = tickStore()
        store.send(StartDebounced())
        await store.advance(by: .seconds(2))
        await store.receive(Tick(name: "late")) { $0.ticks = ["late"] }
        await store.finish()
    }

    @Test("finish names the effects still running: the action that started them and their ids")
    func finishNamesEffects() async {
        let store = tickStore(timeout: .milliseconds(50))
        store.send(Load(query: "swift"))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.description.contains("1 effect(s) still running at the end of the test")
                && issue.description.contains("an effect started by Load(query: \"swift\") (id \"load\")")
        }
        // What finish reported, it cancelled: nothing is left to skip or to report again.
        #expect(store.store.runningEffectCount == 0)
    }

    @Test(
        "non-exhaustive with shown skips: unasserted changes, skipped actions and running effects are shown, not failed"
    )
    func showSkipped() async {
        let store = tickStore(timeout: .milliseconds(100))
        store.exhaustivity = .off(showSkippedAssertions: true)
        store.send(Annotate()) { $0.note = "noted" }
        #expect(store.shownSkippedAssertions.count == 1)
        #expect(store.shownSkippedAssertions.first?.contains("ticks") == true)
        await store.advance(by: .seconds(1))
        store.send(Load(query: "q"))
        #expect(store.shownSkippedAssertions.count == 2)
        #expect(store.shownSkippedAssertions.last?.contains("Tick(name: \"annotation\")") == true)
        await store.finish()
        #expect(store.shownSkippedAssertions.count == 3)
        #expect(store.shownSkippedAssertions.last?.contains("started by Load(query: \"q\")") == true)
        #expect(store.state.ticks == ["annotated", "annotation"])
        store.exhaustivity = .on
        await store.skipInFlightEffects()
    }

    @Test("non-exhaustive without shown skips shows nothing, and .off is off(showSkippedAssertions: false)")
    func quietOff() async {
        let store = tickStore()
        store.exhaustivity = .off
        #expect(store.exhaustivity == .off(showSkippedAssertions: false))
        store.send(Annotate()) { $0.note = "noted" }
        await store.advance(by: .seconds(1))
        await store.finish()
        #expect(store.shownSkippedAssertions.isEmpty)
        #expect(store.state.ticks == ["annotated", "annotation"])
    }
}
