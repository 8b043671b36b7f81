/// The machinery every storage shares: the state, the emitter, initiation on registration,
/// termination on deregistration, and transitions applied in the order they are delivered.
///
/// Use one of its subclasses (``ValueStorage``, ``EditableDictionaryStorage``, ...).
public class StateStorage<Snapshot, Transition> {
    let emitter = SignalEmitter<StateSignal<Snapshot, Transition>>()
    private(set) var storedState: Snapshot
    private let applyTransition: (Transition, inout Snapshot) -> Void

    init(state: Snapshot, apply: @escaping (Transition, inout Snapshot) -> Void) {
        storedState = state
        applyTransition = apply
        emitter.didRegister = { [unowned self] sensor in sensor.sense(.initiation(storedState)) }
        emitter.willDeregister = { [unowned self] sensor in sensor.sense(.termination(storedState)) }
    }

    /// The current state.
    public var state: Snapshot { storedState }

    /// The number of registered sensors.
    public var sensorCount: Int { emitter.sensorCount }

    /// Registers `sensor`, which receives an initiation with the current state.
    public func register(_ sensor: any Sensor<StateSignal<Snapshot, Transition>>) {
        emitter.register(sensor)
    }

    /// Deregisters `sensor`, which receives a termination with the current state first.
    public func deregister(_ sensor: any Sensor<StateSignal<Snapshot, Transition>>) {
        emitter.deregister(sensor)
    }

    /// Applies `transition` and sends it, after any delivery under way.
    func commit(_ transition: Transition) {
        emitter.perform { [self] in
            applyTransition(transition, &storedState)
            emitter.dispatch(.transition(transition))
        }
    }

    /// Computes a transition from the current state and commits it, after any delivery
    /// under way, so the computation sees the state every earlier signal produced.
    func commit(computing translate: @escaping (Snapshot) -> Transition?) {
        emitter.perform { [self] in
            guard let transition = translate(storedState) else { return }
            applyTransition(transition, &storedState)
            emitter.dispatch(.transition(transition))
        }
    }

    /// Replaces the state with `snapshot`: sensors receive a termination with the old state
    /// and an initiation with the new one.
    func reset(to snapshot: Snapshot) {
        emitter.perform { [self] in
            let old = storedState
            storedState = snapshot
            emitter.dispatch(.termination(old))
            emitter.dispatch(.initiation(snapshot))
        }
    }

    /// Changes the stored state without sending anything; for views that translate what they
    /// receive into their own transitions.
    func mutateSilently(_ body: (inout Snapshot) -> Void) {
        body(&storedState)
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
