/// The rule of switching to the latest: each new value starts new work (an inner stream, an
/// asynchronous task) and releases the work the previous value started; only the latest
/// work's results pass. The rule of `switchToLatest`, `flatMapLatest` and `mapLatest`, apart
/// from storage and threads.
///
/// The machine holds only which work is current and a handle to it (`Work`: a `Task`, a
/// `Connection`); it never starts or cancels anything itself. Its owner carries out what each
/// call returns: cancel the work handed back, start the new work under the ticket it is
/// given, and pass a result only when ``result(of:)`` says so.
///
/// ```swift
/// @MainActor final class SearchBox {
///     private var machine = LatestStateMachine<Task<Void, Never>>()
///
///     func receive(_ query: String) {
///         guard let (ticket, superseded) = machine.begin() else { return }   // cancelled
///         superseded?.cancel()
///         let task = Task { deliver(await search(query), for: ticket) }
///         machine.started(task, for: ticket)?.cancel()   // superseded meanwhile
///     }
///
///     private func deliver(_ answer: [String], for ticket: LatestTicket) {
///         guard machine.result(of: ticket) == .pass else { return }   // stale
///         machine.finished(ticket)
///         show(answer)
///     }
/// }
/// ```
///
/// A result of superseded work never passes, even if that work ignored its cancellation and
/// finished anyway: its ticket is no longer current. A ticket is handed out once per value,
/// so a result is recognised whatever thread or order it arrives in.
public struct LatestStateMachine<Work> {
    /// Which work is current.
    enum State {
        /// No work runs: none was started, the last one finished, or the machine was
        /// cancelled.
        case idle
        /// The work for `ticket` was begun; `work` is its handle once the owner started it.
        case running(ticket: LatestTicket, work: Work?)
        /// Cancelled: nothing starts any more.
        case cancelled
    }

    /// What to do with a result of the work for a ticket.
    public enum ResultAction: Equatable, Sendable {
        /// The work is current: pass the result on.
        case pass
        /// The work was superseded or cancelled: drop the result.
        case drop
    }

    private var state = State.idle
    private var nextTicket: UInt64 = 0

    /// A machine with no work running.
    public init() {}

    /// A new value arrived: returns the ticket under which to start its work, and the work it
    /// supersedes (to cancel), if any. After ``cancel()``, returns `nil`: start nothing.
    public mutating func begin() -> (ticket: LatestTicket, superseded: Work?)? {
        let superseded: Work?
        switch state {
        case .cancelled: return nil
        case .idle: superseded = nil
        case .running(_, let work): superseded = work
        }
        nextTicket += 1
        let ticket = LatestTicket(number: nextTicket)
        state = .running(ticket: ticket, work: nil)
        return (ticket, superseded)
    }

    /// The owner started `work` for `ticket`. Returns `work` back if the ticket is no longer
    /// current (a later value, or a cancellation, came meanwhile): cancel it at once.
    public mutating func started(_ work: Work, for ticket: LatestTicket) -> Work? {
        guard case .running(ticket, nil) = state else { return work }
        state = .running(ticket: ticket, work: work)
        return nil
    }

    /// Whether a result of the work for `ticket` passes.
    public func result(of ticket: LatestTicket) -> ResultAction {
        if case .running(ticket, _) = state { .pass } else { .drop }
    }

    /// The work for `ticket` ended; the machine is idle if it was the current work.
    public mutating func finished(_ ticket: LatestTicket) {
        if case .running(ticket, _) = state { state = .idle }
    }

    /// Whether the work for a value runs (begun and not finished, superseded or cancelled).
    public var isRunning: Bool {
        if case .running = state { true } else { false }
    }

    /// Ends the machine: returns the current work, to cancel; nothing starts afterwards and
    /// no result passes.
    public mutating func cancel() -> Work? {
        defer { state = .cancelled }
        if case .running(_, let work) = state { return work }
        return nil
    }
}

/// Names the work started for one value in a ``LatestStateMachine``.
public struct LatestTicket: Hashable, Sendable {
    let number: UInt64
}

extension LatestStateMachine: Sendable where Work: Sendable {}
extension LatestStateMachine.State: Sendable where Work: Sendable {}
