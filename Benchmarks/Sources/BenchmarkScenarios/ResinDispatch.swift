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

/// How a change of one element scales with the collection: `Store.forEach` over 100 and
/// 100,000 elements, each with its own routed reducer, and a persisted state of 100 and 100,000
/// entries. One iteration: 100 dispatches, each changing one element (a different one each
/// time, spread over the collection). The persisted cases never write during the iterations
/// (a debounce of an hour): they measure what a change costs, not the write.
///
/// Not in ``Catalog/all(collectionSizes:)``: package-benchmark's runner crashed in two of
/// three runs with the 100,000-element cases (its Swift 6.3 runtime-hook crash), so
/// `report --scale-json` times them itself (see `Scale.swift` in the report).
public enum ResinScaleCases {
    /// The collection sizes compared.
    public static let sizes = [100, 100_000]

    /// The cases, at each of ``sizes``.
    public static var all: [BenchmarkCase] {
        sizes.flatMap { size in
            [
                BenchmarkCase(
                    "resin/forEach-\(size)", "Resin", iteration: "100 dispatches, each changing 1 of \(size) elements",
                    events: ResinCases.dispatches
                ) { ResinForEachScale(size) },
                BenchmarkCase(
                    "resin/persisted-\(size)", "Resin",
                    iteration: "100 dispatches, each changing 1 of \(size) persisted entries",
                    events: ResinCases.dispatches
                ) { ResinPersistedScale(size) },
                BenchmarkCase(
                    "resin/forEachSame-\(size)", "Resin",
                    iteration: "100 dispatches, each changing the same 1 of \(size) elements",
                    events: ResinCases.dispatches
                ) { ResinForEachScale(size, spread: false) },
                BenchmarkCase(
                    "resin/plainObjects-\(size)", "Baseline",
                    iteration: "100 changes, each of 1 of \(size) objects found by id in a dictionary",
                    events: ResinCases.dispatches
                ) { PlainObjectsScale(size) },
            ]
        }
    }

    /// The element the `index`th change picks: a stride prime to the size, so the changes
    /// spread over the whole collection.
    static func element(_ index: Int, of size: Int) -> Int { (index &* 7_919) % size }
}

struct ScaleRow: Identifiable, Equatable {
    let id: Int
    var count = 0
}

struct ScaleRows: Equatable {
    var rows: [ScaleRow]
}

struct BumpScaleRow: RoutedAction {
    var id: Int
    var route: Int { id }
}

final class ResinForEachScale: ScenarioRunner {
    let store: Store<ScaleRows>
    let rows: Connection
    /// Whether the changes spread over the collection (else they all change its middle one).
    let spread: Bool
    var changes = 0

    init(_ size: Int, spread: Bool = true) {
        self.spread = spread
        store = Store(initialState: ScaleRows(rows: (0..<size).map { ScaleRow(id: $0) }), scheduler: TestScheduler())
        rows = store.forEach(\.rows) { id, row in
            row.register(Reducer<ScaleRow?, BumpScaleRow>(route: id) { row, _ in row?.count += 1 })
        }
    }

    func iterate() throws {
        let size = store.state.value.rows.count
        for _ in 0..<ResinCases.dispatches {
            store.dispatch(BumpScaleRow(id: spread ? ResinScaleCases.element(changes, of: size) : size / 2))
            changes += 1
        }
    }

    func finish() throws {
        let total = store.state.value.rows.reduce(0) { $0 + $1.count }
        try check(total == changes, "Resin forEach: the rows counted \(total) changes, expected \(changes)")
        rows.disconnect()
    }
}

struct ScaleEntries: Equatable, Codable, Sendable {
    var values: [Int]
}

struct ScaleState: Equatable {
    var entries: ScaleEntries
}

struct BumpEntry: Action {
    var index: Int
}

final class ResinPersistedScale: ScenarioRunner {
    let store: Store<ScaleState>
    let scheduler = TestScheduler()
    let persistence: Persistence<ScaleEntries>
    let registration: Connection
    var changes = 0

    init(_ size: Int) {
        var dependencies = Dependencies()
        dependencies.persistenceStorage = .inMemory()
        store = Store(
            initialState: ScaleState(entries: ScaleEntries(values: Array(repeating: 0, count: size))),
            scheduler: scheduler, dependencies: dependencies)
        registration = store.register(
            Reducer<ScaleState, BumpEntry> { state, bump in state.entries.values[bump.index] += 1 })
        persistence = store.focus(\.entries).persist(
            .inMemory("scale-\(UUID().uuidString)"), debounce: .seconds(3_600), maximumDelay: .seconds(3_600),
            pollInterval: nil)
    }

    func iterate() throws {
        let size = store.state.value.entries.values.count
        for _ in 0..<ResinCases.dispatches {
            store.dispatch(BumpEntry(index: ResinScaleCases.element(changes, of: size)))
            changes += 1
        }
        try check(persistence.hasPendingChanges, "Resin persisted scale: the changes wait to be written")
    }

    func finish() throws {
        let total = store.state.value.entries.values.reduce(0, +)
        try check(total == changes, "Resin persisted scale: the entries sum to \(total), expected \(changes)")
        persistence.disconnect()
        registration.disconnect()
    }
}

/// The memory floor under the spread changes: a plain dictionary of objects, one found by id
/// and changed per event, over the same spread of ids. At 100,000 objects the ones a change
/// touches are seldom in the cache, as `forEach`'s foci are not.
final class PlainObjectsScale: ScenarioRunner {
    final class Row {
        var count = 0
    }

    var rows: [Int: Row]
    let size: Int
    var changes = 0

    init(_ size: Int) {
        self.size = size
        rows = Dictionary(uniqueKeysWithValues: (0..<size).map { ($0, Row()) })
    }

    func iterate() throws {
        for _ in 0..<ResinCases.dispatches {
            rows[ResinScaleCases.element(changes, of: size)]!.count += 1
            changes += 1
        }
    }

    func finish() throws {
        let total = rows.values.reduce(0) { $0 + $1.count }
        try check(total == changes, "plain objects: the rows counted \(total) changes, expected \(changes)")
    }
}
