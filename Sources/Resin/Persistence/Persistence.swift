import Foundation
import ReactiveCore

/// How a persisted state is kept: as JSON, in a file, in the user defaults, or in the
/// process's memory.
public struct PersistenceStrategy: Hashable, Sendable {
    /// Where the JSON is kept.
    public var location: PersistenceLocation

    /// Keeps the state at `location` (``PersistenceLocation/normalized``).
    public init(location: PersistenceLocation) {
        self.location = location.normalized
    }

    /// A file at `url`, written atomically; JSON unless the key says otherwise.
    public static func file(_ url: URL) -> PersistenceStrategy {
        PersistenceStrategy(location: .file(url))
    }

    /// A JSON file at `url`, written atomically: ``file(_:)``, named for the coder it is
    /// used with when no ``PersistenceKey`` gives another.
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
public struct PersistenceError: Error, CustomStringConvertible, Equatable {
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

    /// Whether two errors are of the same operation at the same location, for the same
    /// reason (compared by its description: errors in general are not equatable).
    public static func == (lhs: PersistenceError, rhs: PersistenceError) -> Bool {
        lhs.operation == rhs.operation && lhs.location == rhs.location
            && String(describing: lhs.underlying) == String(describing: rhs.underlying)
    }

    /// What failed, where, why, and what the store does about it.
    public var description: String {
        switch operation {
        case .load:
            "Resin: the persisted state at \(location) could not be loaded (\(underlying)); the store keeps its own value and leaves what is stored untouched until that value changes"
        case .save:
            "Resin: the state could not be saved at \(location) (\(underlying)); it is tried again at the next change or flush"
        }
    }
}

/// The action that puts a loaded persisted state into the store: ``Store/persist(_:debounce:maximumDelay:pollInterval:)-(PersistenceKey<State>,_,_,_)``
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

/// The action that puts a persisted state's default into the store when nothing is stored
/// at its location: when persistence starts with a key's default and finds nothing, or when
/// what was stored is removed (or moved away) while it runs.
///
/// Like ``PersistedStateLoaded``, it is an action like any other.
public struct PersistedStateReset<Value: Sendable>: RoutedAction {
    /// The state when nothing is stored: the key's default, or the store's state when
    /// persistence started.
    public var value: Value
    /// Where nothing is stored.
    public var location: PersistenceLocation

    /// `value`, because nothing is stored at `location`.
    public init(_ value: Value, at location: PersistenceLocation) {
        self.value = value
        self.location = location
    }

    /// The persistence it is for.
    public var route: PersistenceLocation { location }
}

extension PersistedStateReset: Equatable where Value: Equatable {}
extension PersistedStateReset: Codable where Value: Codable {}

/// Where a persistence stands: whether it is loading, and the last load or save that failed.
///
/// ``Persistence/status`` is an Incremental value of it: observe it, or derive from it, as a
/// store's state (a view that shows a warning while ``saveError`` is set).
public struct PersistenceStatus: Equatable, Sendable {
    /// Whether a load is under way. Loads run in the store's isolation, so this is `true`
    /// only from when a load starts to when its state is in the store: an observer of
    /// ``Persistence/status`` is told of both.
    public var isLoading = false
    /// Why the last load failed, until a load succeeds or nothing is stored any more.
    public var loadError: PersistenceError?
    /// Why the last save failed, until a save succeeds.
    public var saveError: PersistenceError?

