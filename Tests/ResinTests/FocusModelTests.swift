import Foundation
import Resin
import TestSupport
import Testing

/// Operations per model-based run; RESIN_MODEL_OPERATIONS raises it.
private let modelOperations = Int(ProcessInfo.processInfo.environment["RESIN_MODEL_OPERATIONS"] ?? "") ?? 3_000

private struct Item: Identifiable, Hashable {
    let id: Int
    var value: Int
}

private struct Settings: Hashable {
    var flag = false
    var count = 0
    var name = ""
}

private struct ModelState: Hashable {
    var settings = Settings()
    var items: [Item] = []
    var byKey: [Int: Int] = [:]
    var selection: Int?
}

// Every action is handled by a reducer registered on a different kind of focus: the root, a
// stored property, a nested stored property, an element by key path and by the element API, a
// dictionary value by key path and by the dictionary API.
private struct SetItem: Action { var id: Int, value: Int }
private struct RemoveItem: Action { var id: Int }
private struct BumpItem: Action { var id: Int }
private struct SetKey: Action { var key: Int, value: Int? }
private struct BumpKey: Action { var key: Int }
private struct Bump: Action { var by: Int }
private struct Toggle: Action {}
private struct Rename: Action { var name: String }
private struct Select: Action { var id: Int? }

/// What the same actions do to a plain value: the reference the store is checked against.
private func reduce(_ state: inout ModelState, _ action: any Action) {
    switch action {
    case let action as SetItem: state.items[id: action.id] = Item(id: action.id, value: action.value)
    case let action as RemoveItem: state.items[id: action.id] = nil
    case let action as BumpItem: state.items[id: action.id]?.value += 1
    case let action as SetKey: state.byKey[action.key] = action.value
    case let action as BumpKey: state.byKey[action.key] = (state.byKey[action.key] ?? 0) + 1
    case let action as Bump: state.settings.count += action.by
    case is Toggle: state.settings.flag.toggle()
    case let action as Rename: state.settings.name = action.name
    case let action as Select: state.selection = action.id
    default: Issue.record("unexpected action \(action)")
    }
}

private let itemIDs = 0..<6
private let keys = 0..<6

/// Registers the model's reducers; they stay registered while the returned connector lives.
private func registerReducers(on store: Store<ModelState>) -> Connector {
    let registrations = Connector()
    registrations += store.register(
        Reducer<ModelState, SetItem> { $0.items[id: $1.id] = Item(id: $1.id, value: $1.value) })
    registrations += store.focus(\.items).register(Reducer<[Item], RemoveItem> { $0[id: $1.id] = nil })
    for id in itemIDs {
        // Half through a subscript key path (opaque to the store), half through the element API.
        let element = id.isMultiple(of: 2) ? store.focus(\.items[id: id]) : store.focus(\.items, id: id)
        registrations += element.register(
            presentOnly: Reducer<Item, BumpItem> { item, action in if action.id == id { item.value += 1 } })
    }
    registrations += store.focus(\.byKey).register(Reducer<[Int: Int], SetKey> { $0[$1.key] = $1.value })
    for key in keys {
        let value = key.isMultiple(of: 2) ? store.focus(\.byKey[key]) : store.focus(\.byKey, key: key)
        registrations += value.register(
            Reducer<Int?, BumpKey> { value, action in if action.key == key { value = (value ?? 0) + 1 } })
    }
    registrations += store.focus(\.settings).register(Reducer<Settings, Bump> { $0.count += $1.by })
    registrations += store.focus(\.settings.flag).register(Reducer<Bool, Toggle> { flag, _ in flag.toggle() })
    registrations += store.focus(\.settings).focus(\.name).register(Reducer<String, Rename> { $0 = $1.name })
    registrations += store.register(Reducer<ModelState, Select> { $0.selection = $1.id })
    return registrations
}

/// A way to look at part of the state: through a focused store, and on the reference.
private struct Probe {
    var name: String
    var observe: (Store<ModelState>, @escaping (AnyHashable) -> Void) -> Connection
    var expected: (ModelState) -> AnyHashable
    /// The root state is not compared (that would cost as much as the state is big): its
    /// observers are woken by every action a reducer on the root handles, and by every
    /// action that changes a focused part.
    var wakesOnRootReducers = false

    init<Part: Hashable>(
        _ name: String, _ focus: @escaping (Store<ModelState>) -> Store<Part>,
        _ read: @escaping (ModelState) -> Part, wakesOnRootReducers: Bool = false
    ) {
        self.name = name
        self.wakesOnRootReducers = wakesOnRootReducers
        observe = { store, sink in focus(store).state.observe { sink(AnyHashable($0)) } }
        expected = { AnyHashable(read($0)) }
    }
}

