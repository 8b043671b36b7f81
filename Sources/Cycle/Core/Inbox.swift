/// The way into a loop's isolation domain for drivers that work on other threads.
///
/// Create it in the loop's domain; ``post(_:)`` from any thread; what was posted is
/// delivered to the handler in the domain, in the order posted, through the scheduler
/// (which must run its work in that domain: the main queue for a program on the main actor,
/// a `TestScheduler` advanced from a test).
public final class Inbox<Message: Sendable>: Sendable {
    struct State: Sendable {
        var messages: [Message] = []
        var deliveries: [Connection] = []
        var isClosed = false

        /// C5: a closed inbox holds nothing to deliver.
        @inline(__always)
        func checkInvariants() {
            #if CYCLE_INTERNAL_CHECKS
                cycleCheck(
                    !isClosed || (messages.isEmpty && deliveries.isEmpty), "C5",
                    "a closed inbox holds \(messages.count) message(s) and \(deliveries.count) delivery(ies)")
            #endif
        }
    }

    private let state = LockedState(State())
    private let scheduler: any Scheduler
    private let drain: IsolatedClosure

    /// An inbox that hands what is posted to `handler`, in the creating domain.
    public init(scheduler: some Scheduler, handler: @escaping (Message) -> Void) {
        self.scheduler = scheduler
        let state = state
        drain = IsolatedClosure {
            let (messages, deliveries) = state.withLock { state in
                defer { (state.messages, state.deliveries) = ([], []) }
                return (state.messages, state.deliveries)
            }
            _ = deliveries
            for message in messages { handler(message) }
        }
    }

    /// Posts `message` from any thread; it reaches the handler in the inbox's domain.
    public func post(_ message: Message) {
        let shouldSchedule = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.messages.append(message)
            state.checkInvariants()
            return state.messages.count == 1
        }
        guard shouldSchedule else { return }
        let drain = drain
        let delivery = scheduler.schedule(after: .zero) { drain() }
        state.withLock { $0.deliveries.append(delivery) }
    }

    /// Stops delivering: later posts are dropped and pending ones are cancelled.
    public func close() {
        let deliveries = state.withLock { state in
            state.isClosed = true
            state.messages = []
            defer {
                state.deliveries = []
                state.checkInvariants()
            }
            return state.deliveries
        }
        for delivery in deliveries { delivery.disconnect() }
    }
}
