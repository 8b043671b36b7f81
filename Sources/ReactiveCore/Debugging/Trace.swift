/// What a program did, input by input: the graph it ended with, and for each input what
/// changed in it. What the `DevTools` module draws as a page, and what a test can read.
///
/// A ``TraceRecorder`` makes one: after each input it takes an ``Inspection`` of the program
/// and compares it with the one before, node by node. A node that is new, or whose value or
/// details differ, *changed* in that step; a changed node that has observers (its details
/// count `observers`, `sensors`, `subscribers` or `connected` above zero) *told* them.
///
/// ```swift
/// let recorder = TapeRecorder(scheduler: scheduler)
/// let tracer = TraceRecorder(paradigm: "Incremental") { total.inspect() }
/// let following = tracer.follow(recorder)   // a step after each input, while kept
/// recorder.channel("price") { (value: Int) in price.write(value) }.send(12)
/// print(tracer.trace.steps[0].changed)  // the ids of the nodes that changed
/// ```
///
/// Steps name nodes by their id in ``graph``, the last inspection. A node that changed in a
/// step and is gone from the last inspection is counted in the step's ``Step/gone``.
public struct Trace: Codable, Equatable, Sendable {
    /// One input and what it changed.
    public struct Step: Codable, Equatable, Sendable {
        /// When the input arrived, from the start of the recording.
        public var time: Duration
        /// The channel it came through.
        public var channel: String
        /// The input's value, described (cut to ``Trace/valueLimit`` characters).
        public var input: String
        /// The ids, in ``Trace/graph``, of the nodes that changed, in the graph's order.
        public var changed: [Int]
        /// The changed nodes that have observers: whose observers were told.
        public var told: [Int]
        /// The values the changed nodes took, where they have one.
        public var values: [NodeValue]
        /// How much each of the engine's counters moved in the step (`recomputations`,
        /// `propagations`, …); counters that did not move are left out.
        public var counters: [String: Int]
        /// The state's differences the step made, for a store (Resin); empty otherwise.
        public var diff: [Change]
        /// How many of the nodes that changed are not in ``Trace/graph``.
        public var gone: Int

        /// A step.
        public init(
            time: Duration, channel: String, input: String, changed: [Int] = [], told: [Int] = [],
            values: [NodeValue] = [], counters: [String: Int] = [:], diff: [Change] = [], gone: Int = 0
        ) {
            self.time = time
            self.channel = channel
            self.input = Trace.shortened(input)
            self.changed = changed
            self.told = told
            self.values = values
            self.counters = counters
            self.diff = diff
            self.gone = gone
        }
    }

    /// A node's value after a step.
    public struct NodeValue: Codable, Equatable, Sendable {
        /// The node's id in ``Trace/graph``.
        public var id: Int
        /// Its value, described.
        public var value: String

        /// A node's value.
        public init(id: Int, value: String) {
            self.id = id
            self.value = value
        }
    }

    /// One changed part of a state: its path from the root, as in source (`items[2].title`),
    /// and what it was and became (`nil` where it was added or removed).
    public struct Change: Codable, Equatable, Sendable {
        /// The path from the root; empty for the whole state.
        public var path: String
        /// The part before, described; `nil` if it was added.
        public var old: String?
        /// The part after, described; `nil` if it was removed.
        public var new: String?

        /// A change.
        public init(path: String, old: String?, new: String?) {
            self.path = path
            self.old = old.map(Trace.shortened)
            self.new = new.map(Trace.shortened)
        }
    }

    /// The paradigm of the program.
    public var paradigm: String
    /// The graph the steps name their nodes in: the program's last inspection.
    public var graph: Inspection
    /// The values the nodes of ``graph`` had before the first step kept (those that were
    /// there and had one): with each step's ``Step/values``, the value of every node at
    /// every step.
    public var initial: [NodeValue]
    /// The steps, oldest first.
    public var steps: [Step]
    /// How many older steps were dropped to keep the trace within its capacity.
    public var dropped: Int

    private enum CodingKeys: String, CodingKey {
        case paradigm, graph, initial, steps, dropped
    }

