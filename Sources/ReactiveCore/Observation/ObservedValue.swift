import Observation

/// An `Observable` view of any ``Subscribable``: the bridge from every paradigm of the
/// package to Observation, and so to SwiftUI.
///
/// ```swift
/// let observed = ObservedValue(store, initial: store.state.value)
/// withObservationTracking {
///     print(observed.count)          // reads, and tracks, `count` only
/// } onChange: {
///     print("count will change")     // not called when another field changes
/// }
/// ```
///
/// Each paradigm has a shorter spelling that starts from its current value: Glue's
/// `observed()` on a variable or observable value, Incremental's on an `I`, Resin's on a
/// store or focus, Signals' on a property, Cycle's on a loop's models.
///
/// ## What is tracked
///
/// Reading ``value`` tracks the whole value. Reading a member through dynamic member lookup
/// (`observed.count`), or any key path with ``subscript(_:)`` (`observed[\.user.name]`),
/// tracks that key path only: `withObservationTracking` (and a SwiftUI view) is told about a
/// change when the member read differs from its previous value, not when another part of the
/// value changes. A member `observed.user` tracks all of `user`; read `observed[\.user.name]`
/// to track less.
///
/// ## When it changes
///
/// The observed value subscribes to the source when it is made, and takes every value the
/// source delivers. A value that is the same as the current one is a no-op: nobody is told.
/// "The same" is `==` for `Equatable` values, `===` for class instances, and never for
/// other values, the rule Incremental's default cutoff follows. The same rule decides, per
/// key path read, whether that member changed. Observers are told before the new value is
/// stored (`willSet`) and after (`didSet`), as with an `@Observable` property: a
/// `withObservationTracking` `onChange` runs once per change it tracked, with the old value
/// still readable.
///
/// Values are applied one at a time, in the order they arrive. A value that arrives while
/// another is being applied (an `onChange` that makes the source deliver again, or another
/// thread's delivery) waits and is applied right after, so observers never see the values
/// out of order and the last value delivered is the one that stays.
///
/// ## Lifetime
///
/// The observed value keeps its subscription, and so the source, alive; the source does not
/// keep the observed value alive. When the observed value is released (the view that owned
/// it goes away), the subscription disconnects. ``disconnect()`` ends it early; the last
/// value stays readable.
///
/// ## Threading
///
/// The value is kept under a lock and the Observation registrar is thread-safe, so an
/// `ObservedValue` of a `Sendable` value is `Sendable`: a thread-safe source (Signals) may
/// deliver on any thread while a view reads on the main thread. SwiftUI expects changes on
/// the main thread: subscribe it to a source that delivers there (a single-threaded
/// paradigm driven from the main actor, or a Signals chain dispatched to the main queue).
/// An `ObservedValue` of a non-`Sendable` value is not `Sendable` and belongs to its
/// source's isolation domain, like the source.
@dynamicMemberLookup
public final class ObservedValue<Value>: Observable {
    /// A key path read through the value: whether it differs between two values, and how to
    /// tell the registrar it changes.
    private struct TrackedMember {
        let differs: (Value, Value) -> Bool
        let willSet: (ObservedValue<Value>) -> Void
        let didSet: (ObservedValue<Value>) -> Void
    }

    private struct State {
        var value: Value
        var members: [AnyKeyPath: TrackedMember] = [:]
        var connection: Connection?
        var changeCount = 0
        /// Values that arrived while another was being applied, oldest first.
        var waiting: [Value] = []
        var isApplying = false
    }

    private let registrar = ObservationRegistrar()
    private let state: LockedState<State>

    /// An observed value that starts as `initial` and follows what `source` delivers.
    ///
    /// A source that delivers its current value on subscription (most do) replaces
    /// `initial` at once, before anything can observe it.
    public init(_ source: some Subscribable<Value>, initial: Value) {
        state = LockedState(State(value: initial))
        let sink = IsolatedSink<Value> { [weak self] value in self?.receive(value) }
        let connection = source.subscribe { sink($0) }
        state.withLock { $0.connection = connection }
    }

