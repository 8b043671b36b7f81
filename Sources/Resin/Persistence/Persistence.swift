import Foundation
import ReactiveCore

/// How a persisted state is kept: as JSON, in a file, in the user defaults, or in the
/// process's memory.
public struct PersistenceStrategy: Hashable, Sendable {
    /// Where the JSON is kept.
    public var location: PersistenceLocation

    /// Keeps the state at `location`.
    public init(location: PersistenceLocation) {
        self.location = location
    }

    /// A JSON file at `url`, written atomically.
    public static func jsonFile(_ url: URL) -> PersistenceStrategy {
        PersistenceStrategy(location: .file(url))
    }

    /// JSON data under `key` in the user defaults of `suite` (the standard ones for `nil`).
    public static func userDefaults(key: String, suite: String? = nil) -> PersistenceStrategy {
        PersistenceStrategy(location: .userDefaults(key: key, suite: suite))
    }

    /// JSON data under `key` in the process's memory: it outlives a store, not the process.
    public static func inMemory(_ key: String) -> PersistenceStrategy {
        PersistenceStrategy(location: .memory(key))
    }
}

/// A persisted state could not be loaded or saved.
public struct PersistenceError: Error, CustomStringConvertible {
    /// What failed.
    public enum Operation: Sendable {
        /// Reading or decoding the stored state when persistence started.
        case load
        /// Encoding or writing the state after a change.
        case save
    }

    /// What failed.
    public var operation: Operation
    /// Where.
    public var location: PersistenceLocation
    /// Why: the storage's or the coder's error.
    public var underlying: any Error

    /// What failed, where, why, and what the store does about it.
    public var description: String {
        switch operation {
        case .load:
            "Resin: the persisted state at \(location) could not be loaded (\(underlying)); the store starts from its own value and leaves what is stored untouched until that value changes"
        case .save:
            "Resin: the state could not be saved at \(location) (\(underlying)); it is tried again at the next change or flush"
        }
    }
}

/// The action that puts a loaded persisted state into the store: ``Store/persist(_:debounce:maximumDelay:)``
/// dispatches it when it starts and finds a stored state.
///
/// It is an action like any other, so middleware, a test store and a history see it, and
/// replaying a recorded log loads the same state.
public struct PersistedStateLoaded<Value: Sendable>: RoutedAction {
    /// The state that was stored.
    public var value: Value
    /// Where it was stored.
    public var location: PersistenceLocation

    /// `value`, loaded from `location`.
    public init(_ value: Value, from location: PersistenceLocation) {
        self.value = value
        self.location = location
    }

    /// The persistence it is for.
    public var route: PersistenceLocation { location }
}

extension PersistedStateLoaded: Equatable where Value: Equatable {}
extension PersistedStateLoaded: Codable where Value: Codable {}

/// Keeps one store's state saved: returned by ``Store/persist(_:debounce:maximumDelay:)``.
///
/// It saves while it lives: ``disconnect()`` (or releasing it) saves what is pending and
/// stops. It lives in the store's isolation domain, like the store.
public final class Persistence<Value: Codable & Equatable & Sendable> {
    /// Where the state is kept.
    public let location: PersistenceLocation
    private let storage: PersistenceStorage
    private weak var engine: Engine?
    private let scheduler: any Scheduler
    private let pause: Duration
    private let maximumDelay: Duration
    /// What is stored (`nil` when nothing is; when what is stored could not be loaded, the
    /// value the store started from): a value equal to it is not written.
    private var stored: Value?
    /// The newest value not written yet.
    private var pending: Value?
    /// When the oldest unwritten change was made: no write waits longer than `maximumDelay`
    /// after it.
    private var pendingSince: SchedulerInstant?
    private var timer: Connection?
    private var observer: Connection?
    private var reducer: Connection?

    /// How many writes succeeded.
    public private(set) var writeCount = 0

