/// Subscribes to a single-threaded source and runs `transform`, asynchronous work, for each
/// value it delivers, handing `sink` the result of the latest value's work only: the one
/// implementation behind Glue's and Cycle's `flatMapLatest`, on ``LatestStateMachine``.
///
/// The source delivers, and `sink` receives, in the isolation domain of `actor` (the domain
/// that subscribed, a single-threaded paradigm's one domain). Each value's work runs in a
/// task of its own; a new value cancels the task of the one before it, and a result whose
/// value is no longer the latest when it arrives back on `actor` is dropped. Disconnecting
/// the returned connection (on `actor`) cancels the task under way and drops every result.
package func subscribeLatest<Value: Sendable, Output: Sendable>(
    subscribe: (@escaping (Value) -> Void) -> Connection,
    actor: any Actor,
    transform: @escaping @Sendable (Value) async -> Output,
    sink: @escaping (Output) -> Void
) -> Connection {
    subscribeLatest(
        subscribeEvents: { events in subscribe { events(.value($0)) } }, actor: actor, transform: transform,
        sink: { if case .value(let output) = $0 { sink(output) } })
}

/// ``subscribeLatest(subscribe:actor:transform:sink:)`` for a source that finishes: when it
/// finishes, the latest value's work still runs, and `sink` receives its result, then the
/// completion; with no work running, the completion at once.
package func subscribeLatest<Value: Sendable, Output: Sendable>(
    subscribeEvents: (@escaping (StreamEvent<Value, Never>) -> Void) -> Connection,
    actor: any Actor,
    transform: @escaping @Sendable (Value) async -> Output,
    sink: @escaping (StreamEvent<Output, Never>) -> Void
) -> Connection {
    let work = LatestWork()
    // Called only on `actor` (see `deliverOn`), where the sink belongs.
    let deliver = IsolatedSink<(LatestTicket, Output)> { ticket, output in
        guard work.machine.result(of: ticket) == .pass else { return }
        work.machine.finished(ticket)
        sink(.value(output))
        if work.sourceFinished { sink(.completion(.finished)) }
    }
    let upstream = subscribeEvents { event in
        switch event {
        case .value(let value):
            guard let (ticket, superseded) = work.machine.begin() else { return }
            superseded?.cancel()
            let task = Task {
                let output = await transform(value)
                guard !Task.isCancelled else { return }
                await deliverOn(actor) { deliver((ticket, output)) }
            }
            if let late = work.machine.started(task, for: ticket) { late.cancel() }
        case .completion(let completion):
            work.sourceFinished = true
            if !work.machine.isRunning { sink(.completion(completion)) }
        }
    }
    return Connection(isolated: {
        work.machine.cancel()?.cancel()
        upstream.disconnect()
    })
}

/// Runs `body` isolated to `actor`.
private func deliverOn(_ actor: isolated any Actor, _ body: @Sendable () -> Void) {
    body()
}

/// The machine of one `subscribeLatest` subscription.
///
/// Unchecked `Sendable`: the machine is read and written only on the subscribing actor (in
/// the source's deliveries, in `deliverOn`, and in the connection's isolated disconnect); the
/// tasks only carry the reference there.
private final class LatestWork: @unchecked Sendable {
    var machine = LatestStateMachine<Task<Void, Never>>()
    /// Whether the source finished: the running work's result is the last.
    var sourceFinished = false
}
