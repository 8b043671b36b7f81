import DevTools
import Foundation
import Incremental

/// The devtools page's costs, timed by the report itself after each pass (`report
/// --devtools-json`): what RESULTS.md's DevTools table shows.
///
/// - `write`: `DevToolsPage.write(to:)` of a trace of a 10,000-node graph (100 layers of 100,
///   each node reading two of the layer before) and 100,000 steps (each changing three
///   nodes, with their values): nanoseconds per write, and the page's size in bytes.
/// - `open`: that page opened in headless Chromium, from navigation to the graph drawn (the
///   page's own `data-ready-ms`, `performance.now()` when its script has drawn everything);
///   absent when no Chromium is installed.
/// - `step`, `stepServed`: one input sent through a tape channel into an Incremental program
///   (an input, a chain of ten maps, observed), without a devtools server and with one
///   following the recorder while no page watches: nanoseconds per input.
struct DevToolsTiming: Codable {
    var name: String
    var nanoseconds: Double
    var iterations: Int
    /// The page's size, for `write`.
    var bytes: Int?
}

enum DevToolsTimings {
    static let nodes = 10_000
    static let steps = 100_000

    /// The large trace: `nodes` nodes in layers of 100, `steps` steps of three changes each.
    static func largeTrace() -> Trace {
        let width = 100
        var graphNodes: [Inspection.Node] = []
        var edges: [Inspection.Edge] = []
        for id in 0..<nodes {
            let layer = id / width
            graphNodes.append(
                Inspection.Node(
                    id: id, kind: layer == 0 ? "input" : "map", name: "n\(id)", value: "\(id)",
                    details: ["height": "\(layer)"]))
            if layer > 0 {
                let before = (layer - 1) * width
                edges.append(Inspection.Edge(from: before + id % width, to: id))
                edges.append(Inspection.Edge(from: before + (id * 7 + 3) % width, to: id))
            }
        }
        let graph = Inspection(paradigm: "Incremental", nodes: graphNodes, edges: edges, statistics: [:])
        let steps = (0..<steps).map { step in
            let changed = [step % nodes, (step * 31 + 100) % nodes, (step * 97 + 5_000) % nodes]
            return Trace.Step(
                time: .milliseconds(step), channel: "input \(step % 4)", input: "\(step)", changed: changed,
                told: [changed[2]], values: changed.map { Trace.NodeValue(id: $0, value: "\(step)") },
                counters: ["recomputations": 3])
        }
        return Trace(paradigm: "Incremental", graph: graph, steps: steps)
    }

    /// Times every measurement (`quick`: one iteration each) and writes them to `file`.
    static func write(to file: URL, quick: Bool) throws {
        var timings: [DevToolsTiming] = []
        let folder = FileManager.default.temporaryDirectory.appending(path: "devtools-timings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appending(path: "large.html").path

        let trace = largeTrace()
        let writes = try median(iterations: quick ? 1 : 5) {
            try DevToolsPage(trace: trace, title: "10,000 nodes, 100,000 steps").write(to: page)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int) ?? 0
        guard size > 0 else { throw ReportError(description: "devtools: the page was not written") }
        timings.append(DevToolsTiming(name: "write", nanoseconds: writes, iterations: quick ? 1 : 5, bytes: size))

        if let browser = chromium() {
            var opened: [Double] = []
            for _ in 0..<(quick ? 1 : 3) { opened.append(try openTime(browser: browser, page: page)) }
            opened.sort()
            timings.append(
                DevToolsTiming(name: "open", nanoseconds: opened[opened.count / 2], iterations: opened.count))
        } else {
            print("report: no Chromium, so the page's opening is not timed")
        }

        let iterations = quick ? 3 : 31
        timings.append(
            DevToolsTiming(
                name: "step", nanoseconds: try stepCost(served: false, iterations: iterations),
                iterations: iterations))
        timings.append(
            DevToolsTiming(
                name: "stepServed", nanoseconds: try stepCost(served: true, iterations: iterations),
                iterations: iterations))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(timings).write(to: file)
    }

    /// The median time of `iterations` runs of `body`, in nanoseconds.
    static func median(iterations: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        var times: [Duration] = []
        for _ in 0..<iterations { times.append(try clock.measure(body)) }
        times.sort()
        return nanoseconds(times[times.count / 2])
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    /// Nanoseconds per input sent through a tape channel into a ten-map chain, the median of
    /// `iterations` runs of 10,000 inputs; `served`: with a devtools server following the
    /// recorder and no page watching.
    static func stepCost(served: Bool, iterations: Int) throws -> Double {
        let graph = Graph()
        let input = graph.input(0)
        var node: I<Int> = input
        for _ in 0..<10 { node = node.map { $0 &+ 1 } }
        var seen = 0
        let observation = node.observe { seen = $0 }
        let recorder = TapeRecorder(scheduler: TestScheduler())
        let channel = recorder.channel("value") { (value: Int) in input.write(value) }
        let final = node
        let server = served ? try DevToolsServer(following: recorder, paradigm: "Incremental") { final.inspect() } : nil
        defer {
            server?.stop()
            observation.disconnect()
        }
        var next = 0
        let perRun = 10_000
        let time = try median(iterations: iterations) {
            for _ in 0..<perRun {
                next += 1
                channel.send(next)
            }
        }
        guard seen == next + 10 else {
            throw ReportError(description: "devtools: the chain saw \(seen), not \(next + 10)")
        }
        return time / Double(perRun)
    }

    /// The `chromium` on the path, if any.
    static func chromium() -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let path = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Opens `page` in headless Chromium and reads the page's `data-ready-ms` from its DOM:
    /// nanoseconds from navigation to the graph drawn.
    static func openTime(browser: String, page: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(filePath: browser)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--window-size=1400,900", "--dump-dom", "file://" + page,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = dom.range(of: "data-ready-ms=\""),
            let end = dom[range.upperBound...].firstIndex(of: "\""),
            let milliseconds = Double(dom[range.upperBound..<end])
        else {
            throw ReportError(description: "devtools: the page opened in Chromium did not say when it was drawn")
        }
        return milliseconds * 1e6
    }

    /// Reads the `devtools.json` of each pass that has one and keeps, for each measurement,
    /// the lowest.
    static func load(passes directories: [URL]) throws -> [String: DevToolsTiming] {
        var best: [String: DevToolsTiming] = [:]
        for directory in directories {
            let file = directory.appending(path: "devtools.json")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            for timing in try JSONDecoder().decode([DevToolsTiming].self, from: Data(contentsOf: file)) {
                if let kept = best[timing.name], kept.nanoseconds <= timing.nanoseconds { continue }
                best[timing.name] = timing
            }
        }
        return best
    }
}
