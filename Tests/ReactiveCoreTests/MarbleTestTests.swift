import Dispatch
import ReactiveCore
import ReactiveTesting
import TestSupport
import Testing

/// A stream that ends, for the kit's tests: a broadcaster of events that stops at the first
/// completion.
private final class EventBroadcaster<Value>: CompletableSubscribable {
    typealias Failure = MarbleFailure
    private let broadcaster = Broadcaster<StreamEvent<Value, MarbleFailure>>()
    private var ended = false

    func send(_ event: StreamEvent<Value, MarbleFailure>) {
        guard !ended else { return }
        if event.completion != nil { ended = true }
        broadcaster.send(event)
    }

    func subscribe(events sink: @escaping (StreamEvent<Value, MarbleFailure>) -> Void) -> Connection {
        broadcaster.subscribe(sink)
    }

    func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        broadcaster.subscribe { if let value = $0.value { sink(value) } }
    }
}

private struct MarbleFailure: Error, Equatable {}

/// A thread-safe stream that, as it is subscribed, delivers `count` values from many threads at
/// once, then finishes.
private struct ConcurrentBurst: CompletableSubscribable {
    typealias Failure = Never
    let count: Int

    func subscribe(events sink: @escaping @Sendable (StreamEvent<Int, Never>) -> Void) -> Connection {
        DispatchQueue.concurrentPerform(iterations: count) { sink(.value($0)) }
        sink(.completion(.finished))
        return Connection()
    }

    func subscribe(_ sink: @escaping @Sendable (Int) -> Void) -> Connection {
        subscribe(events: { if let value = $0.value { sink(value) } })
    }
}