private func makeProbes() -> [Probe] {
    var probes: [Probe] = [
        Probe("root", { $0 }, { $0 }, wakesOnRootReducers: true),
        Probe("settings", { $0.focus(\.settings) }, { $0.settings }),
        Probe("settings.count", { $0.focus(\.settings.count) }, { $0.settings.count }),
        Probe("settings → count", { $0.focus(\.settings).focus(\.count) }, { $0.settings.count }),
        Probe("settings.flag", { $0.focus(\.settings.flag) }, { $0.settings.flag }),
        Probe("settings.name", { $0.focus(\.settings.name) }, { $0.settings.name }),
        Probe("items", { $0.focus(\.items) }, { $0.items }),
        Probe("byKey", { $0.focus(\.byKey) }, { $0.byKey }),
        Probe("selection", { $0.focus(\.selection) }, { $0.selection }),
    ]
    for id in itemIDs {
        probes.append(Probe("items[id: \(id)]", { $0.focus(\.items[id: id]) }, { $0.items[id: id] }))
        probes.append(Probe("items, id: \(id)", { $0.focus(\.items, id: id) }, { $0.items[id: id] }))
        probes.append(Probe("items → id: \(id)", { $0.focus(\.items).focus(\.[id: id]) }, { $0.items[id: id] }))
    }
    for key in keys {
        probes.append(Probe("byKey[\(key)]", { $0.focus(\.byKey[key]) }, { $0.byKey[key] }))
        probes.append(Probe("byKey, key: \(key)", { $0.focus(\.byKey, key: key) }, { $0.byKey[key] }))
    }
    return probes
}

/// One observer: what it saw, and what it should have seen.
private final class Watch {
    let probe: Probe
    var seen: [AnyHashable] = []
    var expected: [AnyHashable]
    var connection: Connection?

    init(probe: Probe, store: Store<ModelState>, reference: ModelState) {
        self.probe = probe
        expected = [probe.expected(reference)]
        connection = probe.observe(store) { [unowned self] in seen.append($0) }
    }

    /// After an action: a part that changed is reported once; one that did not, never
    /// (the root also when a reducer registered on the root ran).
    func expect(_ reference: ModelState, rootReducerRan: Bool) {
        let value = probe.expected(reference)
        if value != expected.last || (probe.wakesOnRootReducers && rootReducerRan) { expected.append(value) }
    }
}

@Suite("Focused stores, model-based")
struct FocusModelTests {
    @Test(
        "focused stores of every kind match a plain reference and wake only when their part changes",
        arguments: [1, 2, 3, 0xF0C5] as [UInt64])
    func matchesReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let store = Store(initialState: ModelState(), scheduler: TestScheduler())
        let registrations = registerReducers(on: store)
        var reference = ModelState()
        var watches: [Watch] = []
        let probes = makeProbes()
        func randomAction() -> any Action {
            switch Int.random(in: 0..<9, using: &random) {
            case 0: SetItem(id: .random(in: itemIDs, using: &random), value: .random(in: 0..<5, using: &random))
            case 1: RemoveItem(id: .random(in: itemIDs, using: &random))
            case 2: BumpItem(id: .random(in: itemIDs, using: &random))
            case 3: SetKey(key: .random(in: keys, using: &random), value: Bool.random(using: &random) ? 1 : nil)
            case 4: BumpKey(key: .random(in: keys, using: &random))
            case 5: Bump(by: .random(in: 0..<3, using: &random))
            case 6: Toggle()
            case 7: Rename(name: ["", "a", "b"].randomElement(using: &random)!)
            default: Select(id: Bool.random(using: &random) ? .random(in: itemIDs, using: &random) : nil)
            }
        }
        for step in 0..<modelOperations {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let action = randomAction()
                store.dispatch(action)
                reduce(&reference, action)
                // `SetItem` and `Select` have reducers on the root store.
                let rootReducerRan = action is SetItem || action is Select
                for watch in watches { watch.expect(reference, rootReducerRan: rootReducerRan) }
            case 6..<9 where watches.count < 16:
                watches.append(Watch(probe: probes.randomElement(using: &random)!, store: store, reference: reference))
            default:
                if !watches.isEmpty {
                    let watch = watches.remove(at: .random(in: watches.indices, using: &random))
                    watch.connection?.disconnect()
                }
            }
            #expect(store.state.value == reference, "seed \(seed), step \(step)")
            for watch in watches where watch.seen != watch.expected {
                Issue.record(
                    "seed \(seed), step \(step): \(watch.probe.name) saw \(watch.seen.count) values, ending \(watch.seen.suffix(3)), expected \(watch.expected.count), ending \(watch.expected.suffix(3))"
                )
                return
            }
        }
        #expect(registrations.count > 0)
    }
}
