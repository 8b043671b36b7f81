import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

// Effect ids are scoped to the feature instance that asks for them (a stack element, a
// presented child, or the store itself), as TCA scopes cancel ids to a navigation id; a
// StoreWideID reaches across instances.

private struct Screens: Equatable {
    var path = StackState<Int>()
}

/// Sent to the element holding `number`.
private struct Start: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private struct Stop: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private struct StopShared: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private struct StartRoot: Action, Equatable {}
private struct StopRoot: Action, Equatable {}

/// The names of the effects whose tasks ended, in order.
private final class Ended: Sendable {
    private let names = LockedState<[String]>([])
    var all: [String] { names.withLock { $0 } }
    func add(_ name: String) { names.withLock { $0.append(name) } }
}

/// An effect that waits until it is cancelled, then notes `name` as ended.
private func waiting(_ name: String, _ ended: Ended, gate: Gate) -> @Sendable (Send<any Action>) async -> Void {
    { _ in
        await gate.wait()
        ended.add(name)
    }
}

private func screensStore(_ ended: Ended, gate: Gate) -> TestStore<Screens, any Action> {
    TestStore(initialState: Screens(path: [1, 2])) { store in
        [
            store.stack(\.path) { _, element in
                guard let number = element.state.value else { return Connection() }
                return Connection(grouping: [
                    element.register(
                        presentOnly: Reducer<Int, Start>(route: number) { _, _ in
                            Effect(.run(id: "timer", operation: waiting("timer \(number)", ended, gate: gate)))
                        }),
                    element.register(
                        presentOnly: Reducer<Int, Stop>(route: number) { _, _ in .cancel(id: "timer") }),
                    element.register(
                        presentOnly: Reducer<Int, StopShared>(route: number) { _, _ in
                            .cancel(id: StoreWideID("shared"))
                        }),
                ])
            },
            store.register(
                Reducer<Screens, StartRoot> { _, _ in
                    .merge(
                        Effect(.run(id: "timer", operation: waiting("root timer", ended, gate: gate))),
                        Effect(.run(id: StoreWideID("shared"), operation: waiting("shared", ended, gate: gate))))
                }),
            store.register(Reducer<Screens, StopRoot> { _, _ in .cancel(id: "timer") }),
        ]
    }
}

@Suite("Resin: effect ids are scoped to the feature instance that asked")
struct EffectScopeTests {
    @Test("an element cancels its own timer, not its sibling's or the store's; the store cancels only its own")
    func scopedCancel() async throws {
        let ended = Ended()
        let gate = Gate()
        let store = screensStore(ended, gate: gate)
        store.send(Start(number: 1))
        store.send(Start(number: 2))
        store.send(StartRoot())
        #expect(store.store.runningEffectCount == 4)

        store.send(Stop(number: 1))
        try #require(store.store.runningEffectCount == 3)
        store.send(StopRoot())
        try #require(store.store.runningEffectCount == 2)
        // The two cancelled tasks end on their own threads.
        #expect(await eventually { Set(ended.all) == ["timer 1", "root timer"] })

        // A store-wide id reaches the store's effect from an element.
        store.send(StopShared(number: 2))
        #expect(store.store.runningEffectCount == 1)
        await store.skipInFlightEffects()
        await store.finish()
        #expect(Set(ended.all) == ["timer 1", "root timer", "shared", "timer 2"])
    }

    @Test("run(id:) replaces what runs under its id in its own instance only")
    func scopedCancelInFlight() async {
        let ended = Ended()
        let gate = Gate()
        let store = screensStore(ended, gate: gate)
        store.send(Start(number: 1))
        store.send(Start(number: 2))
        store.send(StartRoot())
        store.send(Start(number: 2))
        // Element 2's first timer was replaced; element 1's and the store's were not.
        #expect(store.store.runningEffectCount == 4)
        await store.skipInFlightEffects()
        await store.finish()
        #expect(ended.all.filter { $0 == "timer 2" }.count == 2)
        #expect(ended.all.count == 5)
    }

    @Test("an id asked for in an element that is popped and pushed again is a new one")
    func repushedElementIsNewScope() async {
        let ended = Ended()
        let gate = Gate()
        let store = screensStore(ended, gate: gate)
        store.send(Start(number: 1))
        let first = store.state.path.ids[0]
        store.send(StackAction<Int>.popFrom(first)) { $0.path.pop(from: first) }
        store.send(StackAction<Int>.push(1)) { _ = $0.path.append(1) }
        #expect(store.store.runningEffectCount == 0)
        store.send(Start(number: 1))
        store.send(Stop(number: 1))
        #expect(store.store.runningEffectCount == 0)
        await store.finish()
        #expect(ended.all == ["timer 1", "timer 1"])
    }
}
