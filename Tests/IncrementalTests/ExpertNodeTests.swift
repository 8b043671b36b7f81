import Foundation
import Incremental
import TestSupport
import Testing

/// A combinator written outside the module with the expert API alone: the fold of a changing
/// collection of nodes under an invertible operation, O(1) per change of a member.
private final class UnorderedFold<Value, Accumulated> {
    let node: ExpertNode<Accumulated>
    private var accumulated: Accumulated
    private let add: (Accumulated, Value) -> Accumulated
    private let remove: (Accumulated, Value) -> Accumulated
    private var members: [ObjectIdentifier: (dependency: ExpertDependency<Value>, last: () -> Value?)] = [:]
    private(set) var changesSeen = 0

    init(
        graph: Graph, initial: Accumulated, add: @escaping (Accumulated, Value) -> Accumulated,
        remove: @escaping (Accumulated, Value) -> Accumulated
    ) {
        accumulated = initial
        self.add = add
        self.remove = remove
        var current: (() -> Accumulated)?
        node = graph.expertNode { current!() }
        current = { [unowned self] in accumulated }
    }

    func insert(_ member: I<Value>) {
        var last: Value?
        let dependency = ExpertDependency(member) { [unowned self] new in
            changesSeen += 1
            if let old = last { accumulated = remove(accumulated, old) }
            accumulated = add(accumulated, new)
            last = new
        }
        members[ObjectIdentifier(member)] = (dependency, { last })
        node.addDependency(dependency)
    }

    func removeMember(_ member: I<Value>) {
        guard let entry = members.removeValue(forKey: ObjectIdentifier(member)) else { return }
        if let last = entry.last() { accumulated = remove(accumulated, last) }
        node.removeDependency(entry.dependency)
    }
}

@Suite("Expert nodes")
struct ExpertNodeTests {
    private struct Failure: Error, Equatable {}

    @Test("an unordered fold written with the expert API follows its members, one onChange per change")
    func unorderedFold() {
        let graph = Graph()
        let inputs = (0..<1_000).map { graph.input($0) }
        let fold = UnorderedFold<Int, Int>(graph: graph, initial: 0, add: +, remove: -)
        for input in inputs { fold.insert(input.i) }
        var seen: [Int] = []
        let connection = fold.node.observe { seen.append($0) }
        #expect(seen == [499_500])
        #expect(fold.changesSeen == 1_000)
        inputs[10].write(1_010)
        inputs[999].write(0)
        graph.batch {
            inputs[0].write(5)
            inputs[1].write(6)
        }
        #expect(fold.changesSeen == 1_004)
        #expect(seen.last == inputs.reduce(0) { $0 + $1.value })
        fold.removeMember(inputs[500].i)
        #expect(seen.last == inputs.reduce(0) { $0 + $1.value } - 500)
        #expect(fold.node.dependencyCount == 999)
        connection.disconnect()
    }

    @Test("a change of one member costs the same with 200,000 members as with 200")
    func constantTimePerChange() {
        func secondsPerChange(members: Int) -> Double {
            let graph = Graph()
            let inputs = (0..<members).map { graph.input($0) }
            let fold = UnorderedFold<Int, Int>(graph: graph, initial: 0, add: +, remove: -)
            for input in inputs { fold.insert(input.i) }
            var last = 0
            let connection = fold.node.observe { last = $0 }
            let start = Date()
            for round in 0..<2_000 { inputs[round % 100].write(members + round) }
            let elapsed = Date().timeIntervalSince(start)
            #expect(last == inputs.reduce(0) { $0 + $1.value })
            connection.disconnect()
            return elapsed / 2_000
        }
        let small = secondsPerChange(members: 200)
        let large = secondsPerChange(members: 200_000)
        // Looking at every member would make the large fold about 1,000 times slower.
        #expect(large < small * 20, "per change: \(small * 1e6) µs with 200 members, \(large * 1e6) µs with 200,000")
    }

