import Dispatch
import ReactiveCore
import TestSupport
import Testing

@Suite("ReactiveCore: the activity signal test waits suspend on")
struct ActivitySignalTests {
    @Test("a change before the wait ends it at once; a wait with no change ends at its deadline")
    func changeBeforeWait() async {
        let signal = ActivitySignal()
        let seen = signal.generation
        signal.notify()
        #expect(signal.generation == seen + 1)
        // Returns at once: the change came after `seen`. Without a deadline, a missed change
        // would hang here.
        await signal.wait(past: seen, until: nil)
        let start = ContinuousClock.now
        await signal.wait(past: signal.generation, until: start.advanced(by: .milliseconds(20)))
        #expect(ContinuousClock.now - start >= .milliseconds(20))
    }

    @Test("a notify from another thread resumes every waiter")
    func notifyResumesWaiters() async {
        let signal = ActivitySignal()
        let seen = signal.generation
        let resumed = LockedState(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await signal.wait(past: seen, until: nil)
                    resumed.withLock { $0 += 1 }
                }
            }
            // Until each waiter has had the chance to suspend; a late one returns at once.
            await yieldTimes(100)
            DispatchQueue.global().async { signal.notify() }
        }
        #expect(resumed.withLock { $0 } == 8)
    }

    @Test("a cancelled wait ends, whether it was cancelled before or while it waited")
    func cancellation() async {
        let signal = ActivitySignal()
        let seen = signal.generation
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await signal.wait(past: seen, until: nil)
        }
        await early.value
        let waiting = Task { await signal.wait(past: seen, until: nil) }
        await yieldTimes(100)
        waiting.cancel()
        await waiting.value
        #expect(signal.generation == seen)
    }

    @Test("waitUntil checks after every change, from many threads, and misses none")
    func waitUntilUnderConcurrentChanges() async {
        let signal = ActivitySignal()
        let count = LockedState(0)
        let writers = Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<2_500 {
                    count.withLock { $0 += 1 }
                    signal.notify()
                }
            }
        }
        let reached = await waitUntil(signal, timeout: .seconds(60)) { count.withLock { $0 } == 10_000 }
        await writers.value
        #expect(reached)
    }

    @Test("waitUntil gives up after its timeout and its yields, returning false")
    func waitUntilTimesOut() async {
        let signal = ActivitySignal()
        let start = ContinuousClock.now
        var checks = 0
        let reached = await waitUntil(signal, timeout: .milliseconds(20), graceYields: 10) {
            checks += 1
            return false
        }
        #expect(!reached)
        #expect(ContinuousClock.now - start >= .milliseconds(20))
        // Once before the wait, then once per yield, and once at the end.
        #expect(checks >= 12)
    }
}
