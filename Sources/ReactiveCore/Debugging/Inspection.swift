/// What a paradigm's engine looks like now: its nodes (values, storages, operators, chains,
/// stores, loops), the edges along which changes flow, and its counters.
///
/// Every paradigm's engine makes one (see ``Inspectable``): Incremental's graph below a node,
/// a Glue operator tree, a SignalGraph storage and the views and sensors registered on it, a
/// Resin store with its routes, a Cycle loop with its drivers' models, a Signals chain. Print
/// it as Graphviz's `dot` (``dot``) or as JSON (``json()``), or read it in a test.
///
/// ```swift
/// let inspection = total.inspect()   // an Incremental node
/// print(inspection.dot)              // paste into `dot -Tsvg`
/// ```
///
/// Edges go the way changes flow: from the node read (the upstream, the emitter) to the node
/// that reads it (the downstream, the sensor). Making an inspection computes nothing and
/// changes nothing.
public struct Inspection: Codable, Equatable, Sendable {
    /// One node.
    public struct Node: Codable, Equatable, Sendable, Identifiable {
        /// Its number in this inspection.
        public var id: Int
        /// What it is, in its paradigm's words: `map`, `input`, `Variable`, `ValueJoinStorage`.
        public var kind: String
        /// The name it was given for debugging, if any.
        public var name: String?
        /// Its value, where it has one and it prints (shortened to 80 characters).
        public var value: String?
        /// Further facts: whether it is necessary, how many sensors it has, its height.
        public var details: [String: String]

        /// A node.
        public init(id: Int, kind: String, name: String? = nil, value: String? = nil, details: [String: String] = [:]) {
            self.id = id
            self.kind = kind
            self.name = name
            self.value = value
            self.details = details
        }
    }

    /// One edge: changes flow from ``from`` to ``to``.
    public struct Edge: Codable, Equatable, Sendable {
        /// The upstream node's id.
        public var from: Int
        /// The downstream node's id.
        public var to: Int
        /// What the edge is, if it is not plain (`first`, `second`, `route`).
        public var label: String?

        /// An edge.
        public init(from: Int, to: Int, label: String? = nil) {
            self.from = from
            self.to = to
            self.label = label
        }
    }

    /// The paradigm that made it.
    public var paradigm: String
    /// The nodes, in the order they were found from the inspected roots.
    public var nodes: [Node]
    /// The edges.
    public var edges: [Edge]
    /// The engine's counters: deliveries, recomputations, subscriptions alive, and the
    /// paradigm's own (each paradigm's `inspect()` documents its keys).
    public var statistics: [String: Int]

    /// An inspection.
    public init(paradigm: String, nodes: [Node], edges: [Edge], statistics: [String: Int]) {
        self.paradigm = paradigm
        self.nodes = nodes
        self.edges = edges
        self.statistics = statistics
    }

    /// One inspection holding several, side by side: their nodes and edges renumbered after
    /// those of the ones before them, their statistics added up. For a paradigm whose
    /// structures are separate (a Signals chain per property); an object inspected in two
    /// of them is two nodes.
    public init(paradigm: String, merging inspections: [Inspection]) {
        var nodes: [Node] = []
        var edges: [Edge] = []
        var statistics: [String: Int] = [:]
        for inspection in inspections {
            let offset = nodes.count
            var renumbered: [Int: Int] = [:]
            for (index, node) in inspection.nodes.enumerated() {
                renumbered[node.id] = offset + index
                var node = node
                node.id = offset + index
                nodes.append(node)
            }
            for edge in inspection.edges {
                guard let from = renumbered[edge.from], let to = renumbered[edge.to] else { continue }
                edges.append(Edge(from: from, to: to, label: edge.label))
            }
            statistics.merge(inspection.statistics, uniquingKeysWith: +)
        }
        self.init(paradigm: paradigm, nodes: nodes, edges: edges, statistics: statistics)
    }

    /// The nodes of `kind`.
    public func nodes(ofKind kind: String) -> [Node] {
        nodes.filter { $0.kind == kind }
    }

