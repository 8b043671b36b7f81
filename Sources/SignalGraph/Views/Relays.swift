/// A stateless link that turns each signal it receives into zero or one signal it sends.
///
/// Relays keep no state, so registering a sensor on one sends it nothing: register a relay's
/// sensors before registering the relay on a storage, and they receive the storage's
/// initiation through it.
public class SignalRelay<Incoming, Outgoing> {
    let emitter = SignalEmitter<Outgoing>()
    /// Where the relay is registered.
    public let registration = SensorRegistration()
    private let relay: (Incoming) -> Outgoing?

    init(_ relay: @escaping (Incoming) -> Outgoing?) {
        self.relay = relay
        emitter.owner = self
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a relay was released while still registered; deregister it first")
    }

    /// The number of registered sensors.
    public var sensorCount: Int { emitter.sensorCount }

    /// Sends what the relay makes of `signal`, if anything.
    public func sense(_ signal: Incoming) {
        if let outgoing = relay(signal) { emitter.dispatch(outgoing) }
    }

    /// Registers `sensor`.
    public func register(_ sensor: any Sensor<Outgoing>) {
        emitter.register(sensor)
    }

    /// Deregisters `sensor`.
    public func deregister(_ sensor: any Sensor<Outgoing>) {
        emitter.deregister(sensor)
    }
}

/// Maps each signal into another.
public final class SignalMap<Incoming, Outgoing>: SignalRelay<Incoming, Outgoing>, Sensor, Emitter {
    /// The signals it receives.
    public typealias IncomingSignal = Incoming
    /// The signals it sends.
    public typealias OutgoingSignal = Outgoing

    /// A map that sends `transform` of each signal.
    public init(_ transform: @escaping (Incoming) -> Outgoing) {
        super.init(transform)
    }
}

/// Passes on the signals for which a predicate is true.
///
/// Filtering state signals drops information: a receiver of a filtered stream can no longer
/// rebuild the state. Use ``DictionaryFilteringDictionaryStorage`` to filter state.
public final class SignalFilter<Signal>: SignalRelay<Signal, Signal>, Sensor, Emitter {
    /// The signals it receives.
    public typealias IncomingSignal = Signal
    /// The signals it sends.
    public typealias OutgoingSignal = Signal

    /// A filter that passes the signals for which `isIncluded` is true.
    public init(_ isIncluded: @escaping (Signal) -> Bool) {
        super.init { isIncluded($0) ? $0 : nil }
    }
}

/// Maps every element carried by array signals into another type, without storing.
public final class ArraySignalMap<Input, Output>: SignalRelay<ArraySignal<Input>, ArraySignal<Output>>, Sensor, Emitter
{
    /// The signals it receives.
    public typealias IncomingSignal = ArraySignal<Input>
    /// The signals it sends.
    public typealias OutgoingSignal = ArraySignal<Output>

    /// A map of every element by `transform`.
    public init(_ transform: @escaping (Input) -> Output) {
        super.init { signal in
            switch signal {
            case .initiation(let elements): .initiation(elements.map(transform))
            case .termination(let elements): .termination(elements.map(transform))
            case .transition(let transition):
                .transition(
                    ArrayTransition(
                        transition.mutations.map { mutation in
                            switch mutation {
                            case .insert(let element, let index): .insert(transform(element), at: index)
                            case .update(let element, let index): .update(transform(element), at: index)
                            case .delete(let index): .delete(at: index)
                            }
                        }))
            }
        }
    }
}

/// An array-like interface to an editable array storage: edits through it are sent as
/// mutation signals.
///
/// ```swift
/// let storage = EditableArrayStorage<String>()
/// let editor = ArrayEditor(storage)
/// editor.append("a")
/// editor[0] = "b"
/// ```
public struct ArrayEditor<Element>: RandomAccessCollection {
    /// The storage edited.
    public let storage: EditableArrayStorage<Element>

    /// An editor of `storage`.
    public init(_ storage: EditableArrayStorage<Element>) {
        self.storage = storage
    }

    /// The first index.
    public var startIndex: Int { 0 }
    /// The index after the last element.
    public var endIndex: Int { storage.state.count }

    /// The element at `index`; setting it sends an update.
    public subscript(index: Int) -> Element {
        get { storage.state[index] }
        nonmutating set { storage.apply(ArrayTransition([.update(newValue, at: index)])) }
    }

    /// Appends `element`, sending an insert.
    public func append(_ element: Element) {
        storage.apply(ArrayTransition([.insert(element, at: endIndex)]))
    }

    /// Inserts `element` at `index`, sending an insert.
    ///
    /// - Precondition: `index` is in `0...count`.
    public func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= endIndex, "ArrayEditor.insert: index \(index) out of 0...\(endIndex)")
        storage.apply(ArrayTransition([.insert(element, at: index)]))
    }

    /// Removes the element at `index`, sending a delete.
    ///
    /// - Precondition: `index` is in `0..<count`.
    public func remove(at index: Int) {
        precondition(index >= 0 && index < endIndex, "ArrayEditor.remove: index \(index) out of 0..<\(endIndex)")
        storage.apply(ArrayTransition([.delete(at: index)]))
    }
}

/// A terminal sensor with a handler for each kind of state signal.
///
/// ```swift
/// let handler = StateHandler<[Int: Row], DictionaryTransition<Int, Row>>(
///     didInitiate: { rows in show(rows) },
///     didTransition: { transition in apply(transition) },
///     willTerminate: { _ in clear() })
/// ```
public final class StateHandler<Snapshot, Transition>: Monitor {
    /// The signals it receives.
    public typealias IncomingSignal = StateSignal<Snapshot, Transition>
    /// It sends nothing on.
    public typealias OutgoingSignal = Never

    /// Where the handler is registered.
    public let registration = SensorRegistration()
    private let didInitiate: (Snapshot) -> Void
    private let didTransition: (Transition) -> Void
    private let willTerminate: (Snapshot) -> Void

    /// A handler that calls the closure for each kind of signal.
    public init(
        didInitiate: @escaping (Snapshot) -> Void = { _ in }, didTransition: @escaping (Transition) -> Void = { _ in },
        willTerminate: @escaping (Snapshot) -> Void = { _ in }
    ) {
        self.didInitiate = didInitiate
        self.didTransition = didTransition
        self.willTerminate = willTerminate
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a state handler was released while still registered; deregister it first")
    }

    /// Calls the matching closure.
    public func sense(_ signal: StateSignal<Snapshot, Transition>) {
        switch signal {
        case .initiation(let snapshot): didInitiate(snapshot)
        case .transition(let transition): didTransition(transition)
        case .termination(let snapshot): willTerminate(snapshot)
        }
    }
}
