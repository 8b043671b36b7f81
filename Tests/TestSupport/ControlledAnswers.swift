import ReactiveCore

/// Asynchronous work the test finishes by hand: each call waits until the test answers the
/// message it was given, and records whether its task was cancelled.
public final class ControlledAnswers: Sendable {
    /// Work that nobody has answered yet.
    public init() {}

    private struct State {
        var waiting: [String: CheckedContinuation<Void, Never>] = [:]
        var answered: Set<String> = []
        var started: [String] = []
        var cancelled: [String] = []
    }

    private let state = LockedState(State())

    /// The work for `message`: waits for ``answer(_:)``, then returns its result.
    public func work(_ message: String) async -> String {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answered = state.withLock { state -> Bool in
                    state.started.append(message)
                    if state.answered.contains(message) { return true }
                    state.waiting[message] = continuation
                    return false
                }
                if answered { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.cancelled.append(message) }
        }
        return message.uppercased()
    }

    /// Lets the work for `message` finish (now, or as soon as it starts).
    public func answer(_ message: String) {
        let continuation = state.withLock { state in
            state.answered.insert(message)
            return state.waiting.removeValue(forKey: message)
        }
        continuation?.resume()
    }

    /// The messages whose work started, in order.
    public var started: [String] { state.withLock { $0.started } }
    /// The messages whose task was cancelled, in order.
    public var cancelled: [String] { state.withLock { $0.cancelled } }
}
