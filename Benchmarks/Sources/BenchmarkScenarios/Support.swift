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

/// Counts effect runs; a class so that closures share it.
final class Counter: @unchecked Sendable {
    // Benchmarks run on one thread; OpenCombine's sinks run synchronously on it.
    var runs = 0
    var last = 0
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
