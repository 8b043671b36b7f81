import Foundation

/// A store's recent past: every action it processed with the state after it, up to a bound,
/// to inspect, to jump back to, to replay, and to edit as redux-devtools' monitors do.
/// Returned by ``Store/recordHistory(capacity:)``.
///
/// ```swift
/// let history = store.recordHistory(capacity: 500)
/// store.dispatch(AddTodo(title: "Milk"))
/// store.dispatch(AddTodo(title: "Bread"))
/// history.jump(to: history.startPosition + 1)   // the state after the first action
/// ```
///
/// Positions count the states recorded: ``startPosition`` is the state before the oldest
/// entry kept (``startState``), and each entry's ``Entry/position`` is the state after its
/// action. When more than `capacity` entries have been recorded, the oldest go, and the
/// start moves up. Positions change only when ``HistoryOperation/sweep`` or
/// ``HistoryOperation/reorder(id:before:)`` moves entries; an entry's ``Entry/id`` never
/// changes.
///
/// ## Instrument operations
///
/// ``perform(_:)`` applies redux-devtools' operations (``HistoryOperation``): commit,
/// rollback, reset, toggle (skip) an action, sweep the skipped ones, reorder, lock and pause;
/// ``export(using:)`` and ``importing(_:using:)`` save and load a session. An operation that
/// changes which actions count (toggle, reorder, import) recomputes the states after the
/// first one it touches by dispatching the kept actions again, from the state before it,
/// starting no effect (as ``Store/replay(_:)`` does): middleware and observers see each state
/// in turn, as the first time, and make their follow-ups again; the store ends at the state
/// at ``currentPosition``. Each operation performed is kept in ``operations``.
///
/// It records while it lives: ``disconnect()`` (or releasing it) stops it. Like the store, it
/// lives in the store's isolation domain.
public final class History<State> {
    /// One action the store processed, and the state after it.
    public struct Entry {
        /// The position of the state after the action.
        public let position: Int
        /// The entry's identity: given when it is recorded, never changed or reused.
        public let id: Int
        /// The action, as the reducers saw it (after middleware replaced it, if one did).
        public let action: any Action
        /// The store's state after the action (the state before it, while it is skipped).
        public let state: State
        /// Whether the action was dispatched while another one was processed (by middleware,
        /// an observer, or an after-action hook). A replay of the actions before it makes it
        /// again, so ``History/log`` leaves it out.
        public let isFollowUp: Bool
        /// Whether the action is skipped (``HistoryOperation/toggle(id:)``): its state is the
        /// one before it, and a recompute does not run it.
        public let isSkipped: Bool

        func with(position: Int? = nil, state: State? = nil, isSkipped: Bool? = nil) -> Entry {
            Entry(
                position: position ?? self.position, id: id, action: action, state: state ?? self.state,
                isFollowUp: isFollowUp, isSkipped: isSkipped ?? self.isSkipped)
        }
    }

    /// How many entries the history keeps; the oldest go first.
    public let capacity: Int
    /// The entries kept, oldest first (a ring: `storage` from `head`, then up to `head`).
    private var storage: [Entry] = []
    private var head = 0
    /// The state before the oldest entry kept.
    public private(set) var startState: State
    /// The position of ``startState``.
    public private(set) var startPosition = 0
    /// The position whose state the store shows: the newest after an action is recorded, the
    /// one jumped to after a jump.
    public private(set) var currentPosition = 0
    /// Whether the store's own actions are swallowed (``HistoryOperation/lock(_:)``).
    public private(set) var isLocked = false
    /// Whether actions apply without being recorded (``HistoryOperation/pause(_:)``).
    public private(set) var isPaused = false
    /// The operations performed on this history, oldest first.
    public private(set) var operations: [HistoryOperation] = []
    /// The state when recording began: what ``HistoryOperation/reset`` goes back to.
    private let initialState: State
    private var nextID = 1
    /// Set while a recompute dispatches kept actions: they are not recorded again, and a
    /// lock lets them through.
    private var recomputing = false
    /// The state a jump without a position sets (a rollback, a reset, a recompute's start).
    private var restoreTarget: State?
    private weak var engine: Engine?
    private let read: () -> State
    private var recording: Connection?
    private var jumps: Connection?
    private var lock: Connection?
    /// An identity for this history's jumps among the store's actions.
    private let route = HistoryRoute()