    /// A status: not loading, no error.
    public init(isLoading: Bool = false, loadError: PersistenceError? = nil, saveError: PersistenceError? = nil) {
        self.isLoading = isLoading
        self.loadError = loadError
        self.saveError = saveError
    }
}

/// Keeps one store's state saved, and follows what is stored: returned by
/// ``Store/persist(_:debounce:maximumDelay:pollInterval:)-(PersistenceKey<State>,_,_,_)``.
///
/// It saves while it lives: ``disconnect()`` (or releasing it) saves what is pending and
/// stops. It lives in the store's isolation domain, like the store.
///
/// ## Following the stored state
///
/// What is stored can change under a running program: another program writes the file,
/// replaces it (a rename over it, as editors and `DurableFile` do), removes it or moves it
/// away; another persistence of the same location, in this process or another, saves. A
/// persistence looks at its location when the storage tells it something changed (the
/// live storage watches files with inotify on Linux; an in-memory storage tells of its own
/// writes) and, besides, every `pollInterval` on the store's scheduler, so that a change no
/// watcher reported (user defaults, a network file system, a platform without a watcher, a
/// test on virtual time) is seen too. Then:
///
/// - **New data** is decoded and put in the store with a ``PersistedStateLoaded`` action. It
///   is newer than a change of the store's not yet written: that change is dropped. Data
///   that does not decode sets ``PersistenceStatus/loadError`` and is reported; the store
///   keeps its state.
/// - **Nothing stored any more** (removed, moved away) drops a pending write, and puts the
///   default in the store with a ``PersistedStateReset`` action; nothing is written until
///   the state changes again.
/// - **The same data** (its own write, an equal value written again) does nothing.
///
/// Two persistences of one location thus stay in sync without writing each other's state
/// back: each takes the other's save as a load.
public final class Persistence<Value: Equatable & Sendable> {
    /// Where the state is kept (``PersistenceLocation/normalized``).
    public let location: PersistenceLocation
    private let storage: PersistenceStorage
    private let coder: PersistenceCoder<Value>
    /// Reads and writes the persisted part. The persistence holds the focus, not its store
    /// object: a store object holds the focus's state input, whose value would share the
    /// part's storage, so that every change of the part copied it (see ``FocusAccess``).
    private let access: FocusAccess<Value>
    /// The store's engine, kept while the persistence lives, as its store object kept it.
    private let engine: Engine
    private let scheduler: any Scheduler
    private let pause: Duration
    private let maximumDelay: Duration
    private let pollInterval: Duration?
    /// The state when nothing is stored: the key's default, or the store's state at start.
    private let resetValue: Value
    /// A state equal to it is not written: what is stored, the state the store kept when what
    /// is stored could not be loaded, or the reset value after a removal. `nil` when nothing
    /// is stored and the store has not been reset (a first launch: its state is written).
    private var baseline: Value?
    /// The bytes last read from or written to the location (`nil`: none are there).
    private var seen: Data?
    /// The location's stamp when `seen` was taken, or `nil` when it must be read to know.
    private var seenStamp: StorageStamp?
    /// Whether a change may wait to be written. The state is read, and compared with
    /// `baseline`, only when it is written, so a change costs the same whatever the
    /// state's size.
    private var isPending = false
    /// When the oldest unwritten change was made: no write waits longer than `maximumDelay`
    /// after it.
    private var pendingSince: SchedulerInstant?
    private var timer: Connection?
    private var observer: Connection?
    private var reducers: Connection?
    private var watch: Connection?
    private var poll: Connection?
    /// The look scheduled by the storage's watcher, which calls from any thread; one at a
    /// time, however many changes it reports before the look runs.
    private let scheduledLook = LockedState<Connection?>(nil)
    private let statusInput: Input<PersistenceStatus>

    /// How many writes succeeded.
    public private(set) var writeCount = 0

    init(
        store: Store<Value>, key: PersistenceKey<Value>, pause: Duration, maximumDelay: Duration,
        pollInterval: Duration?
    ) {
        let location = key.strategy.location.normalized
        self.location = location
        access = store.access
        storage = store.dependencies.persistenceStorage
        coder = key.coder
        engine = store.engine
        scheduler = store.engine.scheduler
        self.pause = pause
        self.maximumDelay = maximumDelay
        self.pollInterval = pollInterval
        resetValue = key.defaultValue ?? store.currentState
        statusInput = store.engine.graph.input(PersistenceStatus(isLoading: true))
        reducers = Connection(grouping: [
            // Dispatched only when they change the state, so the focus need not keep it for them.
            store.register(
                Reducer<Value, PersistedStateLoaded<Value>>(route: location) { state, loaded in state = loaded.value },
                mayLeaveUnchanged: false),
            store.register(
                Reducer<Value, PersistedStateReset<Value>>(route: location) { state, reset in state = reset.value },
                mayLeaveUnchanged: false),
        ])
        startLoad()
        observer = store.access.watch { [unowned self] in changed() }
        // The state at start waits to be written, as every later one does: written at the
        // first save unless it is what is stored (or nothing is, and another wrote meanwhile).
        changed()
        startFollowing()
    }

    deinit {
        stopFollowing()
        timer?.disconnect()
        if isPending { save() }
        observer?.disconnect()
        reducers?.disconnect()
    }

    /// Where the persistence stands: loading, and the last failed load and save.
    public var status: I<PersistenceStatus> { statusInput }

    /// Whether a load is under way (``PersistenceStatus/isLoading``).
    public var isLoading: Bool { statusInput.value.isLoading }

