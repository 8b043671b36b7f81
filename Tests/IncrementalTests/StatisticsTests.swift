import Incremental
import Testing

@Suite("Statistics")
struct StatisticsTests {
    @Test("the counters follow creation, changes, demand, invalidation and effects")
    func counters() {
        let graph = Graph()
        let a = graph.input(1)
        let useDouble = graph.input(true)
        let doubled = a.map { $0 * 2 }
        let chosen = useDouble.flatMap { $0 ? doubled.map { $0 + 1 } : graph.constant(0) }
        #expect(graph.statistics.nodesCreated == 4)
        #expect(graph.statistics.changes == 0)
        let connection = chosen.observe { _ in }
        let start = graph.statistics
        #expect(start.nodesCreated == 5)
        #expect(start.nodesAlive == 5)
        #expect(start.becameNecessary == 5)
        a.write(2)
        a.write(2)
        var now = graph.statistics
        #expect(now.changes - start.changes == 4)  // a, doubled, its +1, the flatMap
        #expect(now.recomputations - start.recomputations == 3)
        #expect(now.propagations - start.propagations == 1)
        useDouble.write(false)
        now = graph.statistics
        #expect(now.invalidations == 1)
        #expect(now.becameUnnecessary - start.becameUnnecessary == 3)
        connection.disconnect()
        let effect = graph.effect { _ = a.value }
        a.write(3)
        #expect(graph.statistics.effectRuns == 2)
        effect.dispose()
        #expect(graph.statistics.nodesAlive == graph.nodeCount)
    }
}