    init(
        store: Store<Value>, location: PersistenceLocation, pause: Duration, maximumDelay: Duration
    ) {
        self.location = location
        storage = store.dependencies.persistenceStorage
        engine = store.engine
        scheduler = store.engine.scheduler
        self.pause = pause
        self.maximumDelay = maximumDelay
        reducer = store.register(
            Reducer<Value, PersistedStateLoaded<Value>>(route: location) { state, loaded in state = loaded.value })
        do {
            if let data = try storage.data(at: location) {
                let value = try JSONDecoder().decode(Value.self, from: data)
                stored = value
                store.dispatch(PersistedStateLoaded(value, from: location))
            }
        } catch {
            // Never overwrite what could not be read with the value the store started from.
            stored = store.currentState
            report(PersistenceError(operation: .load, location: location, underlying: error))
        }
        observer = store.state.observe { [unowned self] value in changed(to: value) }
    }

    deinit {
        timer?.disconnect()
        if pending != nil { save() }
        observer?.disconnect()
        reducer?.disconnect()
    }

    /// Whether a change waits to be written.
    public var hasPendingChanges: Bool { pending != nil }

    /// Writes the newest change now, if one waits; a failed write is reported and tried again
    /// at the next change or flush.
    public func flush() {
        timer?.disconnect()
        timer = nil
        save()
    }

    /// Writes what waits, then stops saving and loading (the store keeps its state).
    public func disconnect() {
        flush()
        observer?.disconnect()
        observer = nil
        reducer?.disconnect()
        reducer = nil
    }

    private func changed(to value: Value) {
        guard value != stored else {
            // Back to what is stored (a change undone): nothing to write.
            pending = nil
            pendingSince = nil
            timer?.disconnect()
            timer = nil
            return
        }
        pending = value
        let now = scheduler.now
        let since = pendingSince ?? now
        pendingSince = since
        let deadline = min(now + pause, since + maximumDelay)
        timer?.disconnect()
        timer = scheduler.schedule(at: deadline, isolated: { [weak self] in self?.flush() })
    }

    private func save() {
        guard let value = pending else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try storage.store(try encoder.encode(value), at: location)
            stored = value
            pending = nil
            pendingSince = nil
            writeCount += 1
        } catch {
            report(PersistenceError(operation: .save, location: location, underlying: error))
        }
    }

    private func report(_ error: PersistenceError) {
        engine?.report(error)
    }
}

extension Store where State: Codable & Equatable & Sendable {
    /// Keeps this store's state saved with `strategy`: loads what is stored now, then writes
    /// the state after it changes, `debounce` after the last change (on the store's
    /// scheduler) and never more than `maximumDelay` after the first one not written.
    ///
    /// ```swift
    /// let settings = store.focus(\.settings).persist(.jsonFile(settingsURL))
    /// ```
    ///
    /// A stored state is loaded with a ``PersistedStateLoaded`` action, dispatched now (or
    /// after the action under way); when nothing is stored, the state is written as it is. What cannot be read or decoded is reported through
    /// ``unhandledErrorHandler`` as a ``PersistenceError``; the store keeps its own value, and
    /// what is stored is left untouched until that value changes: it is never overwritten
    /// with the value the store started from. A failed write is reported too, and tried
    /// again at the next change or ``Persistence/flush()``; the store goes on either way.
    ///
    /// A change back to the stored value writes nothing, and a write is skipped when the
    /// state equals what is stored. Reading and writing go through the store's
    /// ``Dependencies/persistenceStorage``: a test store's keeps them in memory. Keep the
    /// returned ``Persistence``: it saves while it lives, and saves what is pending when it
    /// disconnects or is released.
    ///
    /// - Precondition: `debounce` and `maximumDelay` are not negative.
    public func persist(
        _ strategy: PersistenceStrategy, debounce: Duration = .seconds(1), maximumDelay: Duration = .seconds(5)
    ) -> Persistence<State> {
        precondition(
            debounce >= .zero && maximumDelay >= .zero,
            "Resin: persistence needs a debounce and a maximum delay of zero or more")
        return Persistence(store: self, location: strategy.location, pause: debounce, maximumDelay: maximumDelay)
    }
}

extension Engine {
    /// Reports an error that is not an effect's: a test store records it as a failure, a
    /// store passes it to its unhandled-error handler.
    func report(_ error: any Error) {
        if takesEffectActionsManually {
            unhandledErrors.append(error)
        } else {
            unhandledErrorHandler(error)
        }
    }
}
