import Incremental
import TestSupport
import Testing

@Suite("flatMap")
struct FlatMapTests {
    @Test("dependency switch: the inactive branch no longer triggers anything")
    func dependencySwitch() {
        let graph = Graph()
        let counts = Counts()
        let useLeft = graph.input(true)
        let left = graph.input(1)
        let right = graph.input(100)
        let leftDerived = left.map(counts.counting("left") { $0 * 2 })
        let rightDerived = right.map(counts.counting("right") { $0 * 2 })
        let chosen = ifThenElse(useLeft, then: leftDerived, else: rightDerived)
        var seen: [Int] = []
        let connection = chosen.observe { seen.append($0) }
        #expect(counts["right"] == 0)
        useLeft.write(false)
        left.write(2)
        left.write(3)
        #expect(counts["left"] == 1)
        #expect(!leftDerived.isNecessary && !left.isNecessary)
        right.write(101)
        #expect(seen == [2, 200, 202])
        _ = connection
    }

    @Test("a flatMap that reads its own outer node stays consistent (the Swift original's bug)")
    func nestedReadsOuter() {
        let graph = Graph()
        let a = graph.input(1)
        let nested = a.flatMap { outer in a.map { inner in outer * 10 + inner } }
        let after = nested.map { $0 + 1000 }
        var seen: [Int] = []
        let connection = after.observe { seen.append($0) }
        a.write(2)
        a.write(3)
        #expect(seen == [1011, 1022, 1033])
        _ = connection
    }

    @Test("nested flatMaps rebuild and release the inner graphs they replace")
    func nestedRelease() {
        let graph = Graph()
        let outer = graph.input(1)
        let inner = graph.input(10)
        let built = outer.flatMap { o in inner.flatMap { i in graph.constant(o + i).map { $0 * 2 } } }
        var seen: [Int] = []
        let connection = built.observe { seen.append($0) }
        let liveWhileObserved = graph.nodeCount
        for value in 2...20 { outer.write(value) }
        inner.write(11)
        #expect(seen.last == (20 + 11) * 2)
        #expect(seen.count == 21)
        #expect(graph.nodeCount == liveWhileObserved)
        _ = connection
    }

    @Test("height repair: switching to a deeper node keeps everything above it consistent")
    func heightRepair() {
        let graph = Graph()
        let useDeep = graph.input(false)
        let base = graph.input(1)
        let deep = (0..<20).reduce(base.i) { node, _ in node.map { $0 + 1 } }
        let shallow = base.map { $0 }
        let chosen = useDeep.flatMap { $0 ? deep : shallow }
        let above = map2(chosen, base) { $0 * 1000 + $1 }
        var seen: [Int] = []
        let connection = above.observe { seen.append($0) }
        graph.batch {
            useDeep.write(true)
            base.write(2)
        }
        #expect(seen == [1001, 22002])
        #expect(chosen.height > deep.height)
        #expect(above.height > chosen.height)
        base.write(3)
        #expect(seen.last == 23003)
        _ = connection
    }