    /// Why the last load failed, until one succeeds (``PersistenceStatus/loadError``).
    public var loadError: PersistenceError? { statusInput.value.loadError }

    /// Why the last save failed, until one succeeds (``PersistenceStatus/saveError``).
    public var saveError: PersistenceError? { statusInput.value.saveError }

    /// Whether a change waits to be written.
    public var hasPendingChanges: Bool {
        isPending && access.get() != baseline
    }

    /// Writes the newest change now, if one waits; a failed write is reported and tried again
    /// at the next change or flush.
    public func flush() {
        timer?.disconnect()
        timer = nil
        save()
    }

    /// Looks at the location now, as a poll does, and loads what changed there.
    public func reload() {
        look(reading: true)
    }

    /// Writes what waits, then stops saving, loading and following (the store keeps its state).
    public func disconnect() {
        flush()
        stopFollowing()
        observer?.disconnect()
        observer = nil
        reducers?.disconnect()
        reducers = nil
    }

    // MARK: Loading

    /// The first load: what is stored, the default when nothing is and the key has one.
    private func startLoad() {
        seenStamp = storage.stamp?(location)
        do {
            seen = try storage.data(at: location)
        } catch {
            // Never overwrite what could not be read with the value the store started from.
            baseline = access.get()
            failedLoad(error)
            return
        }
        if let seen {
            load(seen)
        } else {
            setStatus { $0.isLoading = false }
            if access.get() != resetValue { dispatch(PersistedStateReset(resetValue, at: location)) }
        }
    }

    /// Decodes `data` and puts it in the store, unless the store has it already.
    private func load(_ data: Data) {
        setStatus { $0.isLoading = true }
        let value: Value
        do {
            value = try coder.decode(data)
        } catch {
            if baseline == nil { baseline = access.get() }
            failedLoad(error)
            return
        }
        baseline = value
        dropPending()
        setStatus {
            $0.isLoading = false
            $0.loadError = nil
        }
        if access.get() != value { dispatch(PersistedStateLoaded(value, from: location)) }
    }

    private func failedLoad(_ underlying: any Error) {
        let error = PersistenceError(operation: .load, location: location, underlying: underlying)
        setStatus {
            $0.isLoading = false
            $0.loadError = error
        }
        report(error)
    }

    /// Nothing is stored any more: the default, and no write until the state changes.
    private func removed() {
        dropPending()
        baseline = resetValue
        setStatus { $0.loadError = nil }
        if access.get() != resetValue { dispatch(PersistedStateReset(resetValue, at: location)) }
    }

    /// Puts `action` in the store, as the store object's `dispatch` does.
    private func dispatch(_ action: some Action) {
        engine.dispatch(action, task: StoreTask(engine: engine, action: action))
    }

    /// Looks at the location: when `reading`, or when its stamp changed, reads it, and acts
    /// if its data differ from what was last seen.
    private func look(reading: Bool) {
        let stamp = storage.stamp?(location)
        if !reading, let stamp, stamp == seenStamp { return }
        let data: Data?
        do {
            data = try storage.data(at: location)
        } catch {
            seenStamp = nil
            if loadError?.underlying.localizedDescription != error.localizedDescription { failedLoad(error) }
            return
        }
        // Taken before the read: a change made after it shows as a new stamp next time.
        seenStamp = stamp
        guard data != seen else { return }
        seen = data
        if let data { load(data) } else { removed() }
    }

    // MARK: Following

    private func startFollowing() {
        let scheduled = scheduledLook
        let scheduler = scheduler
        let look = IsolatedClosure { [weak self] in
            scheduled.withLock { $0 = nil }
            self?.look(reading: true)
        }
        watch = storage.watch(location) {
            scheduled.withLock { pending in
                if pending == nil { pending = scheduler.schedule(at: scheduler.now) { look() } }
            }
        }
        if let pollInterval {
            poll = scheduler.schedule(every: pollInterval, isolated: { [weak self] in self?.look(reading: false) })
        }
    }

    private func stopFollowing() {
        watch?.disconnect()
        watch = nil
        poll?.disconnect()
        poll = nil
        let look = scheduledLook.withLock { look in
            defer { look = nil }
            return look
        }
        look?.disconnect()
    }

    // MARK: Saving

    private func changed() {
        isPending = true
        let now = scheduler.now
        let since = pendingSince ?? now
        pendingSince = since
        let deadline = min(now + pause, since + maximumDelay)
        timer?.disconnect()
        timer = scheduler.schedule(at: deadline, isolated: { [weak self] in self?.flush() })
    }

