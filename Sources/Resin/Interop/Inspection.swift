import Incremental
import ReactiveCore

extension Store: Inspectable {
    /// The store's tree as an `Inspection`: the root store's state, every focus made from it
    /// (a focused store, a scoped or presented child, an element of a collection; named by its
    /// key path, and its element's id), and the routes: one node per action type with
    /// reducers or middleware registered for it, with an edge to each focus its registrations
    /// work on, and one per presentation route. Foci and routes alive now; the tree is the
    /// same whichever of its stores you inspect.
    ///
    /// Statistics: `foci`, `reducers`, `middleware`, `routes` (presentation routes),
    /// `runningEffects`, and the store's Incremental graph's `propagations` and
    /// `recomputations`.
    public func inspect() -> Inspection {
        var builder = InspectionBuilder(paradigm: "Resin")
        var root = node
        while let parent = root.parent { root = parent }
        var stack = [(root, parent: Int?.none)]
        while let (focus, parent) = stack.popLast() {
            var name: String?
            if let key = focus.key {
                name = "\(key.path)" + (key.id.map { "[\($0)]" } ?? "")
            }
            let value = focus.parent == nil ? (focus.store as? any StateDescribing)?.stateDescription : nil
            let (id, isNew) = builder.node(
                for: focus, kind: focus.parent == nil ? "root" : "focus", name: name, value: value,
                details: focus.hasOwnedEffects ? ["effects": "\(focus.ownedEffectCount)"] : [:])
            if let parent { builder.edge(from: parent, to: id) }
            guard isNew else { continue }
            builder.count("foci")
            for child in focus.childNodes { stack.append((child, id)) }
        }
        func addRoutes<Entry>(
            _ tables: [ObjectIdentifier: RouteTable<Entry>], kind: String, counting key: String,
            node: (Entry) -> FocusNode
        ) {
            for (type, table) in tables.sorted(by: { engine.name(of: $0.key) < engine.name(of: $1.key) }) {
                let lists = [table.unrouted] + Array(table.routed.values)
                let entries = lists.flatMap { $0.slots.compactMap { $0?.entry } }
                let route = builder.add(
                    kind: kind, name: engine.name(of: type), details: ["registrations": "\(entries.count)"])
                builder.count(key, entries.count)
                for entry in entries {
                    if let focus = builder.id(of: node(entry)) { builder.edge(from: route, to: focus) }
                }
            }
        }
        addRoutes(engine.reducers, kind: "reducers", counting: "reducers") { $0.node }
        addRoutes(engine.middlewareByType, kind: "middleware", counting: "middleware") { $0.node }
        let everyAction = engine.everyActionMiddleware.slots.compactMap { $0?.entry }
        if !everyAction.isEmpty {
            let route = builder.add(
                kind: "middleware", name: "every action", details: ["registrations": "\(everyAction.count)"])
            builder.count("middleware", everyAction.count)
            for entry in everyAction {
                if let focus = builder.id(of: entry.node) { builder.edge(from: route, to: focus) }
            }
        }
        for name in engine.routes.keys.sorted() {
            let count = engine.routes[name]?.count ?? 0
            _ = builder.add(kind: "route", name: name, details: ["registrations": "\(count)"])
            builder.count("routes", count)
        }
        for key in ["foci", "reducers", "middleware", "routes"] { builder.statistics[key, default: 0] += 0 }
        builder.statistics["runningEffects"] = engine.runningEffectCount
        builder.statistics["propagations"] = engine.graph.statistics.propagations
        builder.statistics["recomputations"] = engine.graph.statistics.recomputations
        return builder.build()
    }
}

/// A store's state as text, whatever its type, for the inspector.
protocol StateDescribing {
    var stateDescription: String { get }
}

extension Store: StateDescribing {
    var stateDescription: String { String(describing: input.value) }
}

extension Engine {
    /// The name of an action type registered for.
    func name(of type: ObjectIdentifier) -> String {
        actionTypeNames[type] ?? "\(type)"
    }
}

extension FocusNode {
    /// How many effects the focus owns.
    var ownedEffectCount: Int { ownedEffects.count + ownedPacers.count }
}
