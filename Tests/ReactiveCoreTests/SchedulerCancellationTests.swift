import Dispatch
import TestSupport
import Testing

@testable import ReactiveCore

/// The cancellation contract every `Scheduler` keeps, on virtual and on real time: work
/// cancelled before it starts never runs, also when the work that cancels it is due at the
/// same instant (the contract a driver's or an operator's teardown relies on: what it
/// cancels in its own domain does not run afterwards).
@Suite("Schedulers: cancelling work due at the same instant")
struct SchedulerCancellationTests {
    /// A connection that work scheduled before it may disconnect.
    private final class Slot: Sendable {
        let connection = LockedState<Connection?>(nil)
        func cancel() { connection.withLock { $0 }?.disconnect() }
    }

    @Test("TestScheduler: work that cancels work due at the same instant stops it")
    func testScheduler() {
        let scheduler = TestScheduler()
        let log = Log<String>()
        let second = Slot()
        let first = scheduler.schedule(after: .seconds(1)) {
            log.append("a")
            second.cancel()
        }
        second.connection.withLock { $0 = scheduler.schedule(after: .seconds(1)) { log.append("b") } }
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["a"])
        #expect(scheduler.pendingCount == 0)
        first.disconnect()
    }

    @Test("DispatchScheduler: work on the queue that cancels work due with it stops it")
    func dispatchScheduler() {
        let queue = DispatchQueue(label: "SchedulerCancellationTests.dispatch")
        let scheduler = DispatchScheduler(queue: queue)
        let log = Log<String>()
        let second = Slot()
        queue.suspend()
        let first = scheduler.schedule(after: .zero) {
            log.append("a")
            second.cancel()
        }
        second.connection.withLock { $0 = scheduler.schedule(after: .zero) { log.append("b") } }
        queue.resume()
        queue.sync {}
        #expect(log.all == ["a"])
        first.disconnect()
    }

    @Test("ClockScheduler: work that cancels work due at the same instant stops it")
    func clockScheduler() async {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock: clock)
        let log = Log<String>()
        let second = Slot()
        let first = scheduler.schedule(after: .seconds(1)) {
            log.append("a")
            second.cancel()
        }
        second.connection.withLock { $0 = scheduler.schedule(after: .seconds(1)) { log.append("b") } }
        let after = scheduler.schedule(after: .seconds(1)) { log.append("c") }
        #expect(await eventually { clock.nextInstant == .zero + .seconds(1) })
        await clock.advanceTasks(by: .seconds(1))
        // "c" was scheduled after "b" for the same instant: had "b" run, it would come first.
        #expect(await eventually { log.all.contains("c") })
        #expect(log.all == ["a", "c"])
        first.disconnect()
        after.disconnect()
    }
}
