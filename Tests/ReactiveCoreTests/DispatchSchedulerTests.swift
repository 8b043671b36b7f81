import Dispatch
import Foundation
import TestSupport
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

    #if os(Linux)
        @Test(
            "a long timer restarted 100,000 times holds no memory for the runs it cancelled",
            .enabled(if: !runsUnderSanitizer, "sanitizers keep freed memory in quarantine"))
        func restartedLongTimerMemoryStaysFlat() async {
            // In a child process: the resident memory of a parallel test run moves with every
            // other test.
            await #expect(processExitsWith: .success) {
                let scheduler = DispatchScheduler(queue: DispatchQueue(label: "DispatchSchedulerTests.restart"))
                // An inactivity timeout of five minutes, reset by every event.
                func restart(times: Int) {
                    var timeout: Connection?
                    for _ in 0..<times {
                        timeout = scheduler.schedule(after: .seconds(300)) {}
                    }
                    timeout?.disconnect()
                }
                restart(times: 10_000)
                guard let before = try? residentBytes() else { exit(2) }
                restart(times: 100_000)
                // Dispatch frees a cancelled source on its own threads, soon after the cancel.
                // Before, each cancelled run kept about half a kilobyte until its deadline: 50 MB.
                let flat = await eventually { ((try? residentBytes()) ?? .max) - before < 8_000_000 }
                exit(flat ? 0 : 1)
            }
        }
    #endif

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

#if os(Linux)
    /// The process's resident memory, from `/proc/self/statm`.
    func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Whether AddressSanitizer or ThreadSanitizer is in the process.
    let runsUnderSanitizer =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
#endif

@Suite("DispatchScheduler deadlines")
struct DispatchSchedulerDeadlineTests {
    @Test("work due later does not run before its instant")
    func notBeforeItsInstant() async {
        let scheduler = DispatchScheduler(queue: DispatchQueue(label: "DispatchSchedulerTests.deadline"))
        let start = scheduler.now
        let ranAt = LockedState<SchedulerInstant?>(nil)
        let connection = scheduler.schedule(after: .milliseconds(200)) { ranAt.withLock { $0 = scheduler.now } }
        #expect(await eventually { ranAt.withLock { $0 } != nil })
        let elapsed = ranAt.withLock { $0 }.map { $0.offset - start.offset }
        #expect(elapsed.map { $0 >= .milliseconds(200) } == true, "ran after \(String(describing: elapsed))")
        connection.disconnect()
    }
}
