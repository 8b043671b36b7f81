import ReactiveCore

extension MessageSource: Inspectable {
    /// The chains connected to this observable, and the chains connected to them, as an
    /// `Inspection`: see ``SignalsInspector``.
    public func inspect() -> Inspection { SignalsInspector.inspect(relay) }
}

extension Property: Inspectable {
    /// The chains connected to ``didSet``: see ``SignalsInspector``.
    public func inspect() -> Inspection { didSet.inspect() }
}

extension Signal: Inspectable {
    /// The chains connected to ``fired``: see ``SignalsInspector``.
    public func inspect() -> Inspection { fired.inspect() }
}

/// How Signals' observables are inspected.
///
/// From the observable inspected, the inspector follows each connected modifier and what is
/// connected to it, down to the ends of the chains: a node per observable and modifier (its
/// kind is the type of its core: `OperatorCore` for `map`, `filter` and `then`, `ScanCore`,
/// `DistinctCore`...), with its last message where it keeps one and its number of connected
/// receivers; a node per second input of a two-source operator, with an edge to the operator.
/// The lists are read under each observable's lock, one at a time: on a graph other threads
/// change meanwhile, the inspection is a consistent view of each node, not of the whole.
///
/// Statistics: `modifiers` (the nodes below the observable) and `connections` (the edges).
public enum SignalsInspector {
    static func inspect(_ root: Receiver) -> Inspection {
        var builder = InspectionBuilder(paradigm: "Signals")
        var stack: [(Receiver, parent: Int?)] = [(root, nil)]
        var first = true
        while let (receiver, parent) = stack.popLast() {
            var kind = InspectionBuilder.kind(of: receiver)
            if first { kind = "observable" }
            var value: String?
            var details: [String: String] = [:]
            var downstream: [Receiver] = []
            if let relay = receiver as? any RelayInspection {
                value = relay.lastMessageDescription
                downstream = relay.receiversForInspection
                details["connected"] = "\(downstream.count)"
            } else if let side = receiver as? SideInput {
                kind = "second input"
                downstream = [side.target]
            }
            let (id, isNew) = builder.node(for: receiver, kind: kind, value: value, details: details)
            if let parent {
                builder.edge(from: parent, to: id)
                builder.count("connections")
            }
            guard isNew else { continue }
            if !first { builder.count("modifiers") }
            first = false
            for next in downstream.reversed() { stack.append((next, id)) }
        }
        builder.statistics["modifiers", default: 0] += 0
        builder.statistics["connections", default: 0] += 0
        return builder.build()
    }
}

/// A relay's receivers and last message, whatever its message type.
protocol RelayInspection {
    var receiversForInspection: [Receiver] { get }
    var lastMessageDescription: String? { get }
}

extension Relay: RelayInspection {
    var receiversForInspection: [Receiver] {
        state.withLock { state in state.list?.takeUnretainedValue().receivers } ?? []
    }

    var lastMessageDescription: String? { lastMessage.map { String(describing: $0) } }
}
