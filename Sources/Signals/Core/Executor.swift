import Dispatch

/// Where a modifier runs its work: inline on the delivering thread, or on a serial queue.
final class Executor: Sendable {
    /// `nil` runs work inline, on whatever thread delivers the message.
    let queue: DispatchQueue?

    private init(queue: DispatchQueue?) {
        self.queue = queue
    }

    /// The main queue: where modifiers run by default, as the seed says.
    static let main = Executor(queue: .main)

    /// Inline, on the delivering thread (`noDispatch()`).
    static let inline = Executor(queue: nil)

    /// A new serial queue that runs its work on `target`. Serial, so messages keep their
    /// order even when `target` is a concurrent queue.
    static func serial(targeting target: DispatchQueue, label: String) -> Executor {
        Executor(queue: DispatchQueue(label: label, target: target))
    }

    /// Runs `work` on this executor, after the work already enqueued on it.
    func run(_ work: @escaping @Sendable () -> Void) {
        if let queue { queue.async(execute: work) } else { work() }
    }
}
