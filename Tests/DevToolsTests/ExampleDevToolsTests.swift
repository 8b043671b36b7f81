import DevTools
import ExampleSupport
import Foundation
import Incremental
import Testing

/// The steps a page file carries, as its script reads them.
private func pageSteps(atPath path: String) throws -> [[String: Any]] {
    let html = try String(contentsOfFile: path, encoding: .utf8)
    let opening = "<script type=\"application/json\" id=\"trace\">"
    let start = try #require(html.range(of: opening))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let data = try #require(
        JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    return try #require(data["steps"] as? [[String: Any]])
}

/// The values a step shows, by node id.
private func values(_ step: [String: Any]) -> [String] {
    ((step["v"] as? [[Any]]) ?? []).compactMap { $0.last as? String }
}

/// A counter the commands change: an Incremental input and its double, observed.
private final class Counter {
    let graph = Graph()
    let count: Input<Int>
    let doubled: I<Int>
    var observation: Connection?

    init() {
        count = graph.input(0)
        doubled = count.map { $0 * 2 }
        observation = doubled.observe { _ in }
    }
}

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("example-devtools-\(UUID())-\(name)").path
}

@Suite("The examples' devtools options")
struct ExampleDevToolsTests {
    @Test("a command's step shows the program after the command: when handled, at the next command, or at the end")
    func stepsAfterEachCommand() throws {
        let path = temporaryPath("page.html")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counter = Counter()
        let tape = CommandTape(record: nil, replay: nil, usage: "usage")
        tape.showDevTools(file: path, port: nil, title: "counter", usage: "usage") { counter.doubled.inspect() }
        #expect(try pageSteps(atPath: path).isEmpty)  // written at once, before any command

        tape.note("one")
        counter.count.write(1)
        tape.handled()
        #expect(try pageSteps(atPath: path).count == 1)
        tape.note("again")
        counter.count.write(1)  // the same value: a step that changes nothing
        tape.handled()
        tape.note("five")  // not marked handled: its step waits for the next command
        counter.count.write(5)
        #expect(try pageSteps(atPath: path).count == 2)
        tape.note("seven")
        counter.count.write(7)
        tape.finish()  // the last command's step, at the end

        let steps = try pageSteps(atPath: path)
        #expect(steps.map { $0["i"] as? String } == ["one", "again", "five", "seven"])
        #expect(steps.map { values($0).sorted() } == [["1", "2"], [], ["10", "5"], ["14", "7"]])
    }

    @Test("a command handled twice, or finished after it was handled, is one step")
    func handledOnce() throws {
        let path = temporaryPath("once.html")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counter = Counter()
        let tape = CommandTape(record: nil, replay: nil, usage: "usage")
        tape.showDevTools(file: path, port: nil, title: "counter", usage: "usage") { counter.doubled.inspect() }
        tape.note("one")
        counter.count.write(1)
        tape.handled()
        tape.handled()
        tape.finish()
        #expect(try pageSteps(atPath: path).count == 1)
    }

    @Test("without either option nothing is inspected or written")
    func nothingAsked() {
        let inspections = LockedCount()
        let counter = Counter()
        let tape = CommandTape(record: nil, replay: nil, usage: "usage")
        tape.showDevTools(file: nil, port: nil, title: "counter", usage: "usage") {
            inspections.add()
            return counter.doubled.inspect()
        }
        tape.note("one")
        counter.count.write(1)
        tape.handled()
        tape.finish()
        #expect(inspections.value == 0)
    }

    @Test("served: a page watching is sent the step of a command handled after it opened")
    func served() throws {
        let counter = Counter()
        let recorder = TapeRecorder(scheduler: TestScheduler())
        let send = recorder.channel("command") { (value: Int) in counter.count.write(value) }
        let devTools = ExampleDevTools(following: recorder, title: "counter", file: nil, port: 0, usage: "usage") {
            counter.doubled.inspect()
        }
        defer { devTools.finish() }
        let port = try #require(devTools.port)
        let events = try Client(port: port, path: "/events?after=0")
        #expect(events.read(until: "event: graph"))
        send.send(3)
        #expect(events.read(until: "\"i\":\"3\""))
    }

    @Test("a port that is taken stops the example, naming the port")
    func portTaken() async {
        let result = await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) {
            let recorder = TapeRecorder(scheduler: TestScheduler())
            let first = ExampleDevTools(following: recorder, title: "a", file: nil, port: 0, usage: "usage") {
                Inspection(paradigm: "a", nodes: [], edges: [], statistics: [:])
            }
            _ = ExampleDevTools(following: recorder, title: "b", file: nil, port: first.port, usage: "usage") {
                Inspection(paradigm: "b", nodes: [], edges: [], statistics: [:])
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("cannot listen on 127.0.0.1:"))
    }

    @Test("a page file that cannot be written stops the example with the reason")
    func fileUnwritable() async {
        await #expect(processExitsWith: .exitCode(2)) {
            let recorder = TapeRecorder(scheduler: TestScheduler())
            _ = ExampleDevTools(
                following: recorder, title: "a", file: "/nonexistent-folder/page.html", port: nil, usage: "usage"
            ) { Inspection(paradigm: "a", nodes: [], edges: [], statistics: [:]) }
        }
    }

    @Test("--devtools-serve takes a port from 0 to 65535")
    func portArgument() async {
        #expect(parseDevToolsPort("0", usage: "usage") == 0)
        #expect(parseDevToolsPort("65535", usage: "usage") == 65535)
        await #expect(processExitsWith: .exitCode(2)) { _ = parseDevToolsPort("65536", usage: "usage") }
        await #expect(processExitsWith: .exitCode(2)) { _ = parseDevToolsPort(nil, usage: "usage") }
    }

    @Test("the options are parsed beside the others")
    func options() {
        let options = parseExampleArguments(
            ["--devtools", "page.html", "--devtools-serve", "8080", "--paradigm", "glue"], paradigms: ["Glue"],
            usage: "usage")
        #expect(options.devtools == "page.html")
        #expect(options.devtoolsPort == 8080)
        #expect(options.paradigms == ["Glue"])
    }
}
