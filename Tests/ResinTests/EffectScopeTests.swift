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

/// A stack of screens 1 and 2, with what notes the ends of its effects (which wait at a gate
/// no one opens, until they are cancelled).
private func screensFixture() -> (Ended, TestStore<Screens, any Action>) {
    let ended = Ended()
    return (ended, screensStore(ended, gate: Gate()))
}

@Suite("Resin: effect ids are scoped to the feature instance that asked")
struct EffectScopeTests {
    @Test("an element cancels its own timer, not its sibling's or the store's; the store cancels only its own")
    func scopedCancel() async throws {
        let (ended, store) = screensFixture()
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
        let (ended, store) = screensFixture()
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
        let (ended, store) = screensFixture()
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

// MARK: Presented children's identity

private struct Card: Identifiable, Equatable, Sendable {
    var id: Int
    var text = ""
}

private enum Destination: Equatable, Sendable {
    case card(Card)
    case alert(String)
}

private struct Host: Equatable {
    var card: Card?
    var destination: Destination?
}

private struct Work: Action, Equatable {}
private struct Retitle: Action, Equatable { var text: String }
private struct Renumber: Action, Equatable { var id: Int }

/// How many times a presentation's body ran.
private final class Presentations: Sendable {
    private let count = LockedState(0)
    var made: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

private func hostStore(_ ended: Ended, _ made: Presentations, gate: Gate) -> TestStore<Host, any Action> {
    TestStore(initialState: Host()) { store in
        [
            store.presentation(\.card) { card in
                made.add()
                return Connection(grouping: [
                    card.register(
                        presentOnly: Reducer<Card, Work> { card, _ in
                            Effect(.run(operation: waiting("card \(card.id)", ended, gate: gate)))
                        }),
                    card.register(presentOnly: Reducer<Card, Retitle> { card, retitle in card.text = retitle.text }),
                    card.register(presentOnly: Reducer<Card, Renumber> { card, renumber in card.id = renumber.id }),
                ])
            },
            store.presentation(\.destination) { destination in
                made.add()
                return destination.register(
                    presentOnly: Reducer<Destination, Work> { _, _ in
                        Effect(.run(operation: waiting("destination", ended, gate: gate)))
                    })
            },
        ]
    }
}

/// A host of a card and a destination, with what notes the ends of their effects and how
/// many times a presentation's body ran.
private func hostFixture() -> (Ended, Presentations, TestStore<Host, any Action>) {
    let ended = Ended()
    let made = Presentations()
    return (ended, made, hostStore(ended, made, gate: Gate()))
}

@Suite("Resin: a presented child is the same child while its identity is")
struct PresentationIdentityTests {
    @Test("presenting a child of another id over one ends the old one's effects and presents the new one afresh")
    func newIdentityEndsOld() async {
        let (ended, made, store) = hostFixture()
        store.send(PresentationAction<Card>.present(Card(id: 1))) { $0.card = Card(id: 1) }
        store.send(Work())
        #expect(store.store.runningEffectCount == 1)
        store.send(PresentationAction<Card>.present(Card(id: 2))) { $0.card = Card(id: 2) }
        #expect(store.store.runningEffectCount == 0)
        #expect(made.made == 2)
        await store.finish()
        #expect(ended.all == ["card 1"])
    }

    @Test("presenting the same id, or changing the child's state, keeps its registrations and effects")
    func sameIdentityKeeps() async {
        let (ended, made, store) = hostFixture()
        store.send(PresentationAction<Card>.present(Card(id: 1))) { $0.card = Card(id: 1) }
        store.send(Work())
        store.send(PresentationAction<Card>.present(Card(id: 1, text: "again"))) { $0.card?.text = "again" }
        store.send(Retitle(text: "new")) { $0.card?.text = "new" }
        #expect(store.store.runningEffectCount == 1)
        #expect(made.made == 1)
        store.send(PresentationAction<Card>.dismiss()) { $0.card = nil }
        await store.finish()
        #expect(ended.all == ["card 1"])
    }

    @Test("a child that changes its own id ends its effects, and is presented again as a new child")
    func childChangesItsID() async {
        let (ended, made, store) = hostFixture()
        store.send(PresentationAction<Card>.present(Card(id: 1))) { $0.card = Card(id: 1) }
        store.send(Work())
        store.send(Renumber(id: 7)) { $0.card?.id = 7 }
        #expect(store.store.runningEffectCount == 0)
        #expect(made.made == 2)
        // The new child's registrations take actions.
        store.send(Work())
        #expect(store.store.runningEffectCount == 1)
        store.send(PresentationAction<Card>.dismiss()) { $0.card = nil }
        await store.finish()
        #expect(Set(ended.all) == ["card 1", "card 7"])
    }

    @Test("an enum child is another child in another case, the same in the same case")
    func enumCases() async {
        let (ended, made, store) = hostFixture()
        let present = PresentationAction<Destination>.present
        store.send(present(.card(Card(id: 1)), nil)) { $0.destination = .card(Card(id: 1)) }
        store.send(Work())
        store.send(present(.card(Card(id: 1, text: "x")), nil)) { $0.destination = .card(Card(id: 1, text: "x")) }
        #expect(store.store.runningEffectCount == 1)
        store.send(present(.alert("Sure?"), nil)) { $0.destination = .alert("Sure?") }
        #expect(store.store.runningEffectCount == 0)
        #expect(made.made == 2)
        store.send(Work())
        store.send(present(.alert("Really?"), nil)) { $0.destination = .alert("Really?") }
        #expect(store.store.runningEffectCount == 1)
        #expect(made.made == 2)
        store.send(PresentationAction<Destination>.dismiss()) { $0.destination = nil }
        await store.finish()
        #expect(ended.all == ["destination", "destination"])
    }
}
