import ReactiveCore

/// The sending side of every storage and view: its sensors, the changes waiting to be
/// delivered, and the rule that keeps each sensor's picture of the state exact.
///
/// A storage changes its state at once and publishes each change here. Outside a delivery
/// the change goes out at once. During one (from a handler, or code it calls) it waits in a
/// FIFO queue shared with registrations and deregistrations, so no sensor receives a signal
/// inside another.
///
/// Because the state runs ahead of the signals while changes wait, each sensor is kept exact
/// on its own:
/// - a sensor registered while changes wait is initiated with the current state and skips
///   the waiting changes that state already holds;
/// - a sensor deregistered while changes wait receives the ones it has not seen, then a
///   termination with the current state.
///
/// So what a sensor receives, applied in order, always rebuilds the state its termination
/// carries, and every sensor receives the changes in the order they were made.
final class StateChannel<Snapshot, Transition>: OwnedChannel {
    typealias Signal = StateSignal<Snapshot, Transition>

    private struct Entry {
        weak var sensor: (any Sensor<Signal>)?
        let identity: ObjectIdentifier
        /// The number of changes published when the sensor was initiated; it skips those.
        let since: Int
        #if SIGNALGRAPH_INTERNAL_CHECKS
            /// The number of the last change sent to the sensor (`since` before the first):
            /// SG3 says they come one by one, each once.
            var received = 0
        #endif
    }

    private enum Change {
        case transition(Transition)
        case reset(old: Snapshot, new: Snapshot)
    }

    private enum Work {
        case register(any Sensor<Signal>)
        case deregister(any Sensor<Signal>)
        case deliver
    }

    private var entries: [Entry] = []
    private let work = SerialQueue<Work>()
    /// Changes published and not yet delivered, oldest first, from `waitingHead`.
    private var waiting: [Change] = []
    private var waitingHead = 0
    /// The number of changes published, and of those delivered.
    private var published = 0
    private var delivered = 0
    /// The owner's current state.
    private let current: () -> Snapshot
    /// The storage or view that owns the channel: what a sensor's registration is attached
    /// to is the channel, and the joins' ordering walks from it to its owner.
    weak var owner: AnyObject?

    init(current: @escaping () -> Snapshot) {
        self.current = current
    }

    deinit {
        let live = entries.count { $0.sensor != nil }
        assert(
            live == 0,
            "SignalGraph: an emitter died with \(live) sensor(s) still registered; deregister every sensor before releasing its emitter (if you set it up, you must tear it down)"
        )
    }

    /// The number of registered sensors.
    var sensorCount: Int { entries.count { $0.sensor != nil } }

    /// The registered sensors, in the order registered, for inspection.
    var sensorObjects: [AnyObject] { entries.compactMap { $0.sensor } }

    /// The number of changes delivered, for inspection.
    var deliveredCount: Int { delivered }

    /// Registers `sensor` now, or after the delivery under way; it is initiated with the
    /// state as it is then.
    func register(_ sensor: any Sensor<Signal>) {
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        work.submit(.register(sensor)) { process($0) }
    }

    /// Deregisters `sensor` now, or after the delivery under way.
    func deregister(_ sensor: any Sensor<Signal>) {
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        work.submit(.deregister(sensor)) { process($0) }
    }

    /// Sends `transition`, which the owner has just applied to its state.
    func publish(_ transition: Transition) {
        publish(.transition(transition))
    }

    /// Sends a termination with `old` and an initiation with `new`, the owner's state before
    /// and after it replaced it.
    func publishReset(from old: Snapshot, to new: Snapshot) {
        publish(.reset(old: old, new: new))
    }

    private func publish(_ change: Change) {
        // The outermost publish on this thread ends after every view it reaches has sensed
        // the change: the joins' deferred work runs then (DeliveryScope).
        let scope = DeliveryScope.enter()
        defer { scope.leave() }
        published += 1
        let deliveredAtOnce = work.runIfIdle(
            {
                delivered += 1
                deliver(change, number: delivered)
            }, then: { process($0) })
        if !deliveredAtOnce {
            waiting.append(change)
            work.submit(.deliver) { process($0) }
        }
    }