    /// Decodes a trace, refusing one that no recorder could have made: a step that names a
    /// node its graph does not have, a negative count, or a time that is negative or past
    /// `Int64.max` seconds.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the step.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        paradigm = try container.decode(String.self, forKey: .paradigm)
        graph = try container.decode(Inspection.self, forKey: .graph)
        initial = try container.decodeIfPresent([NodeValue].self, forKey: .initial) ?? []
        steps = try container.decode([Step].self, forKey: .steps)
        dropped = try container.decode(Int.self, forKey: .dropped)
        func refuse(_ key: CodingKeys, _ message: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: container, debugDescription: "Trace: " + message)
        }
        guard dropped >= 0 else { throw refuse(.dropped, "a negative count of dropped steps, \(dropped)") }
        let ids = Set(graph.nodes.map(\.id))
        if let unknown = initial.first(where: { !ids.contains($0.id) }) {
            throw refuse(.initial, "an initial value for node \(unknown.id), which the graph does not have")
        }
        for (index, step) in steps.enumerated() {
            guard step.gone >= 0, step.time >= .zero, step.time <= .seconds(Int64.max) else {
                throw refuse(.steps, "step \(index + 1) has a negative count, or a time out of range")
            }
            if let unknown = (step.changed + step.told + step.values.map(\.id)).first(where: { !ids.contains($0) }) {
                throw refuse(.steps, "step \(index + 1) names node \(unknown), which the graph does not have")
            }
        }
    }

    /// A trace.
    public init(
        paradigm: String, graph: Inspection, initial: [NodeValue] = [], steps: [Step] = [], dropped: Int = 0
    ) {
        self.paradigm = paradigm
        self.graph = graph
        self.initial = initial
        self.steps = steps
        self.dropped = dropped
    }

    /// The longest description a trace keeps of an input, a value or a state's part: longer
    /// ones are cut, and end with `… (N characters)`.
    public static let valueLimit = 2_000

    /// `text`, cut to ``valueLimit`` characters with a marker saying how long it was.
    public static func shortened(_ text: String) -> String {
        guard text.utf8.count > valueLimit, text.count > valueLimit else { return text }
        return String(text.prefix(valueLimit)) + "… (\(text.count) characters)"
    }
}

/// Makes a ``Trace``: after each input, an inspection of the program compared with the one
/// before.
///
/// Follow a ``TapeRecorder`` (``follow(_:)``) to take a step after each input its channels
/// apply, live or in a replay, or call ``step(channel:input:time:diff:)`` yourself. Each step
/// costs an inspection of the program: trace a program while you look at it, or replay its
/// tape into a traced copy.
///
/// Nodes are matched from one inspection to the next by their kind, their name and how many
/// nodes of that kind and name came before them in the inspection's order: a program whose
/// graph keeps its shape has each node matched to itself; a node added where others of its
/// kind and name were counts as changed, with those after it.
///
/// Thread-safe: steps may be taken from any thread; one step's inspection and comparison
/// happen under the recorder's lock, so steps are in the order they were taken.
public final class TraceRecorder: Sendable {
    private struct State {
        /// The nodes before the first step kept: the first inspection's, then, as steps are
        /// dropped, brought forward by the dropped steps' changes.
        var initial: [Key: String?] = [:]
        var last: [Key: Inspection.Node] = [:]
        var lastStatistics: [String: Int] = [:]
        var lastGraph: Inspection
        var steps: [PendingStep] = []
        var dropped = 0
    }

    /// A node's identity from one inspection to the next.
    private struct Key: Hashable {
        var kind: String
        var name: String?
        var occurrence: Int
    }

    /// A step whose nodes are named by key until the trace is asked for.
    private struct PendingStep {
        var step: Trace.Step
        var changed: [(key: Key, told: Bool, value: String?)]
    }

    private struct Inspect: @unchecked Sendable {
        // Unchecked: `inspect` runs where the program's inputs are applied, under the
        // recorder's lock (see the class's documentation); the recorder only stores it.
        let inspect: () -> Inspection
    }

    private let paradigm: String
    private let inspect: Inspect
    private let state: LockedState<State>
    /// The most steps kept; older ones are dropped and counted in ``Trace/dropped``.
    public let capacity: Int

    /// A recorder of `paradigm`'s program, which `inspect` inspects, keeping at most
    /// `capacity` steps. Takes the first inspection now: steps compare with it.
    ///
    /// - Precondition: `capacity` is positive.
    public init(paradigm: String, capacity: Int = 100_000, inspect: @escaping () -> Inspection) {
        precondition(capacity > 0, "TraceRecorder: capacity must be positive, not \(capacity)")
        self.paradigm = paradigm
        self.capacity = capacity
        self.inspect = Inspect(inspect: inspect)
        let first = inspect()
        let keyed = Self.keyed(first)
        state = LockedState(
            State(
                initial: keyed.mapValues(\.value), last: keyed, lastStatistics: first.statistics, lastGraph: first))
    }

