import Incremental
import TestSupport
import Testing

/// Random graphs with `flatMap` switches, nodes made inside `flatMap`s, batches (some that
/// undo themselves), observers coming and going, and reads, against a reference that
/// evaluates every node from scratch and says which nodes an observer needs.
@Suite("Engine: model")
struct GraphModelTests {
    /// How a node is computed, in terms of earlier nodes; values stay small so that cutoffs
    /// happen often.
    enum Spec {
        case input
        case map(Int, multiplier: Int, offset: Int)
        case map2(Int, Int)
        /// `condition` even picks `a`, odd picks `b` (a flatMap onto existing nodes).
        case choose(condition: Int, a: Int, b: Int)
        /// A flatMap over `selector` that makes a new node reading `base` on each switch.
        case make(selector: Int, base: Int)
    }

    /// The from-scratch evaluation.
    struct Reference {
        var specs: [Spec]
        var inputs: [Int: Int]

        /// The value of `node`, and every node its evaluation needs (only chosen branches).
        func evaluate(_ node: Int, needed: inout Set<Int>) -> Int {
            needed.insert(node)
            switch specs[node] {
            case .input:
                return inputs[node]!
            case .map(let input, let multiplier, let offset):
                return (evaluate(input, needed: &needed) * multiplier + offset) % 10
            case .map2(let a, let b):
                return (evaluate(a, needed: &needed) + evaluate(b, needed: &needed)) % 10
            case .choose(let condition, let a, let b):
                return evaluate(evaluate(condition, needed: &needed) % 2 == 0 ? a : b, needed: &needed)
            case .make(let selector, let base):
                let selected = evaluate(selector, needed: &needed)
                return (evaluate(base, needed: &needed) + selected) % 10
            }
        }

        func value(_ node: Int) -> Int {
            var needed: Set<Int> = []
            return evaluate(node, needed: &needed)
        }
    }

    /// The graph under test, with a count of closure runs per node (a `make` node counts its
    /// transform and the runs of the nodes it made).
    final class Subject {
        let graph = Graph()
        var nodes: [I<Int>] = []
        var inputs: [Int: Input<Int>] = [:]
        var runs: [Int: Int] = [:]

        func build(_ specs: [Spec], initial: [Int: Int]) {
            for (index, spec) in specs.enumerated() {
                let node: I<Int>
                switch spec {
                case .input:
                    let input = graph.input(initial[index]!)
                    inputs[index] = input
                    node = input
                case .map(let source, let multiplier, let offset):
                    node = nodes[source].map { [unowned self] in
                        runs[index, default: 0] += 1
                        return ($0 * multiplier + offset) % 10
                    }
                case .map2(let a, let b):
                    node = map2(nodes[a], nodes[b]) { [unowned self] in
                        runs[index, default: 0] += 1
                        return ($0 + $1) % 10
                    }
                case .choose(let condition, let a, let b):
                    let (nodeA, nodeB) = (nodes[a], nodes[b])
                    node = nodes[condition].flatMap { [unowned self] in
                        runs[index, default: 0] += 1
                        return $0 % 2 == 0 ? nodeA : nodeB
                    }
                case .make(let selector, let base):
                    let baseNode = nodes[base]
                    node = nodes[selector].flatMap { [unowned self] selected in
                        runs[index, default: 0] += 1
                        return baseNode.map { [unowned self] in
                            runs[index, default: 0] += 1
                            return ($0 + selected) % 10
                        }
                    }
                }
                nodes.append(node)
            }
        }
    }

    /// `dynamic`: how often, out of 12, a derived node is a flatMap (`choose` or `make`).
    static func randomSpecs(count: Int, dynamic: Int, using random: inout SeededGenerator) -> [Spec] {
        var specs: [Spec] = []
        for index in 0..<count {
            if index < 4 || Int.random(in: 0..<6, using: &random) == 0 {
                specs.append(.input)
                continue
            }
            func earlier() -> Int { Int.random(in: 0..<index, using: &random) }
            let kind = Int.random(in: 0..<12, using: &random)
            switch kind < dynamic ? 2 + kind % 2 : kind % 2 {
            case 0:
                specs.append(
                    .map(
                        earlier(), multiplier: Int.random(in: 1..<4, using: &random),
                        offset: Int.random(in: 0..<3, using: &random)))
            case 1: specs.append(.map2(earlier(), earlier()))
            case 2: specs.append(.choose(condition: earlier(), a: earlier(), b: earlier()))
            default: specs.append(.make(selector: earlier(), base: earlier()))
            }
        }
        return specs
    }

