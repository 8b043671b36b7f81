/// Sends actions from an asynchronous effect back into its store.
///
/// ```swift
/// context.run(id: "search") { send in
///     let results = await search(query)
///     send(SearchResults(results))
/// }
/// ```
///
/// `Send` is `Sendable`: call it from any task. The store dispatches what it sends in the
/// store's own isolation domain, in the order sent. After the effect is cancelled, what it
/// sends is dropped.
public struct Send: Sendable {
    let inbox: EffectInbox
    let effect: Int

    /// Sends `action` to the store.
    public func callAsFunction(_ action: some Action) {
        inbox.post(.action(action, effect: effect))
    }

    /// Whether the effect has been cancelled (its task is cancelled too).
    public var isCancelled: Bool {
        inbox.isCancelled(effect)
    }
}

/// Where effects leave what they send until the store takes it in its own domain.
final class EffectInbox: Sendable {
    enum Message: Sendable {
        case action(any Action, effect: Int)
        case finished(effect: Int)
    }

    private struct State: Sendable {
        var messages: [Message] = []
        var cancelled: Set<Int> = []
        /// Scheduled deliveries, kept until they run (releasing one would cancel it).
        var deliveries: [Connection] = []
        var wake: (@Sendable () -> Void)?
    }

    private let state = LockedState(State())

    /// Sets what posting a message does to get the store to take it.
    func setWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Adds `message`; wakes the store only if nothing was waiting, since a wake already
    /// scheduled takes every message waiting when it runs.
    func post(_ message: Message) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.messages.append(message)
            return state.messages.count == 1 ? state.wake : nil
        }
        wake?()
    }

    func keep(_ delivery: Connection) {
        state.withLock { $0.deliveries.append(delivery) }
    }

    /// Takes every message waiting, in the order posted.
    func take() -> [Message] {
        let (messages, deliveries) = state.withLock { state in
            defer { (state.messages, state.deliveries) = ([], []) }
            return (state.messages, state.deliveries)
        }
        _ = deliveries
        return messages
    }

    /// Whether any message waits.
    var hasMessages: Bool {
        state.withLock { !$0.messages.isEmpty }
    }

    /// Takes the first waiting message.
    func popFirst() -> Message? {
        state.withLock { $0.messages.isEmpty ? nil : $0.messages.removeFirst() }
    }

    /// Takes the waiting `finished` messages, leaving actions in order.
    func takeFinished() -> [Int] {
        state.withLock { state in
            var finished: [Int] = []
            state.messages.removeAll { message in
                if case .finished(let effect) = message {
                    finished.append(effect)
                    return true
                }
                return false
            }
            return finished
        }
    }

    /// Whether an action from an effect that was not cancelled waits.
    var hasWaitingActions: Bool {
        state.withLock { state in
            state.messages.contains { message in
                if case .action(_, let effect) = message { return !state.cancelled.contains(effect) }
                return false
            }
        }
    }

    func cancel(_ effect: Int) {
        state.withLock { _ = $0.cancelled.insert(effect) }
    }

    func isCancelled(_ effect: Int) -> Bool {
        state.withLock { $0.cancelled.contains(effect) }
    }
}
