import Foundation

/// Runs each of `bodies` on an operating-system thread of its own, all at once, and returns
/// when every one has ended.
///
/// Not on `DispatchQueue.global()`: on Linux its worker threads are as many as cores, and work
/// that spins until another piece of work makes progress waits there for a thread that other
/// tests may be holding. Not on the task pool either, for the same reason (see
/// `LoopingThread`). The caller's task suspends while the threads run.
public func runOnThreadsOfTheirOwn(_ bodies: [@Sendable () -> Void]) async {
    let finished = LockedBox(0)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        for body in bodies {
            Thread.detachNewThread {
                body()
                var isLast = false
                finished.mutate { count in
                    count += 1
                    isLast = count == bodies.count
                }
                if isLast { done.resume() }
            }
        }
        if bodies.isEmpty { done.resume() }
    }
}
