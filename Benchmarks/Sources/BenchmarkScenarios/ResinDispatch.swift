import Foundation
import ReactiveCore
import Resin

/// A root state of n observed sub-states; an action changes one of them. One iteration: 100
/// dispatches, each checked to have woken exactly one observer.
///
/// As ../shared/BENCHMARKS.md describes it, one sub-state has a reducer for the action. A
/// third variant gives every sub-state its own reducer, registered for its route (the
/// action's key), so the store hands each action to the one reducer it concerns.
enum ResinCases {
    static let dispatches = 100

    static var all: [BenchmarkCase] {
        [10, 1_000].flatMap { parts in
            let text = "100 dispatches, each changing 1 of \(parts) observed sub-states"
            return [
                BenchmarkCase("resin/1-of-\(parts)", "Resin", iteration: text, events: dispatches) {
                    ResinParts(parts, keyed: true, reducerPerPart: false)
                },
                BenchmarkCase("resin/1-of-\(parts)", "ResinKeyPath", iteration: text, events: dispatches) {
                    ResinParts(parts, keyed: false, reducerPerPart: false)
                },
                BenchmarkCase("resin/1-of-\(parts)", "ResinReducerPerPart", iteration: text, events: dispatches) {
                    ResinParts(parts, keyed: true, reducerPerPart: true)
                },
            ]
        }
    }
}

struct PartsState: Equatable {
    var values: [Int: Int]
}

struct BumpPart: RoutedAction {
    var key: Int
    var route: Int { key }
}

/// Sub-states focused with `focus(_:key:)` (`keyed`), which the store knows are disjoint, or
/// through the subscript key path `\.values[key]`, which it cannot see into.
final class ResinParts: ScenarioRunner {
    let store: Store<PartsState>
    let parts: Int
    let wakes = Counter()
    var connections: [Connection] = []
    var round = 0

    let reducerPerPart: Bool

    init(_ parts: Int, keyed: Bool, reducerPerPart: Bool) {
        self.reducerPerPart = reducerPerPart
        self.parts = parts
        store = Store(
            initialState: PartsState(values: Dictionary(uniqueKeysWithValues: (0..<parts).map { ($0, 0) })),
            scheduler: TestScheduler())
        for key in 0..<parts {
            let part = keyed ? store.focus(\.values, key: key) : store.focus(\.values[key])
            if reducerPerPart {
                connections.append(part.register(Reducer<Int?, BumpPart>(route: key) { value, _ in value! += 1 }))
            } else if key == parts / 2 {
                connections.append(
                    part.register(Reducer<Int?, BumpPart> { value, action in if action.key == key { value! += 1 } }))
            }
            let wakes = wakes
            connections.append(part.state.observe { _ in wakes.runs += 1 })
        }
    }

    func iterate() throws {
        wakes.runs = 0
        for _ in 0..<ResinCases.dispatches {
            round += 1
            store.dispatch(BumpPart(key: reducerPerPart ? (round &* 7) % parts : parts / 2))
        }
        try check(
            wakes.runs == ResinCases.dispatches, "Resin: \(wakes.runs) observers woken, expected one per dispatch")
    }

    func finish() throws {
        let total = store.state.value.values.values.reduce(0, +)
        try check(total == round, "Resin: the parts sum to \(total) after \(round) dispatches")
        for connection in connections { connection.disconnect() }
    }
}

/// Resin's typed navigation: a stack of `depth` screens, each followed by `Store.stack` with a
/// routed reducer and an observer; one iteration is 100 dispatches to the top screen, each
/// checked to have woken exactly one observer. Goal: 100 and 1,000 deep cost ≤ 1.5× 1 deep.
enum ResinNavigationCases {
    static var all: [BenchmarkCase] {
        [1, 100, 1_000].map { depth in
            BenchmarkCase(
                "resin/stack-\(depth)", "Resin",
                iteration: "100 dispatches to the top screen of a \(depth)-deep typed stack",
                events: ResinCases.dispatches
            ) { ResinStack(depth: depth) }
        }
    }
}

struct StackScreen: Equatable, Sendable {
    var number: Int
    var taps = 0
}

struct NavigationBenchState: Equatable {
    var path = StackState<StackScreen>()
}

struct TapScreen: RoutedAction {
    var id: StackElementID
    var route: StackElementID { id }
}