    /// Sends the change numbered `number` to the sensors that do not hold it yet.
    private func deliver(_ change: Change, number: Int) {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            _checkInvariants()
            for index in entries.indices where entries[index].since < number {
                signalGraphCheck(
                    entries[index].received == number - 1, "SG3",
                    "change \(number) reaches a sensor whose last change was \(entries[index].received)")
                entries[index].received = number
            }
        #endif
        for entry in entries where entry.since < number {
            if let sensor = entry.sensor { send(change, to: sensor) }
        }
    }

    private func process(_ item: Work) {
        switch item {
        case .register(let sensor):
            sensor.registration.attach(to: self)
            entries.append(Entry(sensor: sensor, identity: ObjectIdentifier(sensor), since: published))
            #if SIGNALGRAPH_INTERNAL_CHECKS
                entries[entries.count - 1].received = published
                _checkInvariants()
            #endif
            sensor.sense(.initiation(current()))
        case .deregister(let sensor):
            sensor.registration.checkAttached(to: self)
            let identity = ObjectIdentifier(sensor)
            if let index = entries.firstIndex(where: { $0.identity == identity }) {
                // The waiting changes this sensor has not seen, so that the termination's
                // state is the one its signals rebuild.
                let seen = max(entries[index].since, delivered)
                var position = waitingHead + (seen - delivered)
                #if SIGNALGRAPH_INTERNAL_CHECKS
                    signalGraphCheck(
                        entries[index].received == seen, "SG3",
                        "a deregistered sensor received changes up to \(entries[index].received), its replay starts after \(seen)"
                    )
                    signalGraphCheck(
                        waiting.count - position == published - seen, "SG3",
                        "a deregistered sensor is replayed \(waiting.count - position) changes, \(published - seen) are owed"
                    )
                #endif
                while position < waiting.count {
                    send(waiting[position], to: sensor)
                    position += 1
                }
                entries.remove(at: index)
            }
            sensor.sense(.termination(current()))
            sensor.registration.emitter = nil
        case .deliver:
            let change = waiting[waitingHead]
            waitingHead += 1
            delivered += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: waiting.count <= 16)
                waitingHead = 0
            }
            deliver(change, number: delivered)
        }
    }

    private func send(_ change: Change, to sensor: any Sensor<Signal>) {
        switch change {
        case .transition(let transition):
            sensor.sense(.transition(transition))
        case .reset(let old, let new):
            sensor.sense(.termination(old))
            sensor.sense(.initiation(new))
        }
    }
}

// MARK: - Invariants (Documentation/Internals/SignalGraph.md)

extension StateChannel {
    /// Checks SG3's accounting and SG4, stopping with a message that names the one broken.
    /// Does nothing unless the module is built with `SIGNALGRAPH_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            signalGraphCheck(
                delivered <= published && published - delivered == waiting.count - waitingHead, "SG3",
                "\(published) changes published, \(delivered) delivered, \(waiting.count - waitingHead) waiting")
            signalGraphCheck(
                work.isProcessing || published == delivered, "SG3",
                "no delivery is under way, yet \(published - delivered) changes wait")
            var identities = Set<ObjectIdentifier>()
            for entry in entries {
                signalGraphCheck(
                    entry.since <= published && entry.since <= entry.received && entry.received <= published,
                    "SG3",
                    "a sensor initiated after change \(entry.since) received up to \(entry.received) of \(published)")
                signalGraphCheck(
                    identities.insert(entry.identity).inserted, "SG4",
                    "a sensor is registered twice on one emitter")
                if let sensor = entry.sensor {
                    signalGraphCheck(
                        sensor.registration.emitter === self, "SG4",
                        "a registered sensor's registration names another emitter")
                }
            }
        #endif
    }
}