    @Test("model: random inserts, removals and writes against a plain sum, observed and not", arguments: 0..<10)
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let graph = Graph()
        let inputs = (0..<30).map { graph.input($0) }
        let doubled = inputs.map { $0.map { $0 * 2 } }
        let fold = UnorderedFold<Int, Int>(graph: graph, initial: 0, add: +, remove: -)
        var members: Set<Int> = []
        var connection: Connection?
        for _ in 0..<300 {
            let index = Int.random(in: 0..<30, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !members.contains(index):
                members.insert(index)
                fold.insert(doubled[index])
            case 1 where members.contains(index):
                members.remove(index)
                fold.removeMember(doubled[index])
            case 2:
                if connection == nil {
                    connection = fold.node.observe { _ in }
                } else {
                    connection?.disconnect()
                    connection = nil
                }
            default:
                inputs[index].write(Int.random(in: 0..<100, using: &random))
            }
            #expect(fold.node.value == members.reduce(0) { $0 + inputs[$1].value * 2 }, "seed \(seed)")
        }
        connection?.disconnect()
    }

    @Test("makeStale recomputes; invalidate leaves an error readers share; observability is reported")
    func staleInvalidAndObservability() {
        let graph = Graph()
        var runs = 0
        var observable: [Bool] = []
        let node = graph.expertNode(onObservabilityChange: { observable.append($0) }) { () -> Int in
            runs += 1
            return runs
        }
        let shown = node.map { "run \($0)" }
        var seen: [String] = []
        let connection = shown.observeResult { seen.append((try? $0.get()) ?? "invalid") }
        node.makeStale()
        graph.batch {
            node.makeStale()
            node.makeStale()
        }
        node.invalidate()
        #expect(seen == ["run 1", "run 2", "run 3", "invalid"])
        #expect(node.isInvalid)
        connection.disconnect()
        #expect(observable == [true, false])
    }

    @Test("a dependency's error is the node's while it lasts")
    func dependencyErrors() throws {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(2)
        let checkedA = a.map { value -> Int in
            if value < 0 { throw Failure() }
            return value
        }
        var total = 0
        let node = graph.expertNode { total }
        var lastA = 0
        node.addDependency(
            ExpertDependency(checkedA) { new in
                total += new - lastA
                lastA = new
            })
        var lastB = 0
        node.addDependency(
            ExpertDependency(b.i) { new in
                total += new - lastB
                lastB = new
            })
        let connection = node.observeResult { _ in }
        #expect(try node.get() == 3)
        a.write(-1)
        #expect(throws: Failure()) { try node.get() }
        b.write(5)
        #expect(throws: Failure()) { try node.get() }
        a.write(4)
        #expect(try node.get() == 9)
        connection.disconnect()
    }

    @Test("adding a dependency that belongs to a node already is a precondition failure")
    func addTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let node = graph.expertNode { 0 }
            let dependency = ExpertDependency(graph.input(1).i)
            node.addDependency(dependency)
            node.addDependency(dependency)
        }
        expectStandardError(of: result, contains: "Incremental: addDependency of a dependency that already belongs")
    }

    @Test("a dependency on a node of another graph is a precondition failure")
    func addFromAnotherGraph() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = Graph().expertNode { 0 }
            node.addDependency(ExpertDependency(Graph().input(1).i))
        }
        expectStandardError(of: result, contains: "Incremental: addDependency of a node of another graph")
    }

    @Test("removing a dependency the node does not have is a precondition failure")
    func removeUnknown() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            graph.expertNode { 0 }.removeDependency(ExpertDependency(graph.input(1).i))
        }
        expectStandardError(of: result, contains: "Incremental: removeDependency of a dependency this expert node")
    }

    @Test("removing a dependency while the node computes is a precondition failure")
    func removeWhileComputing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let dependency = ExpertDependency(graph.input(1).i)
            var node: ExpertNode<Int>?
            node = graph.expertNode {
                node?.removeDependency(dependency)
                return 0
            }
            node?.addDependency(dependency)
            _ = node?.value
        }
        expectStandardError(
            of: result, contains: "Incremental: removeDependency was called while the expert node computes")
    }
}
