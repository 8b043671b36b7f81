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
