/// The machinery every storage shares: the state, the emitter, initiation on registration,
/// termination on deregistration, and transitions applied in the order they are delivered.
///
/// Use one of its subclasses (``ValueStorage``, ``EditableDictionaryStorage``, ...).
public class StateStorage<Snapshot, Transition> {
    private(set) var storedState: Snapshot
    private let applyTransition: (Transition, inout Snapshot) -> Void
    // Set once in init, after `self` exists (the channel reads the state through `self`).
    private var channel: StateChannel<Snapshot, Transition>!

    init(state: Snapshot, apply: @escaping (Transition, inout Snapshot) -> Void) {
        storedState = state
        applyTransition = apply
        channel = StateChannel { [unowned self] in storedState }
        channel.owner = self
    }

    /// The current state: every change made so far, including those whose signals wait
    /// behind a delivery under way.
    public var state: Snapshot { storedState }

    /// The number of registered sensors.
    public var sensorCount: Int { channel.sensorCount }

    /// Registers `sensor`, which receives an initiation with the state (after the delivery
    /// under way, if any).
    public func register(_ sensor: any Sensor<StateSignal<Snapshot, Transition>>) {
        channel.register(sensor)
    }

    /// Deregisters `sensor` (after the delivery under way, if any): it receives the changes
    /// it has not seen, then a termination with the state.
    public func deregister(_ sensor: any Sensor<StateSignal<Snapshot, Transition>>) {
        channel.deregister(sensor)
    }

    /// Applies `transition` now and sends it, after any delivery under way.
    /// The channel, for inspection.
    var channelForInspection: any OwnedChannel { channel }

    func commit(_ transition: Transition) {
        applyTransition(transition, &storedState)
        channel.publish(transition)
    }

    /// Computes a transition from the current state, then commits it; nothing if it is
    /// `nil`.
    func commit(computing translate: (Snapshot) -> Transition?) {
        guard let transition = translate(storedState) else { return }
        commit(transition)
    }

    /// Replaces the state with `snapshot` now: sensors receive a termination with the old
    /// state and an initiation with the new one, after any delivery under way.
    func reset(to snapshot: Snapshot) {
        let old = storedState
        storedState = snapshot
        channel.publishReset(from: old, to: snapshot)
    }
}

/// A storage that rebuilds its state from the signals of the emitter it is registered on,
/// and sends the same signals on to its own sensors.
public class ReplicatingStorage<Snapshot, Transition>: StateStorage<Snapshot, Transition> {
    /// Where the replication is registered.
    public let registration = SensorRegistration()
    private let emptyState: Snapshot?

    init(state: Snapshot, empty: Snapshot?, apply: @escaping (Transition, inout Snapshot) -> Void) {
        emptyState = empty
        super.init(state: state, apply: apply)
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a replication was released while still registered; deregister it first (if you set it up, you must tear it down)"
        )
    }

    /// Rebuilds the state: an initiation resets to its snapshot, a transition applies, a
    /// termination resets to empty (a value replication keeps its last value).
    public func sense(_ signal: StateSignal<Snapshot, Transition>) {
        switch signal {
        case .initiation(let snapshot): reset(to: snapshot)
        case .transition(let transition): commit(transition)
        case .termination: if let emptyState { reset(to: emptyState) }
        }
    }
}