    init(store: Store<State>, capacity: Int) {
        self.capacity = capacity
        engine = store.engine
        let access = store.access
        read = { access.get() }
        startState = access.get()
        initialState = startState
        let route = route
        jumps = store.register(
            Reducer<State, HistoryJump>(route: route) { [unowned self] state, jump in
                if let position = jump.position {
                    guard let target = self.state(at: position) else { return }
                    state = target
                } else if let target = restoreTarget {
                    state = target
                }
            })
        lock = store.register(
            Middleware { [unowned self] action, _ in
                guard isLocked, !recomputing, !(action is HistoryJump) else { return .pass }
                return .swallow
            })
        recording = store.engine.registerAfterAction { [unowned self] action in
            record(action)
        }
    }

    deinit {
        recording?.disconnect()
        jumps?.disconnect()
        lock?.disconnect()
    }

    /// The entries kept, oldest first.
    public var entries: [Entry] {
        Array(storage[head...] + storage[..<head])
    }

    /// The position of the newest state recorded (``startPosition`` while none is).
    public var endPosition: Int { startPosition + storage.count }

    /// The state at `position` (``startState`` at ``startPosition``), or `nil` if the history
    /// does not hold it (it went, or is not recorded yet).
    public func state(at position: Int) -> State? {
        if position == startPosition { return startState }
        guard position > startPosition, position <= endPosition else { return nil }
        return storage[(head + position - startPosition - 1) % storage.count].state
    }

    /// Sets the store's state to the one at `position`, as recorded, without running any
    /// effect: the reducers of other actions do not run, and effects already running go on
    /// (cancel them first if the app needs to). Foci whose part the jump removes lose their
    /// registrations' effects, as with any change.
    ///
    /// The jump is an action (so observers wake once, glitch-free, and middleware sees it),
    /// but it is not recorded: the history stays as it was, and actions dispatched after the
    /// jump are recorded after its newest entry, from the state jumped to.
    ///
    /// - Precondition: The history holds `position` (``startPosition`` through
    ///   ``endPosition``).
    public func jump(to position: Int) {
        perform(.jump(to: position))
    }

    /// The actions to replay into a store holding ``startState`` to reach the newest state
    /// recorded: the entries' actions, follow-ups left out (the replay makes them again),
    /// except those at the start whose cause the history no longer holds; skipped actions
    /// left out.
    public var log: ActionLog {
        let entries = entries
        let leading = entries.prefix { $0.isFollowUp }.count
        let kept = entries.prefix(leading) + entries.dropFirst(leading).filter { !$0.isFollowUp }
        return ActionLog(kept.filter { !$0.isSkipped }.map(\.action))
    }

    /// Stops recording (the entries stay) and unregisters the jumps and the lock.
    public func disconnect() {
        recording?.disconnect()
        recording = nil
        jumps?.disconnect()
        jumps = nil
        lock?.disconnect()
        lock = nil
    }

    // MARK: Operations

    /// Applies `operation` (see ``HistoryOperation`` for what each does) and keeps it in
    /// ``operations``.
    ///
    /// - Precondition: The store is not processing an action (call it from outside the
    ///   store's reducers, middleware and observers), and a position or id the operation
    ///   names is held by the history.
    public func perform(_ operation: HistoryOperation) {
        if case .jump(let position) = operation {
            precondition(
                position >= startPosition && position <= endPosition,
                "Resin: a history can jump only to a position it holds, from its start position to its end position")
            operations.append(operation)
            currentPosition = position
            engine?.dispatch(HistoryJump(position: position, route: route))
            return
        }
        precondition(
            engine.map { !$0.isProcessing && !$0.actions.isProcessing } ?? true,
            "Resin: a history operation cannot run while the store processes an action; perform it from outside the store's reducers, middleware and observers"
        )
        operations.append(operation)
        switch operation {
        case .jump: break
        case .commit:
            // The state shown becomes the start; the entries go.
            startState = read()
            clear()
        case .rollback:
            clear()
            restore(startState)
        case .reset:
            startState = initialState
            clear()
            restore(initialState)
        case .toggle(let id):
            var list = entries
            let index = self.index(of: id, in: list)
            list[index] = list[index].with(isSkipped: !list[index].isSkipped)
            recompute(list, from: index)
        case .sweep:
            let list = entries
            let current = currentPosition
            let kept = list.filter { !$0.isSkipped }
            // The position shown moves with the entries left before it.
            currentPosition = startPosition + list.prefix(current - startPosition).filter { !$0.isSkipped }.count
            replace(with: kept)
        case .reorder(let id, let before):
            var list = entries
            let from = index(of: id, in: list)
            let moved = list.remove(at: from)
            let to = before.map { index(of: $0, in: list) } ?? list.count
            list.insert(moved, at: to)
            recompute(list, from: min(from, to))
        case .lock(let locked):
            isLocked = locked
        case .pause(let paused):
            if isPaused && !paused {
                // What happened while paused is not recorded: the state now is the new start.
                startState = read()
                clear()
            }
            isPaused = paused
        }
    }

