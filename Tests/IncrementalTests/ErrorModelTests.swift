import Incremental
import TestSupport
import Testing

/// Random graphs whose maps throw for some values, with `flatMap` switches, batches and
/// observers coming and going, against a from-scratch evaluation that carries errors as the
/// engine documents: a node whose input holds an error holds the first such error in
/// argument order, and recovers when the inputs change and its closure succeeds.
@Suite("Engine: model with errors")
struct ErrorModelTests {
    /// The error a node's closure throws: which node threw.
    struct Thrown: Error, Equatable {
        var node: Int
    }

    enum Spec {
        case input
        /// Throws when its input's value is `failsOn`; otherwise `(x * multiplier) % 10`.
        case map(Int, multiplier: Int, failsOn: Int)
        case map2(Int, Int)
        /// `condition` even picks `a`, odd picks `b`.
        case choose(condition: Int, a: Int, b: Int)
        /// Makes, on each switch, a node reading `base` that throws when `base` plus the
        /// selector's value is 9.
        case make(selector: Int, base: Int)
    }

    typealias Value = Result<Int, Thrown>

    struct Reference {
        var specs: [Spec]
        var inputs: [Int: Int]

        func value(_ node: Int) -> Value {
            switch specs[node] {
            case .input:
                return .success(inputs[node]!)
            case .map(let input, let multiplier, let failsOn):
                return value(input).flatMap {
                    $0 == failsOn ? .failure(Thrown(node: node)) : .success($0 * multiplier % 10)
                }
            case .map2(let a, let b):
                return value(a).flatMap { a in value(b).map { (a + $0) % 10 } }
            case .choose(let condition, let a, let b):
                return value(condition).flatMap { value($0 % 2 == 0 ? a : b) }
            case .make(let selector, let base):
                return value(selector).flatMap { selected in
                    value(base).flatMap {
                        ($0 + selected) % 10 == 9 ? .failure(Thrown(node: node)) : .success(($0 + selected) % 10)
                    }
                }
            }
        }
    }

    static func randomSpecs(count: Int, using random: inout SeededGenerator) -> [Spec] {
        var specs: [Spec] = []
        for index in 0..<count {
            if index < 3 || Int.random(in: 0..<6, using: &random) == 0 {
                specs.append(.input)
                continue
            }
            func earlier() -> Int { Int.random(in: 0..<index, using: &random) }
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                specs.append(
                    .map(
                        earlier(), multiplier: Int.random(in: 1..<4, using: &random),
                        failsOn: Int.random(in: 0..<10, using: &random)))
            case 2, 3: specs.append(.map2(earlier(), earlier()))
            case 4: specs.append(.choose(condition: earlier(), a: earlier(), b: earlier()))
            default: specs.append(.make(selector: earlier(), base: earlier()))
            }
        }
        return specs
    }

    static func build(_ specs: [Spec], graph: Graph, initial: [Int: Int]) -> (
        nodes: [I<Int>], inputs: [Int: Input<Int>]
    ) {
        var nodes: [I<Int>] = []
        var inputs: [Int: Input<Int>] = [:]
        for (index, spec) in specs.enumerated() {
            switch spec {
            case .input:
                let input = graph.input(initial[index]!)
                inputs[index] = input
                nodes.append(input)
            case .map(let source, let multiplier, let failsOn):
                nodes.append(
                    nodes[source].map { value throws(Thrown) in
                        if value == failsOn { throw Thrown(node: index) }
                        return value * multiplier % 10
                    })
            case .map2(let a, let b):
                nodes.append(map2(nodes[a], nodes[b]) { ($0 + $1) % 10 })
            case .choose(let condition, let a, let b):
                let (nodeA, nodeB) = (nodes[a], nodes[b])
                nodes.append(nodes[condition].flatMap { $0 % 2 == 0 ? nodeA : nodeB })
            case .make(let selector, let base):
                let baseNode = nodes[base]
                nodes.append(
                    nodes[selector].flatMap { selected in
                        baseNode.map { value throws(Thrown) in
                            if (value + selected) % 10 == 9 { throw Thrown(node: index) }
                            return (value + selected) % 10
                        }
                    })
            }
        }
        return (nodes, inputs)
    }

    static func result(of node: I<Int>) -> Value {
        do {
            return .success(try node.get())
        } catch let error as Thrown {
            return .failure(error)
        } catch {
            return .failure(Thrown(node: -1))
        }
    }

    @Test(
        "random graphs with throwing closures match a from-scratch evaluation, read or observed",
        arguments: Array(UInt64(1)...UInt64(12)))
    func randomGraphs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let specs = Self.randomSpecs(count: 30, using: &random)
        var reference = Reference(specs: specs, inputs: [:])
        for index in specs.indices {
            if case .input = specs[index] { reference.inputs[index] = Int.random(in: 0..<10, using: &random) }
        }
        let inputIndices = reference.inputs.keys.sorted()
        let graph = Graph()
        let (nodes, inputs) = Self.build(specs, graph: graph, initial: reference.inputs)
        var connections: [Int: Connection] = [:]
        var delivered: [Int: Value] = [:]
        func observe(_ node: Int) {
            connections[node] = nodes[node].observeResult { result in
                delivered[node] = result.mapError { ($0 as? Thrown) ?? Thrown(node: -1) }
            }
        }
        for _ in 0..<5 { observe(Int.random(in: 0..<specs.count, using: &random)) }
        var failures = 0
        for step in 0..<modelOperations / 6 {
            let context = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let input = inputIndices.randomElement(using: &random)!
                let value = Int.random(in: 0..<10, using: &random)
                reference.inputs[input] = value
                inputs[input]!.write(value)
            case 4..<6:
                graph.batch {
                    for _ in 0..<Int.random(in: 2...4, using: &random) {
                        let input = inputIndices.randomElement(using: &random)!
                        let value = Int.random(in: 0..<10, using: &random)
                        reference.inputs[input] = value
                        inputs[input]!.write(value)
                    }
                }
            case 6:
                let node = Int.random(in: 0..<specs.count, using: &random)
                if let connection = connections.removeValue(forKey: node) {
                    connection.disconnect()
                    delivered[node] = nil
                } else {
                    observe(node)
                }
            default:
                let node = Int.random(in: 0..<specs.count, using: &random)
                #expect(Self.result(of: nodes[node]) == reference.value(node), "\(context): read of \(node)")
            }
            for node in connections.keys {
                let expected = reference.value(node)
                if case .failure = expected { failures += 1 }
                #expect(delivered[node] == expected, "\(context): observer of \(node)")
            }
        }
        #expect(failures > 0, "seed \(seed): no observed node ever held an error")
        for connection in connections.values { connection.disconnect() }
        for node in nodes { #expect(!node.isNecessary) }
    }
}