    private func dropPending() {
        isPending = false
        pendingSince = nil
        timer?.disconnect()
        timer = nil
    }

    private func save() {
        guard isPending else { return }
        if baseline == nil {
            // Nothing was stored at start and nothing written since: what another wrote
            // meanwhile is newer than the state the store started with, and is loaded instead.
            look(reading: true)
        }
        guard isPending else { return }
        let value = access.get()
        guard value != baseline else {
            // Back to what is stored (a change undone): nothing to write.
            dropPending()
            return
        }
        do {
            let data = try coder.encode(value)
            try storage.store(data, at: location)
            seen = data
            // Unknown until looked at: a write of another made between this one and a stamp
            // taken now would go unseen.
            seenStamp = nil
            baseline = value
            dropPending()
            writeCount += 1
            if saveError != nil { setStatus { $0.saveError = nil } }
        } catch {
            let error = PersistenceError(operation: .save, location: location, underlying: error)
            setStatus { $0.saveError = error }
            report(error)
        }
    }

    private func setStatus(_ change: (inout PersistenceStatus) -> Void) {
        var status = statusInput.value
        change(&status)
        statusInput.write(status)
    }

    private func report(_ error: PersistenceError) {
        engine.report(error)
    }
}

extension Store where State: Equatable & Sendable {
    /// Keeps this store's state saved as `key` says: loads what is stored now, then writes
    /// the state after it changes, `debounce` after the last change (on the store's
    /// scheduler) and never more than `maximumDelay` after the first one not written; and
    /// follows what is stored, looking at it whenever the storage reports a change and every
    /// `pollInterval` besides (`nil`: only when a change is reported).
    ///
    /// ```swift
    /// let settings = store.focus(\.settings).persist(.settings)
    /// ```
    ///
    /// A stored state is loaded with a ``PersistedStateLoaded`` action, dispatched now (or
    /// after the action under way); when nothing is stored, the state becomes the key's
    /// default (a ``PersistedStateReset`` action), if it has one, and is written as it is.
    /// What cannot be read or decoded is reported through ``unhandledErrorHandler`` as a
    /// ``PersistenceError`` and kept in ``Persistence/status``; the store keeps its own value,
    /// and what is stored is left untouched until that value changes: it is never
    /// overwritten with the value the store started from. A failed write is reported and kept
    /// in the status too, and tried again at the next change or ``Persistence/flush()``; the
    /// store goes on either way. How outside changes are followed is in ``Persistence``.
    ///
    /// A change back to the stored value writes nothing, and a write is skipped when the
    /// state equals what is stored. Reading and writing go through the store's
    /// ``Dependencies/persistenceStorage``: a test store's keeps them in memory. Keep the
    /// returned ``Persistence``: it saves while it lives, and saves what is pending when it
    /// disconnects or is released.
    ///
    /// - Precondition: `debounce` and `maximumDelay` are not negative, and `pollInterval`
    ///   is more than zero.
    public func persist(
        _ key: PersistenceKey<State>, debounce: Duration = .seconds(1), maximumDelay: Duration = .seconds(5),
        pollInterval: Duration? = .seconds(1)
    ) -> Persistence<State> {
        precondition(
            debounce >= .zero && maximumDelay >= .zero,
            "Resin: persistence needs a debounce and a maximum delay of zero or more")
        precondition(
            pollInterval.map { $0 > .zero } ?? true,
            "Resin: persistence needs a poll interval of more than zero, or nil for none")
        return Persistence(
            store: self, key: key, pause: debounce, maximumDelay: maximumDelay, pollInterval: pollInterval)
    }
}

extension Store where State: Codable & Equatable & Sendable {
    /// Keeps this store's state saved as JSON with `strategy`: ``persist(_:debounce:maximumDelay:pollInterval:)-(PersistenceKey<State>,_,_,_)``
    /// with a ``PersistenceKey`` of `strategy` and no default.
    ///
    /// ```swift
    /// let settings = store.focus(\.settings).persist(.jsonFile(settingsURL))
    /// ```
    public func persist(
        _ strategy: PersistenceStrategy, debounce: Duration = .seconds(1), maximumDelay: Duration = .seconds(5),
        pollInterval: Duration? = .seconds(1)
    ) -> Persistence<State> {
        persist(
            PersistenceKey(strategy), debounce: debounce, maximumDelay: maximumDelay, pollInterval: pollInterval)
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
