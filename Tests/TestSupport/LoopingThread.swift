import Foundation
import Synchronization

/// A loop on an operating-system thread of its own: runs `body` with 1, 2, 3, … until
/// stopped. For tests where one thread keeps firing while another works.
///
/// Not a task: a loop that never suspends keeps its thread, and the concurrency pool has as
/// many threads as cores (two on CI). Two such tasks from tests running in parallel took
/// both, and the tests that were to stop them never ran again.
public final class LoopingThread: Sendable {
    private let stopped = Atomic(false)
    private let runs = Atomic(0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the loop at once.
    public init(_ body: @escaping @Sendable (Int) -> Void) {
        Thread.detachNewThread { [self] in
            var index = 0
            while !stopped.load(ordering: .acquiring) {
                index += 1
                body(index)
                runs.store(index, ordering: .releasing)
            }
            finished.signal()
        }
    }

    /// How many runs of `body` have ended.
    public var progress: Int { runs.load(ordering: .acquiring) }

    /// Stops the loop, waits for the run under way to end, and returns how many runs there
    /// were.
    @discardableResult
    public func stop() -> Int {
        stopped.store(true, ordering: .releasing)
        finished.wait()
        return progress
    }
}