    private func index(of id: Int, in list: [Entry]) -> Int {
        guard let index = list.firstIndex(where: { $0.id == id }) else {
            preconditionFailure("Resin: this history holds no entry with id \(id)")
        }
        return index
    }

    /// Forgets every entry; the start moves to the end, so positions are not reused.
    private func clear() {
        startPosition = endPosition
        storage = []
        head = 0
        currentPosition = startPosition
    }

    /// Replaces the entries with `list`, numbered from the start.
    private func replace(with list: [Entry]) {
        storage = list.enumerated().map { $0.element.with(position: startPosition + 1 + $0.offset) }
        head = 0
    }

    /// Sets the store's state to `state`, as a jump does.
    private func restore(_ state: State) {
        restoreTarget = state
        defer { restoreTarget = nil }
        engine?.dispatch(HistoryJump(position: nil, route: route))
    }

    /// Runs the store's reducers again on `list`'s actions from `index` on, from the state
    /// before it, starting no effect, and keeps the states they give; the store then shows the
    /// state at ``currentPosition``. Each action is dispatched as at the first time, so
    /// middleware and observers see each state in turn and make their follow-ups again.
    ///
    /// A skipped action is not run (its state is the one before it). A follow-up is not run
    /// when its cause was (the reducers' middleware and observers make it again, as at the
    /// first time), and takes the state after its cause and that cause's follow-ups.
    private func recompute(_ list: [Entry], from index: Int) {
        guard let engine else { return replace(with: list) }
        var list = list
        restore(index == 0 ? startState : list[index - 1].state)
        recomputing = true
        engine.isReplaying = true
        defer {
            recomputing = false
            engine.isReplaying = false
        }
        var causeRan = false
        for position in index..<list.count {
            let entry = list[position]
            if !entry.isSkipped && !(entry.isFollowUp && causeRan) { engine.dispatch(entry.action) }
            if !entry.isFollowUp { causeRan = !entry.isSkipped }
            list[position] = entry.with(state: read())
        }
        replace(with: list)
        if currentPosition != endPosition, let shown = state(at: currentPosition) { restore(shown) }
    }

    private func record(_ action: any Action) {
        // A locked history's middleware swallowed every other action: none changed anything.
        if action is HistoryJump || recomputing || isLocked { return }
        if isPaused {
            // Not recorded: redux-devtools' paused monitor; the start follows the store.
            return
        }
        let entry = Entry(
            position: endPosition + 1, id: nextID, action: action, state: read(),
            isFollowUp: engine?.processingFollowUp ?? false, isSkipped: false)
        nextID += 1
        defer { currentPosition = endPosition }
        guard capacity > 0 else {
            startState = entry.state
            startPosition += 1
            return
        }
        if storage.count < capacity {
            storage.append(entry)
            return
        }
        // Full: the oldest entry's state becomes the start, and the new entry takes its slot.
        startState = storage[head].state
        startPosition += 1
        storage[head] = entry
        head = (head + 1) % capacity
    }
}

