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
