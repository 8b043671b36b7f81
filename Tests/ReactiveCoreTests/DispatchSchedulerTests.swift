import Dispatch
import Testing

@testable import ReactiveCore

@Suite("DispatchScheduler")
struct DispatchSchedulerTests {
    @Test("work due now runs on the queue, in the order it was scheduled")
    func runsInOrder() async {
        let queue = DispatchQueue(label: "DispatchSchedulerTests.order")
        let scheduler = DispatchScheduler(queue: queue)
        let log = Log<Int>()
        let due = scheduler.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var connections = (0..<10).map { index in
                scheduler.schedule(at: due) {
                    dispatchPrecondition(condition: .onQueue(queue))
                    log.append(index)
                }
            }
            connections.append(scheduler.schedule(at: due) { done.resume() })
            // Keep the connections until the last work has run.
            queue.async { [connections] in _ = connections }
        }
        #expect(log.all == Array(0..<10))
    }

    @Test("cancelling releases the work at once, long before its deadline")
    func cancellationReleasesWork() {
        let scheduler = DispatchScheduler(queue: DispatchQueue(label: "DispatchSchedulerTests.cancel"))
        let runs = Counter()
        weak var weakToken: Token?
        let connection: Connection
        do {
            let token = Token()
            weakToken = token
            connection = scheduler.schedule(after: .seconds(3600)) {
                _ = token; runs.increment()
            }
        }
        #expect(weakToken != nil)
        connection.disconnect()
        #expect(weakToken == nil)
        #expect(runs.value == 0)
    }

    @Test("now follows Dispatch's uptime clock")
    func nowIsUptime() {
        let before = DispatchTime.now().uptimeNanoseconds
        let now = DispatchScheduler().now
        let after = DispatchTime.now().uptimeNanoseconds
        #expect(now.offset >= .nanoseconds(before))
        #expect(now.offset <= .nanoseconds(after))
    }

    @Test("deadlines are clamped to what Dispatch can express")
    func deadlineClamping() {
        #expect(DispatchScheduler.deadline(for: .zero + .seconds(-5)).uptimeNanoseconds <= 1)
        #expect(DispatchScheduler.deadline(for: .zero + .seconds(2)).uptimeNanoseconds == 2_000_000_000)
        #expect(DispatchScheduler.deadline(for: .zero + .seconds(Int64.max)) == .distantFuture)
    }
}
