import Dispatch

/// Where a modifier runs its work: inline on the delivering thread, or on a serial queue.
@usableFromInline
final class Executor: Sendable {
    /// `nil` runs work inline, on whatever thread delivers the message.
    @usableFromInline let queue: DispatchQueue?

    private init(queue: DispatchQueue?) {
        self.queue = queue
    }

    /// The main queue: where modifiers run by default, as the seed says. Its queue is not
    /// marked for ``isCurrent``: setting a queue-specific value on the main queue waits for
    /// the main queue, which may itself be waiting for this value's initialization.
    static let main = Executor(queue: .main)

    /// Inline, on the delivering thread (`noDispatch()`).
    static let inline = Executor(queue: nil)

    /// A new serial queue that runs its work on `target`. Serial, so messages keep their
    /// order even when `target` is a concurrent queue.
    static func serial(targeting target: DispatchQueue, label: String) -> Executor {
        let executor = Executor(queue: DispatchQueue(label: label, target: target))
        executor.queue?.setSpecific(key: currentExecutorKey, value: ObjectIdentifier(executor))
        return executor
    }

    /// Runs `work` on this executor, after the work already enqueued on it.
    func run(_ work: @escaping @Sendable () -> Void) {
        if let queue { queue.async(execute: work) } else { work() }
    }

    /// Whether the calling code is known to run on this executor's queue: always for
    /// inline, never for the main queue (see ``main``). Read when a modifier connects, not
    /// per message.
    var isCurrent: Bool {
        guard queue != nil else { return true }
        return DispatchQueue.getSpecific(key: currentExecutorKey) == ObjectIdentifier(self)
    }
}

/// Marks each executor's queue with the executor's identity, for ``Executor/isCurrent``.
private let currentExecutorKey = DispatchSpecificKey<ObjectIdentifier>()
