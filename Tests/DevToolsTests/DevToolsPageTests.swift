import DevTools
import Foundation
import ReactiveCore
import Testing

/// The JSON a page carries, read back as the page's script reads it.
private func pageData(_ html: String) throws -> [String: Any] {
    let opening = "<script type=\"application/json\" id=\"trace\">"
    let start = try #require(html.range(of: opening))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let json = Data(html[start.upperBound..<end.lowerBound].utf8)
    return try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
}

/// A trace with `count` nodes in a chain and a step per node.
private func chainTrace(nodes count: Int, label: (Int) -> String = { "node \($0)" }) -> Trace {
    let nodes = (0..<count).map {
        Inspection.Node(id: $0, kind: $0 == 0 ? "input" : "map", name: label($0), value: "\($0)")
    }
    let edges = (1..<max(count, 1)).map { Inspection.Edge(from: $0 - 1, to: $0) }
    let graph = Inspection(paradigm: "Test", nodes: nodes, edges: edges, statistics: ["recomputations": count])
    let steps = (0..<count).map {
        Trace.Step(
            time: .milliseconds($0), channel: "in", input: "\($0)", changed: [$0], told: [],
            values: [.init(id: $0, value: "\($0)")], counters: ["recomputations": 1])
    }
    return Trace(paradigm: "Test", graph: graph, steps: steps)
}

@Suite("Devtools pages: what the file holds")
struct DevToolsPageTests {
    @Test("the page carries every node, edge and step of the trace, read back as written")
    func carriesTheTrace() throws {
        let trace = chainTrace(nodes: 12)
        let data = try pageData(DevToolsPage(trace: trace, title: "Chain").html)
        let nodes = try #require(data["nodes"] as? [[String: Any]])
        let edges = try #require(data["edges"] as? [[Any]])
        let steps = try #require(data["steps"] as? [[String: Any]])
        #expect(nodes.count == 12 && edges.count == 11 && steps.count == 12)
        #expect(nodes.map { $0["name"] as? String } == (0..<12).map { "node \($0)" })
        #expect(steps.map { $0["ch"] as? [Int] } == (0..<12).map { [$0] })
        #expect(steps.map { $0["t"] as? Int } == (0..<12).map { $0 * 1_000_000 })
        #expect(data["channels"] as? [String] == ["in"])
        #expect(data["paradigm"] as? String == "Test" && data["title"] as? String == "Chain")
        #expect(data["live"] as? Bool == false)
    }

    @Test("hostile labels, values and inputs stay text: nothing closes the script or the markup")
    func hostileText() throws {
        let hostile = "</script><script>alert(1)</script><!-- \u{2028}\"'&<b>"
        var trace = chainTrace(nodes: 3) { _ in hostile }
        trace.graph.nodes[1].value = hostile
        trace.graph.nodes[2].details = [hostile: hostile]
        trace.graph.edges[0].label = hostile
        trace.steps[0].input = hostile
        trace.steps[0].diff = [Trace.Change(path: hostile, old: hostile, new: nil)]
        let html = DevToolsPage(trace: trace, title: hostile).html
        #expect(!html.contains("alert(1)</script>"))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<b>"))
        let script = try #require(html.range(of: "id=\"trace\">"))
        #expect(!html[script.upperBound...].contains("\u{2028}"))
        // Exactly the page's own two scripts.
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(html.components(separatedBy: "</script>").count == 3)
        let data = try pageData(html)
        let nodes = try #require(data["nodes"] as? [[String: Any]])
        #expect(nodes.allSatisfy { $0["name"] as? String == hostile })
        #expect(nodes[1]["value"] as? String == hostile)
        #expect((nodes[2]["details"] as? [String: String]) == [hostile: hostile])
        #expect(data["title"] as? String == hostile)
        let step = try #require((data["steps"] as? [[String: Any]])?.first)
        #expect(step["i"] as? String == hostile)
        #expect((step["d"] as? [[Any]])?.first?.first as? String == hostile)
    }

    @Test("a huge value is cut with a marker saying how long it was")
    func hugeValueCut() throws {
        let huge = String(repeating: "x", count: 1_000_000)
        var trace = chainTrace(nodes: 2)
        trace.graph.nodes[0].value = huge
        trace.steps[0] = Trace.Step(
            time: .zero, channel: "in", input: huge, diff: [.init(path: "p", old: huge, new: "y")])
        let html = DevToolsPage(trace: trace).html
        #expect(html.utf8.count < 100_000)
        let data = try pageData(html)
        let value = try #require((data["nodes"] as? [[String: Any]])?.first?["value"] as? String)
        #expect(value.hasSuffix("… (1000000 characters)"))
        #expect(value.count == Trace.valueLimit + "… (1000000 characters)".count)
        let step = try #require((data["steps"] as? [[String: Any]])?.first)
        #expect((step["i"] as? String)?.hasSuffix("… (1000000 characters)") == true)
    }

    @Test("times at and past the bounds of 64-bit nanoseconds are held there")
    func timeBounds() throws {
        var trace = chainTrace(nodes: 1)
        trace.steps = [.seconds(Int64.max), .seconds(-9_300_000_000), .nanoseconds(1_500), .zero].map {
            Trace.Step(time: $0, channel: "c", input: "")
        }
        let steps = try #require(pageData(DevToolsPage(trace: trace).html)["steps"] as? [[String: Any]])
        #expect(steps.map { $0["t"] as? Int } == [Int(Int64.max), Int(Int64.min), 1_500, 0])
    }

    @Test("the page names no other resource: no address, no external script, style or image")
    func selfContained() {
        let html = DevToolsPage(trace: chainTrace(nodes: 5)).html
        for forbidden in ["http://", "https://", "src=", "href=", "@import", "url("] {
            #expect(!html.contains(forbidden), "the page holds \(forbidden)")
        }
        #expect(html.contains("default-src 'none'"))
        #expect(html.contains("connect-src 'none'"))
    }

    @Test("an inspection alone makes a page with its graph and no step")
    func inspectionAlone() throws {
        let inspection = chainTrace(nodes: 4).graph
        let data = try pageData(DevToolsPage(inspection: inspection).html)
        #expect((data["nodes"] as? [Any])?.count == 4)
        #expect((data["steps"] as? [Any])?.isEmpty == true)
        #expect(data["title"] as? String == "Test")
    }

    @Test("write(to:) writes the page's HTML; a folder that is not there is an error")
    func writes() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "devtools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = DevToolsPage(trace: chainTrace(nodes: 3))
        let path = folder.appending(path: "page.html").path
        try page.write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == page.html)
        #expect(throws: (any Error).self) { try page.write(to: folder.appending(path: "missing/page.html").path) }
    }

    @Test(
        "a 10,000-node graph and a 20,000-step trace make a page of bounded size (timed at 100,000 in the benchmarks)")
    func large() throws {
        var trace = chainTrace(nodes: 10_000)
        trace.steps = (0..<20_000).map {
            Trace.Step(time: .microseconds($0), channel: "c\($0 % 3)", input: "\($0)", changed: [$0 % 10_000])
        }
        let html = DevToolsPage(trace: trace).html
        #expect(html.utf8.count < 4_000_000)
        let data = try pageData(html)
        #expect((data["steps"] as? [Any])?.count == 20_000)
        #expect((data["nodes"] as? [Any])?.count == 10_000)
        #expect((data["channels"] as? [String]) == ["c0", "c1", "c2"])
    }
}
