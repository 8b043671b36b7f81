import Incremental
import TestSupport
import Testing

/// Random graphs (the specs of ``GraphModelTests``) whose observers act while they are
/// notified: they write inputs (alone, in batches, and in batches that undo themselves), read
/// nodes, disconnect other observers and add new ones.
/// Against a from-scratch evaluation of the inputs as last written: a read inside an
/// observer sees the current value, and at rest every observer has received it.
///
/// Run with 300 seeds and `INCREMENTAL_MODEL_OPERATIONS=12000`, it found a node observed after
/// an unobserved read across a `flatMap` switch that kept a stale value
/// (`FlatMapTests.observedAfterUnobservedSwitch` is the small case).
@Suite("Engine: model with reentrant observers")
struct ReentrantModelTests {
    typealias Spec = GraphModelTests.Spec

    /// What an observer does when notified (besides recording the value).
    enum Act {
        case nothing
        /// Writes `value` into input `input` while the budget lasts.
        case write(input: Int, value: Int)
        /// Reads node `node` and checks it against the reference.
        case read(Int)
        /// Disconnects the observer of `node`, if there is one.
        case disconnect(Int)
        /// Observes `node`, if nothing observes it.
        case observe(Int)
        /// In a batch, writes `value` into `input` and then its value before: no net change.
        case revert(input: Int, value: Int)
        /// In a batch, writes `value` into `first`, then into `second`, while the budget lasts.
        case batch(first: Int, second: Int, value: Int)
    }

    final class World {
        var reference: GraphModelTests.Reference
        let subject = GraphModelTests.Subject()
        var connections: [Int: Connection] = [:]
        /// Nodes whose `observe` call has not returned yet (its first delivery runs inside it).
        var connecting: Set<Int> = []
        var delivered: [Int: [Int]] = [:]
        var acts: [Int: Act] = [:]
        var budget = 0
        /// How many acts of each kind observers did, to check the run did some of each.
        var done: [String: Int] = [:]
        var context = ""
        let inputIndices: [Int]

        init(specs: [Spec], inputs: [Int: Int]) {
            reference = GraphModelTests.Reference(specs: specs, inputs: inputs)
            inputIndices = specs.indices.filter { if case .input = specs[$0] { true } else { false } }
            subject.build(specs, initial: inputs)
        }

        func write(_ input: Int, _ value: Int) {
            reference.inputs[input] = value
            subject.inputs[input]!.write(value)
        }

        /// Writes each pair (input, value) in order, in one batch.
        func writeInBatch(_ writes: [(Int, Int)]) {
            subject.graph.batch {
                for (input, value) in writes { write(input, value) }
            }
        }

        func observe(_ node: Int) {
            connecting.insert(node)
            defer { connecting.remove(node) }
            connections[node] = subject.nodes[node].observe { [unowned self] value in react(node, value) }
        }

        /// What the observer of `node` does when notified of `value`.
        func react(_ node: Int, _ value: Int) {
            delivered[node, default: []].append(value)
            switch acts[node] ?? .nothing {
            case .nothing:
                break
            case .write(let input, let written):
                guard budget > 0 else { return }
                budget -= 1
                done["write", default: 0] += 1
                write(input, (written + value) % 10)
            case .read(let other):
                done["read", default: 0] += 1
                #expect(
                    subject.nodes[other].value == reference.value(other),
                    "\(context): read of \(other) inside the observer of \(node)")
            case .disconnect(let other):
                if other != node, let connection = connections.removeValue(forKey: other) {
                    done["disconnect", default: 0] += 1
                    connection.disconnect()
                    delivered[other] = nil
                }
            case .observe(let other):
                if connections[other] == nil, !connecting.contains(other) {
                    done["observe", default: 0] += 1
                    observe(other)
                }
            case .revert(let input, let written):
                done["revert", default: 0] += 1
                writeInBatch([(input, (written + value) % 10), (input, reference.inputs[input]!)])
            case .batch(let first, let second, let written):
                guard budget > 0 else { return }
                budget -= 1
                done["batch", default: 0] += 1
                writeInBatch([(first, (written + value) % 10), (second, (written + 2 * value) % 10)])
            }
        }
    }

    @Test(
        "observers that write, batch, read, disconnect and observe while notified: reads are current, and at rest every observer holds the from-scratch value",
        arguments: [1, 2, 3, 9, 10, 12, 13, 14, 15, 17, 18, 21] as [UInt64])
    func reentrantObservers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let specs = GraphModelTests.randomSpecs(count: 30, dynamic: seed % 2 == 0 ? 6 : 1, using: &random)
        var inputs: [Int: Int] = [:]
        for index in specs.indices {
            if case .input = specs[index] { inputs[index] = Int.random(in: 0..<10, using: &random) }
        }
        let world = World(specs: specs, inputs: inputs)
        func randomNode() -> Int { Int.random(in: 0..<specs.count, using: &random) }
        for node in specs.indices {
            func randomInput() -> Int { world.inputIndices.randomElement(using: &random)! }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: world.acts[node] = .write(input: randomInput(), value: Int.random(in: 0..<10, using: &random))
            case 2, 3: world.acts[node] = .read(randomNode())
            case 4: world.acts[node] = .disconnect(randomNode())
            case 5: world.acts[node] = .observe(randomNode())
            case 6: world.acts[node] = .revert(input: randomInput(), value: Int.random(in: 1..<10, using: &random))
            case 7:
                world.acts[node] = .batch(
                    first: randomInput(), second: randomInput(), value: Int.random(in: 0..<10, using: &random))
            default: world.acts[node] = .nothing
            }
        }
        for _ in 0..<6 { world.observe(randomNode()) }

        for step in 0..<modelOperations / 6 {
            world.context = "seed \(seed), step \(step)"
            world.budget = 8
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                world.write(
                    world.inputIndices.randomElement(using: &random)!, Int.random(in: 0..<10, using: &random))
            case 5..<7:
                world.subject.graph.batch {
                    for _ in 0..<Int.random(in: 2...4, using: &random) {
                        world.write(
                            world.inputIndices.randomElement(using: &random)!,
                            Int.random(in: 0..<10, using: &random))
                    }
                }
            case 7:
                let node = randomNode()
                if let connection = world.connections.removeValue(forKey: node) {
                    connection.disconnect()
                    world.delivered[node] = nil
                } else {
                    world.observe(node)
                }
            default:
                let node = randomNode()
                #expect(
                    world.subject.nodes[node].value == world.reference.value(node), "\(world.context): read of \(node)")
            }
            for node in world.connections.keys {
                #expect(
                    world.delivered[node]?.last == world.reference.value(node),
                    "\(world.context): observer of \(node) holds \(world.delivered[node]?.last ?? -1), expected \(world.reference.value(node))"
                )
            }
        }
        for act in ["write", "read", "disconnect", "observe", "revert", "batch"] {
            #expect(world.done[act, default: 0] > 0, "seed \(seed): no observer did \(act) while notified")
        }
        for connection in world.connections.values { connection.disconnect() }
        for node in world.subject.nodes { #expect(!node.isNecessary) }
    }
}
