import ReactiveCore

// SignalGraph's inspector: the emitters, views, joins and sensors around an object, and who is
// registered on whom.

/// An emitter whose channel the inspector can read.
protocol InspectedEmitter: AnyObject {
    /// Its channel (itself, for a plain emitter).
    var inspectedChannel: any OwnedChannel { get }
    /// Its state, where it has one.
    var inspectedState: String? { get }
}

extension StateStorage: InspectedEmitter {
    var inspectedChannel: any OwnedChannel { channelForInspection }
    var inspectedState: String? { String(describing: state) }
}

extension TreeArrayStorage: InspectedEmitter {
    var inspectedChannel: any OwnedChannel { channelForInspection }
    var inspectedState: String? { String(describing: state) }
}

extension SignalEmitter: InspectedEmitter {
    var inspectedChannel: any OwnedChannel { self }
    var inspectedState: String? { nil }
}

extension SignalRelay: InspectedEmitter {
    var inspectedChannel: any OwnedChannel { emitter }
    var inspectedState: String? { nil }
}

extension StateStorage: Inspectable {
    /// The storages, views, joins and sensors connected to this one, upstream and downstream:
    /// see ``SignalGraphInspector``.
    public func inspect() -> Inspection { SignalGraphInspector.inspect(self) }
}

extension TreeArrayStorage: Inspectable {
    /// The storages, views, joins and sensors connected to this view: see
    /// ``SignalGraphInspector``.
    public func inspect() -> Inspection { SignalGraphInspector.inspect(self) }
}

extension SignalEmitter: Inspectable {
    /// The sensors registered on this emitter and what they feed: see ``SignalGraphInspector``.
    public func inspect() -> Inspection { SignalGraphInspector.inspect(self) }
}

extension SignalRelay: Inspectable {
    /// The relay, what it is registered on, and what it feeds: see ``SignalGraphInspector``.
    public func inspect() -> Inspection { SignalGraphInspector.inspect(self) }
}

/// How SignalGraph's objects are inspected.
///
/// From the object inspected, the inspector walks up to the emitters at the top (through each
/// sensor's registration, and each join's two inputs), then down from them through every
/// registered sensor. A node per storage, view, relay, join and sensor, with its state where it
/// has one and its number of sensors; an edge per registration, from the emitter to the sensor
/// (to the join, for a join's input, labelled with the input's name).
///
/// Statistics: `emitters`, `sensors` (registrations found) and `deliveries` (the changes the
/// storages and views delivered, and the signals plain emitters and relays sent).
public enum SignalGraphInspector {
    /// The inspection around `object`.
    static func inspect(_ object: AnyObject) -> Inspection {
        var builder = InspectionBuilder(paradigm: "SignalGraph")
        var visited: Set<ObjectIdentifier> = []
        for root in roots(above: object) { visit(root, &builder, &visited) }
        builder.statistics["emitters", default: 0] += 0
        builder.statistics["sensors", default: 0] += 0
        builder.statistics["deliveries", default: 0] += 0
        return builder.build()
    }

    /// The emitters at the top of what feeds `object` (itself, if nothing does).
    private static func roots(above object: AnyObject) -> [AnyObject] {
        var roots: [AnyObject] = []
        var seen: Set<ObjectIdentifier> = []
        var stack: [AnyObject] = [object]
        while let current = stack.popLast() {
            guard seen.insert(ObjectIdentifier(current)).inserted else { continue }
            let above = upstream(of: current)
            if above.isEmpty { roots.append(current) } else { stack += above }
        }
        return roots
    }

    /// What `object` is registered on: for a join, what its inputs are registered on.
    private static func upstream(of object: AnyObject) -> [AnyObject] {
        let registrations: [SensorRegistration] =
            if let join = object as? any JoiningView {
                join.inputRegistrations
            } else if let sensor = object as? any Sensor {
                [sensor.registration]
            } else {
                []
            }
        return registrations.compactMap { registration in
            guard let emitter = registration.emitter else { return nil }
            return (emitter as? any OwnedChannel)?.owner ?? emitter
        }
    }

    /// Visits `object` and what is registered on it; returns its node's id.
    @discardableResult
    private static func visit(
        _ object: AnyObject, _ builder: inout InspectionBuilder, _ visited: inout Set<ObjectIdentifier>
    ) -> Int {
        let emitter = object as? any InspectedEmitter
        let sensors = emitter?.inspectedChannel.sensorObjects ?? []
        let id = builder.node(
            for: object, kind: InspectionBuilder.kind(of: object), value: emitter?.inspectedState,
            details: emitter == nil ? [:] : ["sensors": "\(sensors.count)"]
        ).id
        guard visited.insert(ObjectIdentifier(object)).inserted, let emitter else { return id }
        builder.count("emitters")
        builder.count("deliveries", emitter.inspectedChannel.deliveredCount)
        for sensor in sensors {
            builder.count("sensors")
            if let input = sensor as? any JoinInputNode, let join = input.owner {
                let joinID = visit(join, &builder, &visited)
                builder.edge(from: id, to: joinID, label: input.side(in: join))
            } else {
                builder.edge(from: id, to: visit(sensor, &builder, &visited))
            }
        }
        return id
    }
}

/// A join's input, as the inspector sees it.
protocol JoinInputNode: AnyObject {
    var owner: AnyObject? { get }
}

extension JoinInputNode {
    /// `first`, `second`, `left` or `right`: which input of `join` this is.
    func side(in join: AnyObject) -> String? {
        guard let join = join as? any JoiningView else { return nil }
        let index = join.inputRegistrations.firstIndex { $0 === (self as? any Sensor)?.registration }
        return index.map { join.inputNames[$0] }
    }
}

extension JoinInput: JoinInputNode {}
