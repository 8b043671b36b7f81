import Dispatch
import Synchronization

/// A count of changes that a waiter can suspend on: whatever changes what a test waits for
/// (an effect posting to a store, a task falling asleep on a ``TestScheduler``) calls
/// ``notify()``, and a task waiting for that change resumes at once, without spinning.
///
/// A waiter reads ``generation``, checks its condition, and, if the condition does not hold,
/// calls ``wait(past:until:)`` with the generation it read: a change that came between the
/// check and the wait ends the wait at once, so no change is missed.
///
/// `notify()` costs two atomic operations when nobody waits: it is called on hot paths (every
/// message an effect posts).
package final class ActivitySignal: Sendable {
    private struct Waiters {
        var next = 0
        var suspended: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits cancelled before their continuation was stored.
        var cancelled: Set<Int> = []
    }

    private let changes = Atomic<UInt64>(0)
    /// How many waits are registering or suspended: `notify()` takes the lock only then.
    private let waiting = Atomic<Int>(0)
    private let waiters = LockedState(Waiters())

    package init() {}

    /// How many changes there have been.
    package var generation: UInt64 { changes.load(ordering: .sequentiallyConsistent) }

    /// Notes a change, and resumes every task waiting for one.
    package func notify() {
        changes.wrappingAdd(1, ordering: .sequentiallyConsistent)
        // Sequentially consistent with the waiter's increment of `waiting` and its load of
        // `changes`: either this load sees the waiter, or the waiter sees this change.
        guard waiting.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let resumed = waiters.withLock { waiters in
            defer { waiters.suspended.removeAll() }
            return Array(waiters.suspended.values)
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Suspends until there has been a change after `seen` (at once if there already has),
    /// until `deadline` on the real clock (if there is one), or until the task is cancelled,
    /// whichever comes first.
    package func wait(past seen: UInt64, until deadline: ContinuousClock.Instant?) async {
        waiting.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { waiting.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        let id = waiters.withLock { waiters in
            defer { waiters.next += 1 }
            return waiters.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stored = waiters.withLock { waiters -> Bool in
                    if waiters.cancelled.remove(id) != nil { return false }
                    if changes.load(ordering: .sequentiallyConsistent) != seen { return false }
                    waiters.suspended[id] = continuation
                    return true
                }
                guard stored else {
                    continuation.resume()
                    return
                }
                guard let deadline else { return }
                let left = ContinuousClock.now.duration(to: deadline).components
                let nanoseconds = max(0, left.seconds) * 1_000_000_000 + max(0, left.attoseconds) / 1_000_000_000
                let wake = DispatchTime.now() + .nanoseconds(Int(clamping: nanoseconds))
                DispatchQueue.global().asyncAfter(deadline: wake) { [weak self] in self?.resume(id) }
            }
        } onCancel: {
            resume(id, cancelling: true)
        }
    }

    /// Resumes wait `id` if it is suspended; a cancellation that comes before the wait
    /// suspended is kept, so that the wait does not suspend.
    private func resume(_ id: Int, cancelling: Bool = false) {
        let continuation = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            if let continuation = waiters.suspended.removeValue(forKey: id) { return continuation }
            if cancelling { waiters.cancelled.insert(id) }
            return nil
        }
        continuation?.resume()
    }
}

/// Waits until `condition` holds, suspending between checks until `signal` notes a change;
/// returns whether it holds.
///
/// The wait never spins while it waits: it checks `condition` after each change. It gives up
/// once `timeout` has passed on the real clock *and* it has then yielded `graceYields` times
/// still finding `condition` false. The yields are for a starved machine: when every thread
/// was busy until the deadline, the work the condition waits for was kept from running too,
/// and the yields give it turns before the wait reports a failure.
///
/// Runs on the caller's actor, so `condition` may read (and change) its state.
package func waitUntil(
    _ signal: ActivitySignal, timeout: Duration, graceYields: Int = 10_000,
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
        let seen = signal.generation
        if condition() { return true }
        if ContinuousClock.now >= deadline || Task.isCancelled { break }
        await signal.wait(past: seen, until: deadline)
    }
    for _ in 0..<graceYields {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
