import Incremental
import TestSupport
import Testing

/// Nodes a `flatMap` makes, observed from outside while the selector and the base change,
/// the `flatMap` is observed and unobserved, read, and written in batches: each observer holds
/// its node's value (base plus the shift it was made with) or, once the node is invalidated,
/// ``InvalidatedNode``; the `flatMap` reads current; the graph is freed at the end.
@Suite("Engine: nodes made inside a flatMap, observed from outside (model)")
struct ScopeModelTests {
    @Test(
        "observers of made nodes hold their value or InvalidatedNode; the flatMap reads current; nothing leaks",
        arguments: Array(UInt64(1)...UInt64(8)))
    func madeNodesObserved(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        weak var weakGraph: Graph?
        do {
            let graph = Graph()
            weakGraph = graph
            let selector = graph.input(0)
            let base = graph.input(0)
            final class Made { var nodes: [(node: I<Int>, shift: Int)] = [] }
            let made = Made()
            let bound = selector.flatMap { shift in
                let node = base.map { $0 + shift }
                made.nodes.append((node, shift))
                return node
            }
            var boundConnection: Connection?
            var boundSeen: [Int] = []
            var madeConnections: [Int: Connection] = [:]
            var madeSeen: [Int: String] = [:]
            for step in 0..<400 {
                switch Int.random(in: 0..<8, using: &random) {
                case 0: selector.write(Int.random(in: 0..<4, using: &random))
                case 1, 2: base.write(Int.random(in: 0..<10, using: &random))
                case 3:
                    if let connection = boundConnection {
                        connection.disconnect()
                        boundConnection = nil
                    } else {
                        boundConnection = bound.observe { boundSeen.append($0) }
                    }
                case 4:
                    #expect(bound.value == base.value + selector.value, "seed \(seed) step \(step): bound")
                case 5 where !made.nodes.isEmpty:
                    let index = Int.random(in: 0..<made.nodes.count, using: &random)
                    if let connection = madeConnections.removeValue(forKey: index) {
                        connection.disconnect()
                        madeSeen[index] = nil
                    } else {
                        madeConnections[index] = made.nodes[index].node.observeResult { result in
                            switch result {
                            case .success(let value): madeSeen[index] = "\(value)"
                            case .failure(let error): madeSeen[index] = error is InvalidatedNode ? "invalid" : "error"
                            }
                        }
                    }
                case 6:
                    graph.batch {
                        selector.write(Int.random(in: 0..<4, using: &random))
                        base.write(Int.random(in: 0..<10, using: &random))
                    }
                default: break
                }
                if boundConnection != nil {
                    #expect(boundSeen.last == base.value + selector.value, "seed \(seed) step \(step): bound observer")
                }
                for (index, seen) in madeSeen {
                    let entry = made.nodes[index]
                    let expected = entry.node.isInvalid ? "invalid" : "\(base.value + entry.shift)"
                    #expect(seen == expected, "seed \(seed) step \(step): made \(index) (shift \(entry.shift))")
                }
            }
            boundConnection?.disconnect()
            for connection in madeConnections.values { connection.disconnect() }
            made.nodes.removeAll()
        }
        #expect(weakGraph == nil, "seed \(seed): graph leaked")
    }
}