    @Test("a flatMap whose node depends on the flatMap itself is a cycle: precondition failure")
    func cycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let switcher = graph.input(0)
            final class Box { var node: I<Int>? }
            let box = Box()
            let bind = switcher.flatMap { $0 == 0 ? graph.constant(0) : box.node! }
            let dependent = bind.map { $0 + 1 }
            box.node = dependent
            let connection = dependent.observe { _ in }
            switcher.write(1)
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a node reads its own value")
    }

    @Test("an observer feedback loop that never settles stops with a message")
    func feedbackLoop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let a = graph.input(0)
            let connection = a.observe { a.write($0 + 1) }
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental: observers kept writing inputs for 100 propagations")
    }

    @Test("observing from inside a map closure is a precondition failure")
    func observeDuringRecompute() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let a = graph.input(0)
            let other = graph.input(0)
            let bad = a.map { value -> Int in
                _ = other.observe { _ in }
                return value
            }
            let connection = bad.observe { _ in }
            a.write(1)
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental: observe was called while the graph was recomputing")
    }

    @Test("combining values of two graphs is a precondition failure")
    func twoGraphs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = map2(Graph().input(1), Graph().input(2)) { $0 + $1 }
        }
        expectStandardError(of: result, contains: "Incremental: map2 of values from two different graphs")
    }

    @Test("map3 and mapN over values of different graphs are precondition failures")
    func twoGraphsWide() async {
        let map3Result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            _ = map3(graph.input(1), graph.input(2), Graph().input(3)) { $0 + $1 + $2 }
        }
        expectStandardError(of: map3Result, contains: "Incremental: map3 of values from different graphs")
        let mapNResult = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = mapN([Graph().input(1), Graph().input(2)]) { $0.count }
        }
        expectStandardError(of: mapNResult, contains: "Incremental: mapN of values from different graphs")
    }

    @Test("a flatMap whose closure returns a node of another graph is a precondition failure")
    func flatMapIntoAnotherGraph() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let other = Graph().input(2)
            let connection = Graph().input(1).flatMap { _ in other }.observe { _ in }
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental: flatMap returned a node of another graph")
    }

    @Test("mapN of nothing is a precondition failure")
    func emptyMapN() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = mapN([I<Int>]()) { $0.count }
        }
        expectStandardError(of: result, contains: "Incremental: mapN needs at least one node")
    }

    @Test("everything is freed after the last observer and reference go")
    func freed() {
        weak var weakGraph: Graph?
        weak var weakInput: Input<Int>?
        weak var weakDerived: I<Int>?
        do {
            let graph = Graph()
            let a = graph.input(1)
            let derived = a.flatMap { x in a.map { $0 + x } }.map { $0 * 2 }
            let connection = derived.observe { _ in }
            a.write(5)
            connection.disconnect()
            (weakGraph, weakInput, weakDerived) = (graph, a, derived)
        }
        #expect(weakGraph == nil)
        #expect(weakInput == nil)
        #expect(weakDerived == nil)
    }

    @Test("a flatMap read unobserved across a switch, then observed, still sees later writes below its left-hand side")
    func observedAfterUnobservedSwitch() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(10)
        let lhs = a.map { $0 }
        let bound = lhs.flatMap { shift in b.map { $0 + shift } }
        #expect(bound.value == 10)
        a.write(1)
        // The left-hand side changed: the flatMap picks again and invalidates the node its
        // last run made, which counts as a change of the graph while it computes.
        #expect(bound.value == 11)
        var seen: [Int] = []
        let connection = bound.observe { seen.append($0) }
        a.write(2)
        #expect(seen == [11, 12])
        #expect(bound.value == 12)
        b.write(20)
        #expect(seen == [11, 12, 22])
        connection.disconnect()
    }

    @Test("an observed node that a read of its flatMap invalidates tells its observer at once, and nothing leaks")
    func invalidatedByRead() {
        weak var weakGraph: Graph?
        do {
            let graph = Graph()
            weakGraph = graph
            let selector = graph.input(0)
            var made: [I<Int>] = []
            let bound = selector.flatMap { value in
                let node = graph.input(value).map { $0 * 10 }
                made.append(node)
                return node
            }
            #expect(bound.value == 0)
            var results: [String] = []
            let connection = made[0].observeResult { result in
                switch result {
                case .success(let value): results.append("\(value)")
                case .failure(let error): results.append(error is InvalidatedNode ? "invalidated" : "error")
                }
            }
            selector.write(1)
            // The flatMap is not observed: only this read makes it pick again, which
            // invalidates the node its last run made.
            #expect(bound.value == 10)
            #expect(results == ["0", "invalidated"])
            connection.disconnect()
            made.removeAll()
        }
        #expect(weakGraph == nil)
    }
}