/// What a monitor does to a ``History``: redux-devtools' instrument operations, applied
/// with ``History/perform(_:)``.
public enum HistoryOperation: Hashable, Sendable, Codable {
    /// Shows the state at a position (``History/jump(to:)``); nothing is recomputed.
    case jump(to: Int)
    /// Makes the state shown the new start, and forgets the entries: what is done is done.
    case commit
    /// Goes back to the start (the last commit) and forgets the entries.
    case rollback
    /// Goes back to the state the store had when recording began, and forgets the entries.
    case reset
    /// Skips the entry with this id, or runs it again if it is skipped; the states after it
    /// are recomputed.
    case toggle(id: Int)
    /// Forgets the skipped entries; the others keep their states and are numbered again.
    case sweep
    /// Moves the entry with `id` before the entry with id `before` (to the end for `nil`);
    /// the states from the first entry moved are recomputed.
    case reorder(id: Int, before: Int?)
    /// While locked, the store's own actions are swallowed (a monitor's operations and jumps
    /// still apply): the state cannot change under someone inspecting it.
    case lock(Bool)
    /// While paused, actions apply and are not recorded. Resuming makes the state then the
    /// new start and forgets the entries, as redux-devtools does: the entries could not
    /// recompute what the actions not recorded did.
    case pause(Bool)
}

extension History where State: Codable {
    /// The session as JSON, for ``importing(_:using:)`` here or in another program: the start
    /// state, the entries' actions (encoded by `coder`) with whether each is skipped or a
    /// follow-up, and the position shown.
    ///
    /// - Throws: `coder`'s error for an action type not registered with it, and the state's
    ///   encoding error.
    public func export(using coder: ActionCoder) throws -> Data {
        let entries = entries
        let actions = try JSONSerialization.jsonObject(with: coder.encode(ActionLog(entries.map(\.action))))
        guard let list = actions as? [[String: Any]] else { throw CocoaError(.coderInvalidValue) }
        let described: [[String: Any]] = zip(list, entries).map { coded, entry in
            var coded = coded
            coded["skipped"] = entry.isSkipped
            coded["followUp"] = entry.isFollowUp
            return coded
        }
        let start = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(startState), options: [.fragmentsAllowed])
        return try JSONSerialization.data(
            withJSONObject: ["start": start, "actions": described, "current": currentPosition - startPosition],
            options: [.sortedKeys])
    }

    /// Replaces the session with the one `data` holds (written by ``export(using:)``): its
    /// start, its actions and which are skipped; the states are recomputed by the store's
    /// reducers, and the store shows the position the session showed. The entries get new
    /// ids; positions continue from this history's.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for data that is not such a session (naming
    ///   what is missing), `coder`'s error for an action it cannot decode, and the state's
    ///   decoding error; nothing changes then.
    public func importing(_ data: Data, using coder: ActionCoder) throws {
        func corrupt(_ reason: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: [], debugDescription: "A history session \(reason)"))
        }
        guard let session = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw corrupt("is a JSON object")
        }
        guard let start = session["start"] else { throw corrupt("needs a start state") }
        guard let list = session["actions"] as? [[String: Any]] else { throw corrupt("needs a list of actions") }
        guard let current = session["current"] as? Int, current >= 0, current <= list.count else {
            throw corrupt("needs the position shown, from 0 to the number of actions")
        }
        let startState = try JSONDecoder().decode(
            State.self, from: JSONSerialization.data(withJSONObject: start, options: [.fragmentsAllowed]))
        let actions = try coder.decode(JSONSerialization.data(withJSONObject: list)).actions
        precondition(
            engine.map { !$0.isProcessing && !$0.actions.isProcessing } ?? true,
            "Resin: a history cannot import while the store processes an action; import from outside the store's reducers, middleware and observers"
        )
        clear()
        self.startState = startState
        let imported = zip(actions, list).map { action, coded in
            defer { nextID += 1 }
            return Entry(
                position: 0, id: nextID, action: action, state: startState,
                isFollowUp: coded["followUp"] as? Bool ?? false, isSkipped: coded["skipped"] as? Bool ?? false)
        }
        currentPosition = startPosition + current
        recompute(imported, from: 0)
        if imported.isEmpty { restore(startState) }
    }
}

/// The identity of one history's jumps.
final class HistoryRoute: Hashable, Sendable {
    static func == (lhs: HistoryRoute, rhs: HistoryRoute) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Sets a store's state to a position of its history (``History/jump(to:)``), or, without
/// a position, to the state the history restores (a rollback, a reset, a recompute's start).
struct HistoryJump: RoutedAction {
    let position: Int?
    let route: HistoryRoute
}

extension Store {
    /// Records every action this store processes, with the state after it, keeping the
    /// newest `capacity` entries; see ``History``.
    ///
    /// For a focused store, the states are its part's: jumping sets only that part.
    ///
    /// - Precondition: `capacity` is not negative.
    public func recordHistory(capacity: Int = 1_000) -> History<State> {
        precondition(capacity >= 0, "Resin: a history's capacity must be zero or more")
        return History(store: self, capacity: capacity)
    }