    @Test(
        "random graphs match a from-scratch evaluation; each closure runs at most once per propagation, only where needed",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as [UInt64])
    func randomGraphs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Seeds above 6 make few flatMaps, so that most propagations run in push order (a
        // write that reaches a flatMap makes the propagation pull instead).
        let specs = Self.randomSpecs(count: 40, dynamic: seed > 6 ? 1 : 6, using: &random)
        let inputIndices = specs.indices.filter { if case .input = specs[$0] { true } else { false } }
        var reference = Reference(specs: specs, inputs: [:])
        for index in inputIndices { reference.inputs[index] = Int.random(in: 0..<10, using: &random) }
        let subject = Subject()
        subject.build(specs, initial: reference.inputs)

        var connections: [Int: Connection] = [:]
        var delivered: [Int: [Int]] = [:]
        func observe(_ node: Int) {
            connections[node] = subject.nodes[node].observe { delivered[node, default: []].append($0) }
        }
        for _ in 0..<4 { observe(Int.random(in: 0..<specs.count, using: &random)) }

        for step in 0..<modelOperations / 3 {
            let context = "seed \(seed), step \(step)"
            subject.runs = [:]
            let deliveredBefore = delivered.mapValues(\.count)
            let referenceBefore = reference
            var read: Int?
            var expectsNoWork = false
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let input = inputIndices.randomElement(using: &random)!
                let value = Int.random(in: 0..<10, using: &random)
                reference.inputs[input] = value
                subject.inputs[input]!.write(value)
            case 4..<6:
                subject.graph.batch {
                    for _ in 0..<Int.random(in: 2...4, using: &random) {
                        let input = inputIndices.randomElement(using: &random)!
                        let value = Int.random(in: 0..<10, using: &random)
                        reference.inputs[input] = value
                        subject.inputs[input]!.write(value)
                    }
                }
            case 6:
                // A batch that writes and then restores every input it touched.
                expectsNoWork = true
                subject.graph.batch {
                    let touched = (0..<3).map { _ in inputIndices.randomElement(using: &random)! }
                    for input in touched { subject.inputs[input]!.write(Int.random(in: 0..<10, using: &random)) }
                    for input in touched { subject.inputs[input]!.write(reference.inputs[input]!) }
                }
            case 7:
                let node = Int.random(in: 0..<specs.count, using: &random)
                if let connection = connections.removeValue(forKey: node) {
                    connection.disconnect()
                    delivered[node] = nil
                } else {
                    observe(node)
                }
            default:
                let node = Int.random(in: 0..<specs.count, using: &random)
                read = node
                #expect(subject.nodes[node].value == reference.value(node), "\(context): read of \(node)")
            }

            // What observers (and the read) need now, from scratch.
            var needed: Set<Int> = []
            for node in connections.keys { _ = reference.evaluate(node, needed: &needed) }
            if let read { _ = reference.evaluate(read, needed: &needed) }
            for (node, count) in subject.runs {
                #expect(count <= (isMake(specs[node]) ? 2 : 1), "\(context): node \(node) ran \(count) times")
                #expect(needed.contains(node), "\(context): node \(node) ran, but nothing needs it")
            }
            if expectsNoWork {
                #expect(subject.runs.isEmpty, "\(context): a batch that undid itself recomputed \(subject.runs)")
            }
            for node in connections.keys {
                let values = delivered[node] ?? []
                #expect(values.last == reference.value(node), "\(context): observer of \(node)")
                let new = values.count - (deliveredBefore[node] ?? 0)
                #expect(new <= 1, "\(context): observer of \(node) was told \(new) times")
                if new == 1, let before = deliveredBefore[node], before > 0 {
                    #expect(
                        referenceBefore.value(node) != reference.value(node),
                        "\(context): observer of \(node) was told of an unchanged value")
                }
            }
        }
        for connection in connections.values { connection.disconnect() }
        for node in subject.nodes { #expect(!node.isNecessary) }
    }

    private func isMake(_ spec: Spec) -> Bool {
        if case .make = spec { true } else { false }
    }

    @Test("a random graph is freed with its last reference")
    func freed() {
        var random = SeededGenerator(seed: 99)
        weak var weakGraph: Graph?
        do {
            let subject = Subject()
            weakGraph = subject.graph
            let specs = Self.randomSpecs(count: 60, dynamic: 6, using: &random)
            var initial: [Int: Int] = [:]
            for index in specs.indices { if case .input = specs[index] { initial[index] = 1 } }
            subject.build(specs, initial: initial)
            let connections = subject.nodes.suffix(5).map { $0.observe { _ in } }
            for input in subject.inputs.values { input.write(2) }
            #expect(subject.graph.nodeCount >= specs.count)
            _ = connections
        }
        #expect(weakGraph == nil)
    }
}
