import Foundation
import ReactiveCore
import Testing

@Suite("Inspections")
struct InspectionTests {
    private final class Box {}

    private func sample() -> Inspection {
        var builder = InspectionBuilder(paradigm: "Test")
        let (first, box) = (Box(), Box())
        let a = builder.node(for: first, kind: "input", name: "a", value: "1").id
        let again = builder.node(for: first, kind: "ignored")
        let b = builder.node(for: box, kind: "map", value: String(repeating: "x", count: 200), details: ["h": "1"]).id
        builder.edge(from: a, to: b, label: "first \"quoted\"")
        builder.edge(from: a, to: b, label: "first \"quoted\"")
        builder.count("deliveries", 2)
        builder.count("deliveries")
        #expect(again.id == a && !again.isNew)
        return builder.build()
    }

    @Test("a builder makes one node per object, one edge per pair and label, and sums counters")
    func builder() {
        let inspection = sample()
        #expect(inspection.nodes.map(\.kind) == ["input", "map"])
        #expect(inspection.edges.count == 1)
        #expect(inspection.statistics == ["deliveries": 3])
        #expect(inspection.nodes[1].value?.count == 80, "values are shortened to 80 characters")
        #expect(inspection.nodes(ofKind: "map").count == 1)
        #expect(InspectionBuilder.kind(of: [1: "a"]) == "Dictionary")
    }

    @Test("the JSON reads back as the same inspection, escapes included")
    func json() throws {
        let inspection = sample()
        let decoded = try JSONDecoder().decode(Inspection.self, from: Data(inspection.json().utf8))
        #expect(decoded == inspection)
        let empty = Inspection(paradigm: "line\nbreak\u{1}", nodes: [], edges: [], statistics: [:])
        #expect(try JSONDecoder().decode(Inspection.self, from: Data(empty.json().utf8)) == empty)
    }

    @Test("the dot output has a box per node, an arrow per edge, quotes escaped, and the counters in its label")
    func dot() {
        let dot = sample().dot
        #expect(dot.hasPrefix("digraph \"Test\" {"))
        #expect(dot.contains("label=\"Test: deliveries 3\""))
        #expect(dot.contains("n0 [label=\"a (input) = 1\"];"))
        #expect(dot.contains("n0 -> n1 [label=\"first \\\"quoted\\\"\"];"))
        #expect(dot.hasSuffix("}\n"))
    }
}
