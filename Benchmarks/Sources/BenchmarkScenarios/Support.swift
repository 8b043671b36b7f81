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

/// Effects for the Observation peer. `withObservationTracking` calls its `onChange` once,
/// before the change is made; so, as an app would, the change only marks the effect, and the
/// effects marked run again (and track again) after the write or batch, in `flush()`.
final class ObservationEffects {
    /// The effects marked by a change, in order; `onChange` is `@Sendable`, so behind a mutex.
    private final class Marks: Sendable {
        let ids = Mutex<[Int]>([])
    }

    private let marks = Marks()
    private var effects: [() -> Void] = []

    /// Runs `body` now and again after every flush that follows a change of what it read.
    func effect(_ body: @escaping () -> Void) {
        effects.append(body)
        run(effects.count - 1)
    }

    private func run(_ id: Int) {
        let marks = marks
        withObservationTracking {
            effects[id]()
        } onChange: {
            marks.ids.withLock { $0.append(id) }
        }
    }

    /// Writes, then runs the effects the writes marked.
    func batch(_ writes: () -> Void) {
        writes()
        while true {
            let ids = marks.ids.withLock { ids in
                defer { ids.removeAll(keepingCapacity: true) }
                return ids
            }
            if ids.isEmpty { return }
            for id in ids { run(id) }
        }
    }
}
