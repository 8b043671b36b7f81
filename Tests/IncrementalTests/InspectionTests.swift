import Incremental
import Testing

@Suite("Incremental: inspection")
struct IncrementalInspectionTests {
    @Test("a node's inspection shows the graph below it: kinds, names, values, edges and the graph's counters")
    func diamond() {
        let graph = Graph()
        let a = graph.input(1)
        a.debugName = "a"
        let b = a.map { $0 + 1 }
        let c = a.map { $0 * 2 }
        let d = map2(b, c, +)
        let watching = d.observe { _ in }
        a.write(2)
        let inspection = d.inspect()
        #expect(inspection.paradigm == "Incremental")
        #expect(inspection.nodes.count == 4)
        let input = inspection.nodes.first { $0.name == "a" }
        #expect(input?.value == "2" && input?.details["height"] == "0")
        let top = inspection.nodes.first { $0.details["observers"] == "1" }
        #expect(top?.value == "7" && top?.details["height"] == "2")
        #expect(inspection.edges.count == 4)
        #expect(inspection.edges.filter { $0.from == input?.id }.count == 2)
        #expect(inspection.statistics["propagations"] == graph.statistics.propagations)
        #expect(inspection.statistics["observers"] == 1)
        watching.disconnect()
        let after = d.inspect()
        #expect(after.nodes.allSatisfy { $0.details["necessary"] == "false" }, "inspecting computed nothing")
    }
}
