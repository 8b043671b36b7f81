import Observation
import Synchronization

/// A runner made of closures, holding whatever must live as long as the scenario.
final class ClosureRunner: ScenarioRunner {
    private let body: () throws -> Void
    private let teardown: () throws -> Void
    private var kept: [Any]

    init(
        keep kept: [Any] = [], finish teardown: @escaping () throws -> Void = {},
        iterate body: @escaping () throws -> Void
    ) {
        self.kept = kept
        self.body = body
        self.teardown = teardown
    }

    func iterate() throws { try body() }

    func finish() throws {
        try teardown()
        kept.removeAll()
    }
}

/// The values of one iteration's writes: 1...count, then -1...-count on the next iteration,
/// and so on, so that every write changes the source, the first of an iteration included.
final class AlternatingWrites {
    private let count: Int
    private var sign = 1

    init(_ count: Int) { self.count = count }

    func next() -> [Int] {
        defer { sign = -sign }
        return (1...count).map { $0 * sign }
    }
}

/// A kairo iteration: each of `values()` is written, then checked; at the end the effect
/// count is checked. The effect counter is reset at the start of every iteration.
final class KairoRunner: ScenarioRunner {
    private let name: String
    private let kept: [Any]
    private let values: () -> [Int]
    private let effect: Counter
    private let write: (Int) -> Void
    private let check: (String, Int) throws -> Void
    private let finishIteration: (String) throws -> Void

    /// `check(name, value)` after each write of `value`; `finish(name)` after the last.
    init(
        _ name: String, keep kept: [Any], values: @escaping () -> [Int], effect: Counter,
        check: @escaping (String, Int) throws -> Void, finish finishIteration: @escaping (String) throws -> Void,
        write: @escaping (Int) -> Void
    ) {
        self.name = name
        self.kept = kept
        self.values = values
        self.effect = effect
        self.write = write
        self.check = check
        self.finishIteration = finishIteration
    }

    func iterate() throws {
        effect.runs = 0
        for value in values() {
            write(value)
            try check(name, value)
        }
        try finishIteration(name)
    }
}

/// Counts effect runs; a class so that closures share it.
final class Counter: @unchecked Sendable {
    // Benchmarks run on one thread; OpenCombine's sinks run synchronously on it.
    var runs = 0
    var last = 0

    /// Counts a run that saw `value`.
    func record(_ value: Int) {
        runs += 1
        last = value
    }
}

// MARK: Observation

/// A source for the Observation peer: one observable stored property.
@Observable
final class ObservedCell {
    var value: Int
    init(_ value: Int) { self.value = value }
}

/// A derived value as an Observation user memoizes it: an `@Observable` cache, recomputed
/// under `withObservationTracking` when something it read changes, and written only when
/// the result differs, so that readers downstream hear of real changes only.
@Observable
final class ObservedDerived<Value: Equatable> {
    var value: Value
    /// The last value computed, read without being tracked (comparing through `value` would
    /// make the cache depend on itself).
    @ObservationIgnored var last: Value

    init(_ value: Value) {
        self.value = value
        self.last = value
    }
}

/// Derived values and effects for the Observation peer. `withObservationTracking` calls its
/// `onChange` once, before the change is made; so, as an app would, a change only marks what
/// read it, and the marked derived values and effects run again (and track again) after the
/// write or batch, in `batch`: derived values first, in the order marked, until they settle,
/// then the effects, each once.
final class ObservationEffects {
    /// What a change marked, in order; `onChange` is `@Sendable`, so behind a mutex.
    private final class Marks: Sendable {
        let ids = Mutex<[Int]>([])
    }

    private let marks = Marks()
    private var bodies: [() -> Void] = []
    private var isEffect: [Bool] = []

    /// Runs `body` now and again after every write or batch that changes what it read.
    func effect(_ body: @escaping () -> Void) {
        register(body, isEffect: true)
    }

    /// A memoized value of `compute`, recomputed when what it read changes.
    func derived<Value: Equatable>(_ compute: @escaping () -> Value) -> ObservedDerived<Value> {
        let cell = ObservedDerived(compute())
        register(
            {
                let new = compute()
                if new != cell.last {
                    cell.last = new
                    cell.value = new
                }
            }, isEffect: false)
        return cell
    }

    private func register(_ body: @escaping () -> Void, isEffect: Bool) {
        bodies.append(body)
        self.isEffect.append(isEffect)
        run(bodies.count - 1)
    }

    private func run(_ id: Int) {
        let marks = marks
        withObservationTracking {
            bodies[id]()
        } onChange: {
            marks.ids.withLock { $0.append(id) }
        }
    }

    private func takeMarks() -> [Int] {
        marks.ids.withLock { ids in
            defer { ids.removeAll(keepingCapacity: true) }
            return ids
        }
    }

    /// Writes, then runs what the writes marked: derived values until none is marked, then
    /// the effects.
    func batch(_ writes: () -> Void) {
        writes()
        var effects: [Int] = []
        while true {
            let ids = takeMarks()
            if ids.isEmpty {
                if effects.isEmpty { return }
                for id in effects { run(id) }
                effects.removeAll(keepingCapacity: true)
                continue
            }
            for id in ids {
                if isEffect[id] { effects.append(id) } else { run(id) }
            }
        }
    }
}
