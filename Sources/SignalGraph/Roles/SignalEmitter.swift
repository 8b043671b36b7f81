import ReactiveCore

/// A multicasting emitter: any number of sensors register and receive what it sends, in the
/// order they registered.
///
/// Sensors are held weakly. Registration, deregistration and sending made while the emitter
/// is delivering (from a sensor's handler, or code it calls) are queued and done after the
/// delivery, in order (ReactiveCore's `SerialQueue`), so a sensor never receives a signal
/// inside another and every sensor receives the signals in the same order.
public final class SignalEmitter<Signal>: Emitter, OwnedChannel {
    /// The view this emitter sends for, if it is part of one (a relay's): what the joins'
    /// ordering walks to from a sensor registered here.
    weak var owner: AnyObject?

    /// Emitters take no signals.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = Signal

    private struct Entry {
        weak var sensor: (any Sensor<Signal>)?
        let identity: ObjectIdentifier
    }

    private enum Work {
        case register(any Sensor<Signal>)
        case deregister(any Sensor<Signal>)
        case send(Signal)
    }

    private var entries: [Entry] = []
    private let work = SerialQueue<Work>()

    /// An emitter with no sensors.
    public init() {}

    deinit {
        let live = entries.count { $0.sensor != nil }
        assert(
            live == 0,
            "SignalGraph: an emitter died with \(live) sensor(s) still registered; deregister every sensor before releasing its emitter (if you set it up, you must tear it down)"
        )
    }

    /// The number of registered sensors.
    public var sensorCount: Int { entries.count { $0.sensor != nil } }

    /// Registers `sensor`, now or after the delivery under way.
    ///
    /// - Precondition (debug builds): `sensor` is not registered on any emitter.
    public func register(_ sensor: any Sensor<Signal>) {
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        work.submit(.register(sensor)) { process($0) }
    }

    /// Deregisters `sensor`, now or after the delivery under way.
    ///
    /// - Precondition (debug builds): `sensor` is registered on this emitter.
    public func deregister(_ sensor: any Sensor<Signal>) {
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        work.submit(.deregister(sensor)) { process($0) }
    }

    /// Sends `signal` to every registered sensor, now or after the delivery under way.
    public func dispatch(_ signal: Signal) {
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        let sentAtOnce = work.runIfIdle({ send(signal) }, then: { process($0) })
        if !sentAtOnce { work.submit(.send(signal)) { process($0) } }
    }

    private func send(_ signal: Signal) {
        sent += 1
        for entry in entries { entry.sensor?.sense(signal) }
    }

    /// The number of signals sent, for inspection.
    private var sent = 0

    /// The registered sensors, in the order registered, for inspection.
    var sensorObjects: [AnyObject] { entries.compactMap { $0.sensor } }

    /// The number of signals sent, for inspection.
    var deliveredCount: Int { sent }

    private func process(_ item: Work) {
        switch item {
        case .register(let sensor):
            sensor.registration.attach(to: self)
            entries.append(Entry(sensor: sensor, identity: ObjectIdentifier(sensor)))
        case .deregister(let sensor):
            sensor.registration.checkAttached(to: self)
            let identity = ObjectIdentifier(sensor)
            entries.removeAll { $0.identity == identity }
            sensor.registration.emitter = nil
        case .send(let signal):
            send(signal)
        }
    }
}

extension SignalEmitter: Dispatcher {}

/// A sensor that hands each signal to a closure; it observes one emitter at a time.
///
/// ```swift
/// let sensor = SignalSensor<ValueSignal<Int>> { signal in print(signal) }
/// storage.register(sensor)    // prints .initiation(…)
/// storage.deregister(sensor)  // prints .termination(…)
/// ```
///
/// - Precondition (debug builds): it is deregistered before it is released.
public final class SignalSensor<Signal>: Sensor {
    /// The signals it receives.
    public typealias IncomingSignal = Signal
    /// It sends nothing on.
    public typealias OutgoingSignal = Never

    /// Where the sensor is registered.
    public let registration = SensorRegistration()
    /// What the sensor does with each signal.
    public var handler: (Signal) -> Void

    /// A sensor that runs `handler` for each signal.
    public init(_ handler: @escaping (Signal) -> Void = { _ in }) {
        self.handler = handler
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a sensor was released while still registered; deregister it first (if you set it up, you must tear it down)"
        )
    }

    /// Runs the handler.
    public func sense(_ signal: Signal) {
        handler(signal)
    }
}

extension SignalSensor: Monitor {}