@Suite("ReactiveTesting: marble diagrams and tests")
struct MarbleTestTests {
    @Test("a diagram's ticks: one per character, groups on one tick, names in brackets, spaces ignored")
    func parsing() throws {
        let diagram = try MarbleDiagram(parsing: "-a-(bc)-[ten] |")
        #expect(
            diagram.events == [
                .init(tick: 1, symbol: .value("a")), .init(tick: 3, symbol: .value("b")),
                .init(tick: 3, symbol: .value("c")), .init(tick: 5, symbol: .value("ten")),
                .init(tick: 6, symbol: .finished),
            ])
        #expect(try MarbleDiagram(parsing: "--#").events == [.init(tick: 2, symbol: .failed)])
        #expect(try MarbleDiagram(parsing: "~").events == [.init(tick: 0, symbol: .interrupted)])
        #expect(try MarbleDiagram(parsing: "").events.isEmpty)
        #expect(try MarbleDiagram(parsing: "-a-b") == MarbleDiagram(parsing: "- a - b"))
    }

    @Test("^ is time zero: what comes before it has negative ticks")
    func origin() throws {
        let diagram = try MarbleDiagram(parsing: "a-^-b")
        #expect(diagram.events == [.init(tick: -2, symbol: .value("a")), .init(tick: 2, symbol: .value("b"))])
    }

    @Test("rendering writes a tick per character and groups what shares a tick; parsing reads it back")
    func rendering() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            var events: [MarbleDiagram.Event] = []
            var tick = 0
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                tick += Int.random(in: 0...2, using: &random)
                let names = ["a", "b", "long", "-", "(", "x y"]
                events.append(.init(tick: tick, symbol: .value(names.randomElement(using: &random)!)))
            }
            if Bool.random(using: &random) {
                tick += Int.random(in: 0...2, using: &random)
                events.append(
                    .init(tick: tick, symbol: [.finished, .failed, .interrupted].randomElement(using: &random)!))
            }
            let rendered = MarbleDiagram(rendering: events)
            #expect(try MarbleDiagram(parsing: rendered.text).events == events, "\(rendered.text)")
        }
        #expect(
            MarbleDiagram(rendering: [.init(tick: 1, symbol: .value("a")), .init(tick: 1, symbol: .finished)]).text
                == "-(a|)")
    }

    @Test("a diagram that does not parse says where and why")
    func syntaxErrors() {
        let cases: [(String, Int, String)] = [
            ("-(a", 1, "a group is not closed"),
            ("(a(b))", 2, "groups do not nest"),
            ("a)", 1, "a group closes that was not opened"),
            ("-[ab", 1, "a value name opened with [ is not closed"),
            ("^-^", 2, "a diagram has one time zero (^)"),
            ("-a|b", 3, "nothing can follow the end of a stream (|, # or ~)"),
            ("(a-)", 2, "a group holds events, not ticks"),
            ("(^)", 1, "time zero cannot be inside a group"),
            ("a]", 1, "a value name closes that was not opened"),
        ]
        for (text, position, reason) in cases {
            #expect(throws: MarbleSyntaxError(diagram: text, position: position, reason: reason), "\(text)") {
                try MarbleDiagram(parsing: text)
            }
        }
        #expect(
            "\(MarbleSyntaxError(diagram: "-(a", position: 1, reason: "a group is not closed"))"
                == "marble diagram \"-(a\", at character 1: a group is not closed")
    }

    @Test(
        "a run sends the events before ^ first, subscribes, then plays each tick: disconnections, subscriptions, inputs"
    )
    func runOrder() {
        let marbles = MarbleTest()
        let input = Broadcaster<String>()
        marbles.play("ab^c-d-e", into: input.send)
        let whole = marbles.record(input)
        let late = marbles.record(input, subscription: "--^")
        let early = marbles.record(input, subscription: "^--!")
        marbles.run()
        #expect(whole.values == ["c", "d", "e"])
        marbles.expect(whole, "-c-d-e")
        #expect(late.events.map(\.tick) == [3, 5], "a subscription at tick 2 sees that tick's events, and later ones")
        #expect(early.values == ["c"], "a disconnection at tick 3 comes before that tick's events")
        #expect(input.isEmpty, "every recording's subscription ends with the run")
    }

    @Test("recording a completable stream keeps its values and its ending; values: name what is not a String")
    func completions() {
        let marbles = MarbleTest()
        let stream = EventBroadcaster<Int>()
        marbles.play("-1-2-#", values: ["1": 1, "2": 2], failure: MarbleFailure(), events: stream.send)
        let recording = marbles.record(stream)
        marbles.run()
        #expect(recording.values == [1, 2])
        #expect(recording.completion == .failed(MarbleFailure()))
        marbles.expect(recording, "-1-2-#", values: ["1": 1, "2": 2])
        #expect(recording.diagram.text == "-1-2-#")
        #expect(recording.diagram(names: ["one": 1]).text == "-[one]-2-#")
    }

    @Test("a run until a tick stops there; the scheduler's tick length sets timed work's place")
    func untilTick() {
        let marbles = MarbleTest(tick: .milliseconds(10))
        let input = Broadcaster<String>()
        marbles.play("a-b-c-d", into: input.send)
        let recording = marbles.record(input)
        let timer = marbles.scheduler.schedule(after: .milliseconds(25), isolated: { input.send("t") })
        marbles.run(untilTick: 4)
        marbles.expect(recording, "a-(bt)-c")
        #expect(marbles.currentTick == 4)
        _ = timer
    }

    @Test("a recording takes deliveries from many threads at once and loses none")
    func concurrentDeliveries() {
        let marbles = MarbleTest()
        let recording = marbles.record(ConcurrentBurst(count: 1_000))
        marbles.run()
        #expect(Set(recording.values) == Set(0..<1_000))
        #expect(recording.values.count == 1_000)
        #expect(recording.completion == .finished)
        #expect(recording.events.allSatisfy { $0.tick == 0 })
    }

    @Test("a mismatch records an issue that shows both diagrams")
    func mismatch() {
        let marbles = MarbleTest()
        let input = Broadcaster<String>()
        marbles.play("-a-b", into: input.send)
        let recording = marbles.record(input)
        marbles.run()
        withKnownIssue {
            #expect(!marbles.expect(recording, "-a--b"))
        } matching: { issue in
            "\(issue)".contains("expected: -a--b") && "\(issue)".contains("actual:   -a-b")
        }
        #expect(marbles.expect(recording, "-a-b"))
    }

    @Test("misused marble tests stop with a message")
    func misuse() async {
        let syntax = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MarbleTest().play("-(a", into: { _ in })
        }
        expectStandardError(
            of: syntax, contains: "ReactiveTesting: marble diagram \"-(a\", at character 1: a group is not closed")
        let tick = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MarbleTest(tick: .zero)
        }
        expectStandardError(of: tick, contains: "ReactiveTesting: a marble tick must be positive, got 0")
        let ending = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MarbleTest().play("-a|", into: { _ in })
        }
        expectStandardError(
            of: ending, contains: "ReactiveTesting: the diagram '-a|' ends, but its input takes values only")
        let failure = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MarbleTest().play("-#", values: [String: Int](), failure: Optional<MarbleFailure>.none, events: { _ in })
        }
        expectStandardError(
            of: failure, contains: "ReactiveTesting: the diagram '-#' fails (#): pass the error to send as failure:")
        let name = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let marbles = MarbleTest()
            marbles.play("-x", values: ["a": 1], into: { _ in })
            marbles.run()
        }
        expectStandardError(
            of: name, contains: "ReactiveTesting: the diagram '-x' names a value 'x' that values: does not have")
        let subscription = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MarbleTest().record(Broadcaster<Int>(), subscription: "-a-")
        }
        expectStandardError(
            of: subscription, contains: "ReactiveTesting: the diagram '-a-' is not a subscription diagram")
    }

    @Test("a marble test plays, records and runs once, in that order")
    func runOnce() async {
        let twice = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let marbles = MarbleTest()
            marbles.run()
            marbles.run()
        }
        expectStandardError(of: twice, contains: "ReactiveTesting: a MarbleTest runs once")
        let playLate = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let marbles = MarbleTest()
            marbles.run()
            marbles.play("-a", into: { _ in })
        }
        expectStandardError(
            of: playLate, contains: "ReactiveTesting: a MarbleTest plays its inputs before it runs, not after")
        let recordLate = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let marbles = MarbleTest()
            marbles.run()
            _ = marbles.record(Broadcaster<Int>())
        }
        expectStandardError(of: recordLate, contains: "ReactiveTesting: a MarbleTest records before it runs, not after")
        let unordered = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MarbleDiagram(rendering: [.init(tick: 2, symbol: .finished), .init(tick: 1, symbol: .finished)])
        }
        expectStandardError(
            of: unordered, contains: "ReactiveTesting: a rendered diagram needs events in order, from tick 0 on")
    }
}
