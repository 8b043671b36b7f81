import TestSupport
import Testing

@testable import ReactiveCore

@Suite("TestScheduler")
struct TestSchedulerTests {
    @Test("due work runs in order of its instant, and now is its instant while it runs")
    func timeOrder() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let connections = [
            scheduler.schedule(after: .seconds(3), isolated: { log.append("c at \(scheduler.now)") }),
            scheduler.schedule(after: .seconds(1), isolated: { log.append("a at \(scheduler.now)") }),
            scheduler.schedule(after: .seconds(2), isolated: { log.append("b at \(scheduler.now)") }),
        ]
        scheduler.advance(by: .seconds(2))
        #expect(log == ["a at 1.0 seconds", "b at 2.0 seconds"])
        #expect(scheduler.now == .zero + .seconds(2))
        scheduler.advance(by: .seconds(10))
        #expect(log.last == "c at 3.0 seconds")
        #expect(scheduler.now == .zero + .seconds(12))
        #expect(connections.count == 3)
    }

    @Test("work due at the same instant runs in the order it was scheduled")
    func sameTimeFIFO() {
        let scheduler = TestScheduler()
        var log: [Int] = []
        let connections = (0..<100).map { index in
            scheduler.schedule(after: .seconds(5), isolated: { log.append(index) })
        }
        scheduler.advance(by: .seconds(5))
        #expect(log == Array(0..<100))
        #expect(connections.allSatisfy { $0.isConnected })
    }

    @Test("work scheduled by work runs in the same advance, in its place")
    func workScheduledByWork() {
        let scheduler = TestScheduler()
        var log: [String] = []
        var nested: [Connection] = []
        let first = scheduler.schedule(
            after: .seconds(1),
            isolated: {
                log.append("first")
                nested.append(scheduler.schedule(after: .zero, isolated: { log.append("nested now") }))
                nested.append(scheduler.schedule(after: .seconds(1), isolated: { log.append("nested +1") }))
                nested.append(scheduler.schedule(after: .seconds(10), isolated: { log.append("nested +10") }))
            })
        let second = scheduler.schedule(after: .seconds(1), isolated: { log.append("second") })
        let third = scheduler.schedule(after: .seconds(2), isolated: { log.append("third") })
        scheduler.advance(by: .seconds(2))
        #expect(log == ["first", "second", "nested now", "third", "nested +1"])
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextInstant == .zero + .seconds(11))
        _ = (first, second, third)
    }

    @Test("work scheduled in the past is due at once")
    func pastIsNow() {
        let scheduler = TestScheduler(now: .zero + .seconds(10))
        var ranAt: SchedulerInstant?
        let connection = scheduler.schedule(at: .zero, isolated: { ranAt = scheduler.now })
        scheduler.advance()
        #expect(ranAt == .zero + .seconds(10))
        _ = connection
    }

    @Test("disconnecting or releasing the connection cancels the work and frees it")
    func cancellation() {
        let scheduler = TestScheduler()
        let runs = Counter()
        weak var weakToken: Token?
        let kept: Connection
        do {
            let token = Token()
            weakToken = token
            kept = scheduler.schedule(after: .seconds(1)) {
                _ = token; runs.increment()
            }
            _ = scheduler.schedule(after: .seconds(1)) { runs.increment() }
        }
        #expect(scheduler.pendingCount == 1)
        kept.disconnect()
        #expect(weakToken == nil)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(runs.value == 0)
    }

    @Test("cancelled work does not grow the queue: the heap is rebuilt once dead entries outnumber live ones")
    func cancelledWorkIsDropped() {
        var queue = ScheduleQueue<Int>()
        let keep = queue.insert(-1, at: .zero + .seconds(1_000))
        for round in 0..<10 {
            // Keys far in the future, so that none reaches the top and is dropped there.
            let keys = (0..<1_000).map { queue.insert($0, at: .zero + .seconds(2_000 + round * 1_000 + $0)) }
            for key in keys { #expect(queue.remove(key) != nil) }
            #expect(queue.count == 1)
            #expect(queue.heapCount <= 130, "round \(round): \(queue.heapCount) heap entries for 1 live one")
        }
        #expect(queue.nextInstant == .zero + .seconds(1_000))
        #expect(queue.remove(keep) == -1)
        #expect(queue.count == 0 && queue.nextInstant == nil)
    }

    @Test("advance(to:) moves to the instant even when nothing is due")
    func advanceTo() {
        let scheduler = TestScheduler()
        scheduler.advance(to: .zero + .milliseconds(1500))
        #expect(scheduler.now == SchedulerInstant(offset: .milliseconds(1500)))
    }

    @Test("run() runs everything, including work scheduled while running")
    func runAll() {
        let scheduler = TestScheduler()
        var log: [Int] = []
        var connections: [Connection] = []
        func chain(_ step: Int) {
            log.append(step)
            if step < 5 {
                connections.append(scheduler.schedule(after: .seconds(60), isolated: { chain(step + 1) }))
            }
        }
        connections.append(scheduler.schedule(after: .seconds(60), isolated: { chain(1) }))
        scheduler.run()
        #expect(log == [1, 2, 3, 4, 5])
        #expect(scheduler.now == .zero + .seconds(300))
        #expect(scheduler.pendingCount == 0)
    }

    @Test("schedule(every:) ticks on schedule until disconnected")
    func repeating() {
        let scheduler = TestScheduler()
        var ticks: [SchedulerInstant] = []
        let timer = scheduler.schedule(every: .seconds(1), isolated: { ticks.append(scheduler.now) })
        scheduler.advance(by: .milliseconds(3500))
        #expect(ticks == [1, 2, 3].map { .zero + .seconds($0) })
        timer.disconnect()
        scheduler.advance(by: .seconds(10))
        #expect(ticks.count == 3)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("schedule(every:startingAt:) starts at the given instant")
    func repeatingFromStart() {
        let scheduler = TestScheduler()
        var ticks: [SchedulerInstant] = []
        let timer = scheduler.schedule(every: .seconds(2), startingAt: .zero, isolated: { ticks.append(scheduler.now) })
        scheduler.advance(by: .seconds(4))
        #expect(ticks == [0, 2, 4].map { .zero + .seconds($0) })
        _ = timer
    }

    @Test("a repeating schedule that falls behind drops the missed ticks")
    func missedTicksAreDropped() {
        let base = TestScheduler()
        let lagging = LaggingScheduler(base: base)
        var ticks: [SchedulerInstant] = []
        let timer = lagging.schedule(
            every: .seconds(1),
            isolated: {
                ticks.append(base.now)
                // The first tick makes the scheduler report 2.5 s of lag from now on.
                lagging.lag = .milliseconds(2500)
            })
        base.advance(by: .seconds(6))
        // Tick at 1 s; the clock then reads 3.5 s, so 2 s and 3 s are dropped: next is 4 s.
        #expect(ticks.first == .zero + .seconds(1))
        #expect(ticks.dropFirst().first == .zero + .seconds(4))
        _ = timer
    }

    @Test("a repeating schedule frees its work when disconnected")
    func repeatingFreesWork() {
        let scheduler = TestScheduler()
        weak var weakToken: Token?
        var timer: Connection?
        do {
            let token = Token()
            weakToken = token
            timer = scheduler.schedule(every: .seconds(1)) { _ = token }
        }
        scheduler.advance(by: .seconds(3))
        #expect(weakToken != nil)
        timer?.disconnect()
        #expect(weakToken == nil)
    }

    @Test("advancing backwards is a precondition failure")
    func advanceBackwards() async {
        let toInstant = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler(now: .zero + .seconds(5)).advance(to: .zero)
        }
        expectStandardError(of: toInstant, contains: "TestScheduler.advance(to:) cannot move time backwards")
        let byDuration = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: .seconds(-1))
        }
        expectStandardError(of: byDuration, contains: "TestScheduler.advance(by:) cannot move time backwards")
    }

    @Test("advancing from inside scheduled work is a precondition failure")
    func advanceFromWork() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            let connection = scheduler.schedule(after: .seconds(1)) { scheduler.advance(by: .seconds(1)) }
            scheduler.advance(by: .seconds(1))
            _ = connection
        }
        expectStandardError(of: result, contains: "TestScheduler was advanced while it was already advancing")
    }

    @Test("run() with a repeating timer stops with a precondition failure")
    func runForever() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            let timer = scheduler.schedule(every: .seconds(1)) {}
            scheduler.run(limit: 1_000)
            _ = timer
        }
        expectStandardError(
            of: result, contains: "TestScheduler.run() ran 1000 pieces of work and the queue is still not empty")
    }

    @Test("schedule(every:) with a zero interval is a precondition failure")
    func zeroInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestScheduler().schedule(every: .zero) {}
        }
        expectStandardError(of: result, contains: "Scheduler.schedule(every:) needs a positive interval")
    }
}

/// Reports its base scheduler's time plus a lag, as a busy real scheduler would.
final class LaggingScheduler: Scheduler {
    let base: TestScheduler
    private let lagDuration = LockedState<Duration>(.zero)

    init(base: TestScheduler) {
        self.base = base
    }

    var lag: Duration {
        get { lagDuration.withLock { $0 } }
        set { lagDuration.withLock { $0 = newValue } }
    }

    var now: SchedulerInstant { base.now + lag }

    func schedule(at instant: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        base.schedule(at: instant, work)
    }
}
