import Dispatch

/// A task executor on a serial Dispatch queue of its own, for tests that need a task to run
/// apart from the concurrency pool (which other tests running in parallel keep busy), or to
/// be held back: ``hold()`` keeps the queue from running the task's jobs until the returned
/// gate opens.
public final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(_ label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `job` on the queue, after what the queue already holds.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Blocks the queue until the returned gate is opened: jobs enqueued meanwhile wait.
    public func hold() -> Gate {
        let gate = Gate()
        queue.async { gate.semaphore.wait() }
        return gate
    }

    /// Opens once: lets a held queue go on.
    public final class Gate: Sendable {
        fileprivate let semaphore = DispatchSemaphore(value: 0)

        /// Lets the queue run what waited.
        public func open() { semaphore.signal() }
    }
}
