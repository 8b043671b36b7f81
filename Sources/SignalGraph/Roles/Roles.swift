/// Something with a type of signal it takes in and a type it sends out.
public protocol Gate: AnyObject {
    /// The signals it receives (`Never` if none).
    associatedtype IncomingSignal
    /// The signals it sends (`Never` if none).
    associatedtype OutgoingSignal
}

/// A signal sender. Sensors register on it and receive what it sends.
///
/// "If you set it up, you must tear it down": every sensor registered on an emitter must be
/// deregistered before the emitter dies (a debug-build assertion checks it).
public protocol Emitter<OutgoingSignal>: Gate {
    /// Registers `sensor`; a storage sends it an initiation at once.
    func register(_ sensor: any Sensor<OutgoingSignal>)
    /// Deregisters `sensor`; a storage sends it a termination first.
    func deregister(_ sensor: any Sensor<OutgoingSignal>)
}

/// An initial emitter that exposes a method to send signals.
public protocol Dispatcher<OutgoingSignal>: Emitter {
    /// Sends `signal` to every registered sensor.
    func dispatch(_ signal: OutgoingSignal)
}

/// A signal receiver. A sensor observes at most one emitter at a time.
public protocol Sensor<IncomingSignal>: Gate {
    /// Receives one signal.
    func sense(_ signal: IncomingSignal)
    /// Where the sensor is registered, kept by emitters to check the registration rules.
    var registration: SensorRegistration { get }
}

/// A terminal sensor: it receives and acts, and sends nothing on.
public protocol Monitor<IncomingSignal>: Sensor where OutgoingSignal == Never {}

/// Read-only state that sends mutation signals to its sensors.
public protocol Storage<OutgoingSignal>: Emitter {
    /// The type of the state.
    associatedtype State
    /// The current state.
    var state: State { get }
}

/// A storage that rebuilds its state from the signals it receives, and sends them on.
public protocol Replication<OutgoingSignal>: Storage, Sensor {}

/// A storage whose state you edit directly; it sends the matching signals. You cannot send
/// signals to it: it is a ``Storage``, not a ``Sensor`` (the seed lists it under
/// ``Replication`` but also says it takes no signals; taking none is what makes it safe to
/// edit).
public protocol Slot<OutgoingSignal>: Storage {
    /// The current state; setting it sends the mutation.
    var state: State { get set }
}

/// Which emitter a sensor is registered on, if any.
public final class SensorRegistration {
    /// The emitter, held weakly.
    weak var emitter: AnyObject?

    /// A registration on nothing.
    public init() {}

    /// Whether the sensor is registered on an emitter.
    public var isRegistered: Bool { emitter != nil }
}