final class ResinStack: ScenarioRunner {
    let store: Store<NavigationBenchState>
    let wakes = Counter()
    var connections: [Connection] = []
    let top: StackElementID
    var taps = 0

    init(depth: Int) {
        store = Store(
            initialState: NavigationBenchState(path: StackState((0..<depth).map { StackScreen(number: $0) })),
            scheduler: TestScheduler())
        top = store.state.value.path.ids.last!
        let wakes = wakes
        connections.append(
            store.stack(\.path) { id, screen in
                Connection(grouping: [
                    screen.register(
                        presentOnly: Reducer<StackScreen, TapScreen>(route: id) { screen, _ in screen.taps += 1 }),
                    screen.state.observe { _ in wakes.runs += 1 },
                ])
            })
    }

    func iterate() throws {
        wakes.runs = 0
        for _ in 0..<ResinCases.dispatches {
            taps += 1
            store.dispatch(TapScreen(id: top))
        }
        try check(
            wakes.runs == ResinCases.dispatches, "Resin stack: \(wakes.runs) observers woken, expected one per dispatch"
        )
    }

    func finish() throws {
        let total = store.state.value.path.last?.taps ?? -1
        try check(total == taps, "Resin stack: the top screen counted \(total) taps, expected \(taps)")
        for connection in connections { connection.disconnect() }
    }
}

/// The cost of persistence per change: 100 dispatches that change a persisted state, then the
/// debounce's one write. "Resin" is the same store unpersisted; "ResinPersisted" keeps the
/// state in memory, "ResinPersistedFile" in a JSON file (written atomically).
enum ResinPersistenceCases {
    static var all: [BenchmarkCase] {
        let text = "100 dispatches changing a persisted state of 100 entries, then its debounced write"
        return [
            BenchmarkCase("resin/persist", "Resin", iteration: text, events: ResinCases.dispatches) {
                ResinPersisted(.none)
            },
            BenchmarkCase("resin/persist", "ResinPersisted", iteration: text, events: ResinCases.dispatches) {
                ResinPersisted(.memory)
            },
            BenchmarkCase("resin/persist", "ResinPersistedFile", iteration: text, events: ResinCases.dispatches) {
                ResinPersisted(.file)
            },
        ]
    }
}

struct PersistedSettings: Equatable, Codable, Sendable {
    var values: [String: Int]
}

struct PersistedBenchState: Equatable {
    var settings = PersistedSettings(values: Dictionary(uniqueKeysWithValues: (0..<100).map { ("key \($0)", $0) }))
}

struct ChangeSetting: Action {
    var key: String
}

final class ResinPersisted: ScenarioRunner {
    enum Kind { case none, memory, file }

    let store: Store<PersistedBenchState>
    let scheduler = TestScheduler()
    let persistence: Persistence<PersistedSettings>?
    let registration: Connection
    let file: URL
    var changes = 0

    init(_ kind: Kind) {
        var dependencies = Dependencies()
        dependencies.persistenceStorage = kind == .file ? .live : .inMemory()
        store = Store(initialState: PersistedBenchState(), scheduler: scheduler, dependencies: dependencies)
        registration = store.register(
            Reducer<PersistedBenchState, ChangeSetting> { state, change in
                state.settings.values[change.key, default: 0] += 1
            })
        file = FileManager.default.temporaryDirectory.appendingPathComponent("resin-bench-\(UUID().uuidString).json")
        switch kind {
        case .none: persistence = nil
        case .memory: persistence = store.focus(\.settings).persist(.inMemory("bench-\(UUID().uuidString)"))
        case .file: persistence = store.focus(\.settings).persist(.jsonFile(file))
        }
    }

    func iterate() throws {
        let writes = persistence?.writeCount ?? 0
        for _ in 0..<ResinCases.dispatches {
            changes += 1
            store.dispatch(ChangeSetting(key: "key \(changes % 100)"))
        }
        scheduler.advance(by: .seconds(1))
        if let persistence {
            try check(
                persistence.writeCount == writes + 1,
                "Resin persistence: \(persistence.writeCount - writes) writes, expected 1")
        }
    }

    func finish() throws {
        let total = store.state.value.settings.values.values.reduce(0, +)
        try check(total == 4_950 + changes, "Resin persistence: the values sum to \(total)")
        persistence?.disconnect()
        registration.disconnect()
        try? FileManager.default.removeItem(at: file)
    }
}
