import Foundation

/// A store's recent past: every action it processed with the state after it, up to a bound,
/// to inspect, to jump back to, and to replay. Returned by ``Store/recordHistory(capacity:)``.
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
/// start moves up; positions never change.
///
/// It records while it lives: ``disconnect()`` (or releasing it) stops it. Like the store, it
/// lives in the store's isolation domain.
public final class History<State> {
    /// One action the store processed, and the state after it.
    public struct Entry {
        /// The position of the state after the action.
        public let position: Int
        /// The action, as the reducers saw it (after middleware replaced it, if one did).
        public let action: any Action
        /// The store's state after the action.
        public let state: State
        /// Whether the action was dispatched while another one was processed (by middleware,
        /// an observer, or an after-action hook). A replay of the actions before it makes it
        /// again, so ``History/log`` leaves it out.
        public let isFollowUp: Bool
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
    private weak var engine: Engine?
    private let read: () -> State
    private var recording: Connection?
    private var jumps: Connection?
    /// An identity for this history's jumps among the store's actions.
    private let route = HistoryRoute()

    init(store: Store<State>, capacity: Int) {
        self.capacity = capacity
        engine = store.engine
        let access = store.access
        read = { access.get() }
        startState = access.get()
        let route = route
        jumps = store.register(
            Reducer<State, HistoryJump>(route: route) { [unowned self] state, jump in
                guard let target = self.state(at: jump.position) else { return }
                state = target
            })
        recording = store.engine.registerAfterAction { [unowned self] action in
            record(action)
        }
    }

    deinit {
        recording?.disconnect()
        jumps?.disconnect()
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
        precondition(
            position >= startPosition && position <= endPosition,
            "Resin: a history can jump only to a position it holds, from its start position to its end position")
        engine?.dispatch(HistoryJump(position: position, route: route))
    }

    /// The actions to replay into a store holding ``startState`` to reach the newest state
    /// recorded: the entries' actions, follow-ups left out (the replay makes them again),
    /// except those at the start whose cause the history no longer holds.
    public var log: ActionLog {
        let entries = entries
        let leading = entries.prefix { $0.isFollowUp }.count
        return ActionLog(
            entries.prefix(leading).map(\.action) + entries.dropFirst(leading).filter { !$0.isFollowUp }.map(\.action))
    }

    /// Stops recording (the entries stay) and unregisters the jumps.
    public func disconnect() {
        recording?.disconnect()
        recording = nil
        jumps?.disconnect()
        jumps = nil
    }

    private func record(_ action: any Action) {
        if action is HistoryJump { return }
        let entry = Entry(
            position: endPosition + 1, action: action, state: read(), isFollowUp: engine?.processingFollowUp ?? false)
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

/// The identity of one history's jumps.
final class HistoryRoute: Hashable, Sendable {
    static func == (lhs: HistoryRoute, rhs: HistoryRoute) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Sets a store's state to a position of its history (``History/jump(to:)``).
struct HistoryJump: RoutedAction {
    let position: Int
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
