import ReactiveCore

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
///
/// Every emitter is also ReactiveCore's `Subscribable`: ``subscribe(_:)`` registers a sensor
/// for a closure and returns a `Connection` that deregisters it, so `.values` and code
/// written against `Subscribable` work with storages, views and relays.
public protocol Emitter<OutgoingSignal>: Gate, Subscribable where Value == OutgoingSignal {
    /// Registers `sensor`; a storage sends it an initiation at once.
    func register(_ sensor: any Sensor<OutgoingSignal>)
    /// Deregisters `sensor`; a storage sends it a termination first.
    func deregister(_ sensor: any Sensor<OutgoingSignal>)
    /// Registers a sensor that hands each signal to `sink`; the connection deregisters it.
    /// Every emitter has it (see the extension); a requirement so that a call through
    /// `any Emitter` takes a closure that is not `@Sendable`.
    func subscribe(_ sink: @escaping (OutgoingSignal) -> Void) -> Connection
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

    /// Records that the sensor is now registered on `emitter`; every emitter calls this when
    /// it registers a sensor.
    func attach(to emitter: AnyObject) {
        assert(
            !isRegistered,
            "SignalGraph: a sensor was registered on a second emitter; a sensor observes one emitter at a time: deregister it first"
        )
        self.emitter = emitter
    }

    /// Checks, as an emitter starts deregistering the sensor, that it is registered there.
    func checkAttached(to emitter: AnyObject) {
        assert(
            self.emitter === emitter,
            "SignalGraph: deregistering a sensor that is not registered on this emitter")
    }
}

extension Emitter {
    /// Registers a sensor that hands each signal to `sink`, and returns the connection that
    /// deregisters it: the emitter's role as ReactiveCore's `Subscribable`.
    ///
    /// ```swift
    /// let rows = EditableDictionaryStorage<Int, String>()
    /// let connection = rows.subscribe { signal in print(signal) }   // .initiation([:])
    /// rows[1] = "Ada"                                                 // .transition(…)
    /// connection.disconnect()                                         // .termination([1: "Ada"])
    /// ```
    ///
    /// A storage or view sends an initiation at once and a termination when the connection
    /// disconnects, as for any sensor; a relay or a plain ``SignalEmitter`` sends only what
    /// it sends after the subscription. The connection keeps the emitter alive while it is
    /// connected; releasing the connection disconnects, so "if you set it up, you must tear
    /// it down" is kept by the connection. Disconnect it in the emitter's isolation domain
    /// (SignalGraph is single-threaded). A subscription made or disconnected during a
    /// delivery waits its turn like any registration.
    public func subscribe(_ sink: @escaping (OutgoingSignal) -> Void) -> Connection {
        let sensor = SignalSensor<OutgoingSignal>(sink)
        register(sensor)
        return Connection(isolated: { [self] in deregister(sensor) })
    }
}