    deinit {
        let connection = state.withLock { $0.connection }
        connection?.disconnect()
    }

    /// The current value; reading it tracks the whole value.
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        return state.withLock { $0.value }
    }

    /// A member of the current value; reading it tracks that member only.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        self[keyPath]
    }

    /// The part of the current value at `keyPath`; reading it tracks that key path only.
    public subscript<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
        let tracked = (\ObservedValue<Value>.value).appending(path: keyPath)
        let member = state.withLock { state -> Member in
            if state.members[tracked] == nil {
                state.members[tracked] = TrackedMember(
                    differs: { old, new in !isSame(old[keyPath: keyPath], new[keyPath: keyPath]) },
                    willSet: { $0.registrar.willSet($0, keyPath: tracked) },
                    didSet: { $0.registrar.didSet($0, keyPath: tracked) })
            }
            return state.value[keyPath: keyPath]
        }
        registrar.access(self, keyPath: tracked)
        return member
    }

    /// How many values the observed value took that differed from the one before (for
    /// tests and debugging).
    public var changeCount: Int {
        state.withLock { $0.changeCount }
    }

    /// Whether the observed value still follows its source.
    public var isConnected: Bool {
        state.withLock { $0.connection?.isConnected ?? false }
    }

    /// Stops following the source; the last value stays readable.
    public func disconnect() {
        let connection = state.withLock { $0.connection }
        connection?.disconnect()
    }

    /// Applies `newValue` and then every value that arrives meanwhile (from an observer
    /// that makes the source deliver again, or from another thread), one at a time, in the
    /// order they arrived.
    private func receive(_ newValue: Value) {
        let isFirst = state.withLock { state -> Bool in
            if state.isApplying {
                state.waiting.append(newValue)
                return false
            }
            state.isApplying = true
            return true
        }
        guard isFirst else { return }
        var next: Value? = newValue
        while let value = next {
            apply(value)
            next = state.withLock { state in
                if state.waiting.isEmpty {
                    state.isApplying = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
        }
    }

    private func apply(_ newValue: Value) {
        let changed = state.withLock { state -> [TrackedMember]? in
            let old = state.value
            guard !isSame(old, newValue) else { return nil }
            return state.members.values.filter { $0.differs(old, newValue) }
        }
        guard let changed else { return }
        registrar.willSet(self, keyPath: \.value)
        for member in changed { member.willSet(self) }
        state.withLock {
            $0.value = newValue
            $0.changeCount += 1
        }
        registrar.didSet(self, keyPath: \.value)
        for member in changed { member.didSet(self) }
    }
}

// The value and the members' comparators are only reached under the lock, the registrar is
// thread-safe, and `Value: Sendable` keeps non-Sendable values from crossing threads.
extension ObservedValue: @unchecked Sendable where Value: Sendable {}

extension ObservedValue: CustomDebugStringConvertible {
    /// The type, the current value (not tracked) and whether it still follows its source.
    public var debugDescription: String {
        let (value, connected) = state.withLock { ($0.value, $0.connection?.isConnected ?? false) }
        return "ObservedValue<\(Value.self)>(\(value)\(connected ? "" : ", disconnected"))"
    }
}

/// Whether two values are the same for change detection: `==` for `Equatable` values, `===`
/// for class instances, never otherwise.
package func isSame<T>(_ lhs: T, _ rhs: T) -> Bool {
    if let lhs = lhs as? any Equatable {
        func equals<E: Equatable>(_ lhs: E) -> Bool {
            guard let rhs = rhs as? E else { return false }
            return lhs == rhs
        }
        return equals(lhs)
    }
    if T.self is AnyObject.Type {
        return (lhs as AnyObject) === (rhs as AnyObject)
    }
    return false
}