    /// The inspection in Graphviz's `dot` language: a box per node with its kind, name, value
    /// and details, an arrow per edge, and the statistics in the graph's label.
    public var dot: String {
        var lines = [
            "digraph \(quoted(paradigm)) {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
        ]
        let statistics = self.statistics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("  label=\(quoted("\(paradigm): " + statistics.joined(separator: ", ")));")
        for node in nodes {
            var label = node.name.map { "\($0) (\(node.kind))" } ?? node.kind
            if let value = node.value { label += " = \(value)" }
            let details = node.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            if !details.isEmpty { label += "\\n" + details.joined(separator: ", ") }
            lines.append("  n\(node.id) [label=\(quoted(label))];")
        }
        for edge in edges {
            let label = edge.label.map { " [label=\(quoted($0))]" } ?? ""
            lines.append("  n\(edge.from) -> n\(edge.to)\(label);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The inspection as JSON, keys sorted, indented by two spaces, for tools: `JSONDecoder`
    /// reads it back as the same inspection. Made without Foundation.
    public func json() -> String {
        func string(_ text: String) -> String {
            var escaped = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }
        func object(_ members: [(String, String)], _ indent: String) -> String {
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = members.sorted { $0.0 < $1.0 }.map { "\(inner)\(string($0.0)) : \($0.1)" }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
        func array(_ items: [String], _ indent: String) -> String {
            guard !items.isEmpty else { return "[]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0 }.joined(separator: ",\n") + "\n\(indent)]"
        }
        let nodes = self.nodes.map { node in
            var members: [(String, String)] = [
                ("id", "\(node.id)"), ("kind", string(node.kind)),
                ("details", object(node.details.map { ($0.key, string($0.value)) }, "      ")),
            ]
            if let name = node.name { members.append(("name", string(name))) }
            if let value = node.value { members.append(("value", string(value))) }
            return object(members, "    ")
        }
        let edges = self.edges.map { edge in
            var members: [(String, String)] = [("from", "\(edge.from)"), ("to", "\(edge.to)")]
            if let label = edge.label { members.append(("label", string(label))) }
            return object(members, "    ")
        }
        return object(
            [
                ("paradigm", string(paradigm)), ("nodes", array(nodes, "  ")), ("edges", array(edges, "  ")),
                ("statistics", object(statistics.map { ($0.key, "\($0.value)") }, "  ")),
            ], "")
    }

    private func quoted(_ text: String) -> String {
        var escaped = "\""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}

/// Something that can show its paradigm's structure and counters: see ``Inspection``.
///
/// Incremental's nodes, Glue's observables and sources, SignalGraph's storages and emitters,
/// Resin's stores, Cycle's loops and Signals' observables conform.
public protocol Inspectable {
    /// A snapshot of the engine around this object: what it reads, what reads it, and the
    /// engine's counters. Computes nothing and changes nothing.
    func inspect() -> Inspection
}

/// Builds an ``Inspection`` one object at a time: each object found is one node, however many
/// times it is reached. For engines' `inspect()` methods, and for your own types.
public struct InspectionBuilder {
    private var paradigm: String
    private var nodes: [Inspection.Node] = []
    private var edges: [Inspection.Edge] = []
    private var ids: [ObjectIdentifier: Int] = [:]
    private var edgeSet: Set<[Int]> = []
    /// The statistics the inspection will carry.
    public var statistics: [String: Int] = [:]

    /// A builder for `paradigm`'s inspection.
    public init(paradigm: String) {
        self.paradigm = paradigm
    }

    /// The id of `object`'s node, if it has one yet.
    public func id(of object: AnyObject) -> Int? {
        ids[ObjectIdentifier(object)]
    }

    /// The node of `object`: made with these facts the first time, found again after.
    /// `isNew` says whether it was made now, so a walk visits each object once.
    public mutating func node(
        for object: AnyObject, kind: String, name: String? = nil, value: String? = nil,
        details: [String: String] = [:]
    ) -> (id: Int, isNew: Bool) {
        if let id = ids[ObjectIdentifier(object)] { return (id, false) }
        let id = add(kind: kind, name: name, value: value, details: details)
        ids[ObjectIdentifier(object)] = id
        return (id, true)
    }

    /// A node that stands for no object (a value type, a model's field); always new.
    public mutating func add(
        kind: String, name: String? = nil, value: String? = nil, details: [String: String] = [:]
    ) -> Int {
        let id = nodes.count
        nodes.append(
            Inspection.Node(id: id, kind: kind, name: name, value: value.map(Self.shortened), details: details))
        return id
    }

    /// An edge from `from` to `to`, unless the same one is there.
    public mutating func edge(from: Int, to: Int, label: String? = nil) {
        guard edgeSet.insert([from, to, label.hashValue]).inserted else { return }
        edges.append(Inspection.Edge(from: from, to: to, label: label))
    }

    /// Adds `amount` to the statistic `key`.
    public mutating func count(_ key: String, _ amount: Int = 1) {
        statistics[key, default: 0] += amount
    }

    /// The inspection.
    public func build() -> Inspection {
        Inspection(paradigm: paradigm, nodes: nodes, edges: edges, statistics: statistics)
    }

    /// `text`, cut to 80 characters.
    public static func shortened(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(79)) + "…"
    }

    /// The name of `value`'s type without its generic arguments: `MappedObservable` for a
    /// `MappedObservable<Variable<Int>, Int>`.
    public static func kind(of value: Any) -> String {
        let name = String(describing: type(of: value))
        return name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    }
}