    /// Takes a step after each input `recorder`'s channels apply, named by its channel and
    /// described by its value, while the connection is connected (keep it: released, it
    /// disconnects).
    public func follow(_ recorder: TapeRecorder) -> Connection {
        recorder.afterEachInput { [self] entry in
            step(channel: entry.channel, input: Trace.describe(entry.box.value), time: entry.time)
        }
    }

    /// Takes a step: inspects the program and records what changed since the last step.
    public func step(channel: String, input: String, time: Duration, diff: [Trace.Change] = []) {
        state.withLock { state in
            let graph = inspect.inspect()
            let keyed = Self.keyed(graph)
            var changed: [(key: Key, told: Bool, value: String?)] = []
            for (node, key) in zip(graph.nodes, Self.keys(graph)) {
                let before = state.last[key]
                guard before == nil || before!.value != node.value || before!.details != node.details else {
                    continue
                }
                changed.append((key, Self.isObserved(node), node.value))
            }
            var counters: [String: Int] = [:]
            for (name, value) in graph.statistics where value != state.lastStatistics[name, default: 0] {
                counters[name] = value - state.lastStatistics[name, default: 0]
            }
            state.last = keyed
            state.lastStatistics = graph.statistics
            state.lastGraph = graph
            state.steps.append(
                PendingStep(
                    step: Trace.Step(time: time, channel: channel, input: input, counters: counters, diff: diff),
                    changed: changed))
            if state.steps.count > capacity {
                let excess = state.steps.count - capacity
                for pending in state.steps.prefix(excess) {
                    for change in pending.changed { state.initial[change.key] = change.value }
                }
                state.steps.removeFirst(excess)
                state.dropped += excess
            }
        }
    }

    /// The trace so far: the last inspection, and the steps naming their nodes in it.
    public var trace: Trace { trace(after: 0) }

    /// How many steps have been taken, the dropped ones included.
    public var stepCount: Int { state.withLock { $0.dropped + $0.steps.count } }

    /// The trace of the steps taken after the first `count` (the dropped ones included in
    /// the count), for a viewer that has those: the last inspection, the steps after `count`
    /// still kept, and, as ``Trace/dropped``, how many after `count` are not kept any more.
    /// Its ``Trace/initial`` values are those before the first step kept. Costs the steps it
    /// returns, not those before.
    public func trace(after count: Int) -> Trace {
        state.withLock { state in
            var ids: [Key: Int] = [:]
            for (node, key) in zip(state.lastGraph.nodes, Self.keys(state.lastGraph)) { ids[key] = node.id }
            let skipped = min(max(0, count - state.dropped), state.steps.count)
            let steps = state.steps[skipped...].map { pending in
                var step = pending.step
                for (key, told, value) in pending.changed {
                    guard let id = ids[key] else {
                        step.gone += 1
                        continue
                    }
                    step.changed.append(id)
                    if told { step.told.append(id) }
                    if let value { step.values.append(Trace.NodeValue(id: id, value: value)) }
                }
                return step
            }
            let initial = zip(state.lastGraph.nodes, Self.keys(state.lastGraph)).compactMap { node, key in
                state.initial[key].flatMap { $0 }.map { Trace.NodeValue(id: node.id, value: $0) }
            }
            return Trace(
                paradigm: paradigm, graph: state.lastGraph, initial: initial, steps: steps,
                dropped: max(0, state.dropped - max(0, count)))
        }
    }

    private static func keys(_ inspection: Inspection) -> [Key] {
        var seen: [Key: Int] = [:]
        return inspection.nodes.map { node in
            var key = Key(kind: node.kind, name: node.name, occurrence: 0)
            key.occurrence = seen[key, default: 0]
            seen[Key(kind: node.kind, name: node.name, occurrence: 0), default: 0] += 1
            return key
        }
    }

    private static func keyed(_ inspection: Inspection) -> [Key: Inspection.Node] {
        Dictionary(zip(keys(inspection), inspection.nodes), uniquingKeysWith: { first, _ in first })
    }

    /// Whether `node`'s details count observers of it.
    static func isObserved(_ node: Inspection.Node) -> Bool {
        ["observers", "sensors", "subscribers", "connected"].contains { key in
            node.details[key].flatMap { Int($0) }.map { $0 > 0 } ?? false
        }
    }
}

extension Trace {
    /// `value` described as a trace keeps it: its description, cut to ``valueLimit``.
    public static func describe(_ value: Any) -> String {
        shortened(String(describing: value))
    }
}
