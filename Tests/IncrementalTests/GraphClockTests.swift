import Incremental
import TestSupport
import Testing

@Suite("GraphClock")
struct ClockTests {
    @Test("at and after flip from before to after when the instant arrives")
    func atAndAfter() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let deadline = clock.after(.seconds(30))
        var seen: [GraphClock.BeforeOrAfter] = []
        let connection = deadline.observe { seen.append($0) }
        scheduler.advance(by: .seconds(29))
        #expect(seen == [.before])
        scheduler.advance(by: .seconds(1))
        #expect(seen == [.before, .after])
        #expect(clock.at(.zero).value == .after)
        _ = connection
    }

    @Test("a step function changes at each step, and everything reading it changes together")
    func stepFunction() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let price = clock.stepFunction(initial: 10, steps: [(.zero + .seconds(60), 12), (.zero + .seconds(120), 15)])
        let quantity = graph.input(2)
        let total = map2(price, quantity) { $0 * $1 }
        let late = map2(clock.after(.seconds(60)), total) { $0 == .after ? $1 + 1 : $1 }
        var seen: [Int] = []
        let connection = late.observe { seen.append($0) }
        scheduler.advance(by: .seconds(60))
        scheduler.advance(by: .seconds(60))
        #expect(seen == [20, 25, 31])
        _ = connection
    }

    @Test("steps already past apply at once; releasing the value cancels its timers")
    func pastStepsAndRelease() {
        let graph = Graph()
        let scheduler = TestScheduler(now: .zero + .seconds(100))
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        var value: I<String>? = clock.stepFunction(
            initial: "a", steps: [(.zero + .seconds(50), "b"), (.zero + .seconds(150), "c")])
        #expect(value?.value == "b")
        #expect(scheduler.pendingCount == 1)
        value = nil
        #expect(scheduler.pendingCount == 0)
    }

    @Test("steps out of order are a precondition failure")
    func unorderedSteps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = GraphClock(graph: Graph(), scheduler: TestScheduler())
            _ = clock.stepFunction(initial: 0, steps: [(.zero + .seconds(2), 1), (.zero + .seconds(1), 2)])
        }
        expectStandardError(
            of: result, contains: "GraphClock.stepFunction: the steps must be in increasing order of instant")
    }
}

@Suite("GraphClock: Jane Street's time toolkit")
struct ClockToolkitTests {
    private struct Failure: Error, Equatable {}

    @Test("atIntervals counts the multiples passed, one change per instant, and stops when freed")
    func atIntervals() {
        let graph = Graph()
        let scheduler = TestScheduler()
        scheduler.advance(by: .milliseconds(500))
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        var ticks: I<Int>? = clock.atIntervals(.seconds(1))
        var seen: [Int] = []
        var connection = ticks?.observe { seen.append($0) }
        scheduler.advance(by: .milliseconds(999))
        #expect(seen == [0])
        scheduler.advance(by: .milliseconds(1))
        scheduler.advance(by: .seconds(3))
        #expect(seen == [0, 1, 2, 3, 4])
        connection?.disconnect()
        connection = nil
        ticks = nil
        #expect(scheduler.pendingCount == 0)
    }

    @Test("watchNow changes at every instant the clock acts at, in the same propagation")
    func watchNow() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let ticks = clock.atIntervals(.seconds(2))
        let now = clock.watchNow()
        var seen: [String] = []
        let connection = map(ticks, now) { ticks, now in "\(ticks)@\(now.offset)" }.observe { seen.append($0) }
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(3))
        #expect(seen == ["0@0.0 seconds", "1@2.0 seconds", "2@4.0 seconds"])
        connection.disconnect()
    }

    @Test("snapshot is the value before until the instant, then the value the node had then, for good")
    func snapshot() throws {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let price = clock.stepFunction(initial: 10, steps: [(.zero + .seconds(60), 12)])
        let opening = clock.snapshot(price, at: .zero + .seconds(60), before: 0)
        var seen: [Int] = []
        let connection = opening.observe { seen.append($0) }
        #expect(!price.isNecessary)
        scheduler.advance(by: .seconds(60))
        scheduler.advance(by: .seconds(60))
        #expect(seen == [0, 12])
        #expect(try opening.get() == 12)
        connection.disconnect()

        let source = graph.input(-1)
        let checked = source.map { value -> Int in
            if value < 0 { throw Failure() }
            return value
        }
        let failed = clock.snapshot(checked, at: clock.now + .seconds(1), before: 0)
        scheduler.advance(by: .seconds(1))
        source.write(1)
        #expect(throws: Failure()) { try failed.get() }
    }

    @Test("a step function that is a value of the graph applies each new schedule at once")
    func incrementalStepFunction() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let schedule = graph.input(StepFunction(initial: 10, steps: [(.zero + .seconds(60), 12)]))
        let price = clock.stepFunction(schedule)
        var seen: [Int] = []
        let connection = price.observe { seen.append($0) }
        scheduler.advance(by: .seconds(30))
        schedule.write(StepFunction(initial: 20, steps: [(.zero + .seconds(10), 21), (.zero + .seconds(90), 25)]))
        scheduler.advance(by: .seconds(30))
        #expect(seen == [10, 21])
        scheduler.advance(by: .seconds(30))
        #expect(seen == [10, 21, 25])
        connection.disconnect()
    }

    @Test("atIntervals of a non-positive interval is a precondition failure")
    func nonPositiveInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = GraphClock(graph: Graph(), scheduler: TestScheduler()).atIntervals(.zero)
        }
        expectStandardError(of: result, contains: "GraphClock.atIntervals: the interval must be positive")
    }

    @Test("a snapshot in the past is a precondition failure")
    func snapshotInThePast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.advance(by: .seconds(2))
            let graph = Graph()
            let clock = GraphClock(graph: graph, scheduler: scheduler)
            _ = clock.snapshot(graph.input(1), at: .zero + .seconds(1), before: 0)
        }
        expectStandardError(of: result, contains: "GraphClock.snapshot: the instant is in the past")
    }

    @Test("a snapshot of another graph's node is a precondition failure")
    func snapshotOfAnotherGraph() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = GraphClock(graph: Graph(), scheduler: TestScheduler())
            _ = clock.snapshot(Graph().input(1), at: .zero, before: 0)
        }
        expectStandardError(of: result, contains: "GraphClock.snapshot: the node belongs to another graph")
    }
}