    /// Dispatches every action of `log` in order, starting no effect (only cancellations
    /// apply): the actions effects sent are in the log. A store set up as the recorded one
    /// was, holding the history's ``History/startState``, reaches the state the history
    /// recorded last. Follow-ups (actions middleware or observers dispatch) are made again
    /// by the replay, as they were the first time.
    ///
    /// - Precondition: The store is not processing an action (a reducer, middleware or
    ///   observer cannot replay into its own store).
    public func replay(_ log: ActionLog) {
        precondition(
            !engine.isProcessing && !engine.actions.isProcessing,
            "Resin: replay(_:) cannot run while the store processes an action; call it from outside the store's reducers, middleware and observers"
        )
        engine.isReplaying = true
        defer { engine.isReplaying = false }
        for action in log.actions { engine.dispatch(action) }
    }
}

/// Actions to replay into a store, in order: a history's ``History/log``, or one decoded by
/// an ``ActionCoder``.
public struct ActionLog: Sendable {
    /// The actions, oldest first.
    public var actions: [any Action]

    /// A log of `actions`, oldest first.
    public init(_ actions: [any Action]) {
        self.actions = actions
    }
}

/// Encodes and decodes ``ActionLog``s as JSON, for the action types registered with it.
///
/// ```swift
/// var coder = ActionCoder()
/// coder.register(AddTodo.self)
/// coder.register(ToggleTodo.self)
/// let data = try coder.encode(history.log)
/// let log = try coder.decode(data)
/// ```
///
/// Each action is written with its type's name (by default `String(reflecting:)` of the
/// type); decoding finds the type by that name. Encoding an action of a type not registered,
/// or decoding a name not registered, throws an error that names it.
public struct ActionCoder: Sendable {
    private var encoders: [ObjectIdentifier: (name: String, encode: @Sendable (any Action) throws -> Data)] = [:]
    private var decoders: [String: @Sendable (Data) throws -> any Action] = [:]

    /// A coder with no action types registered.
    public init() {}

    /// Registers `type` under `name` (its full name by default).
    public mutating func register<Registered: Action & Codable>(
        _ type: Registered.Type, as name: String = String(reflecting: Registered.self)
    ) {
        encoders[ObjectIdentifier(type)] = (
            name,
            { action in
                // Registered under this type's identifier, so the cast holds.
                try JSONEncoder().encode(action as! Registered)
            }
        )
        decoders[name] = { data in try JSONDecoder().decode(Registered.self, from: data) }
    }

    /// The JSON of `log`: a list of `{"type": name, "action": …}` objects.
    public func encode(_ log: ActionLog) throws -> Data {
        let entries = try log.actions.map { action -> [String: Any] in
            guard let encoder = encoders[ObjectIdentifier(type(of: action))] else {
                throw EncodingError.invalidValue(
                    action,
                    .init(
                        codingPath: [],
                        debugDescription:
                            "The action type \(String(reflecting: type(of: action))) is not registered with this ActionCoder"
                    ))
            }
            let json = try JSONSerialization.jsonObject(with: try encoder.encode(action), options: [.fragmentsAllowed])
            return ["type": encoder.name, "action": json]
        }
        return try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])
    }

    /// The log encoded in `data` by ``encode(_:)``.
    ///
    /// Throws `DecodingError.dataCorrupted` for data that is not such a list or names a type
    /// not registered, and the action type's own error for an action that does not decode.
    public func decode(_ data: Data) throws -> ActionLog {
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "An action log is a JSON list of {type, action} objects"))
        }
        return ActionLog(
            try entries.map { entry in
                guard let name = entry["type"] as? String, let json = entry["action"] else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: [], debugDescription: "An action log entry needs a type and an action"))
                }
                guard let decoder = decoders[name] else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: [],
                            debugDescription: "The action type \(name) is not registered with this ActionCoder"))
                }
                return try decoder(try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed]))
            })
    }
}
