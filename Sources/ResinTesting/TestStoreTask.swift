import ReactiveCore
import Resin

/// The effects one ``TestStore/send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``
/// started: await ``finish(timeout:fileID:filePath:line:column:)`` for them to end, or
/// ``cancel(fileID:filePath:line:column:)`` them.
///
/// ```swift
/// let task = store.send(.start)
/// await store.advance(by: .seconds(1))
/// await store.receive(.tick) { $0 = 1 }
/// await task.cancel()   // the timer's effect is cancelled, and its task has ended
/// ```
///
/// It covers what the action's reducers and middleware started, the later parts of its
/// concatenations included (as a `StoreTask` does); not the actions those effects send, which
/// the test still receives. Use it in the test store's isolation domain, as the test store.
public struct TestStoreTask {
    private let task: StoreTask
    private let timeout: Duration
    private let maximumYields: Int?

    init(task: StoreTask, timeout: Duration, maximumYields: Int?) {
        self.task = task
        self.timeout = timeout
        self.maximumYields = maximumYields
    }

    /// Whether every effect the action started has ended (finished or was cancelled).
    public var isFinished: Bool {
        task.takeFinishedEffects()
        return task.isFinished
    }

    /// Whether ``cancel(fileID:filePath:line:column:)`` was called.
    public var isCancelled: Bool { task.isCancelled }

    /// Waits until every effect the action started has finished; records a failure if one
    /// still runs after `timeout` (the test store's ``TestStore/timeout`` by default).
    ///
    /// What the effects send on the way waits for the test to receive it, as always.
    public nonisolated(nonsending) func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let task = task
        let finished = await waitForTestStore(
            task.effectActivity, timeout: timeout ?? self.timeout, maximumYields: maximumYields
        ) {
            task.takeFinishedEffects()
            return task.isFinished
        }
        guard !finished else { return }
        FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column).record(
            "Expected the effects of \(task.action) to finish, but they still run after \(timeout ?? self.timeout)")
    }

    /// Cancels the effects the action started that still run (and the parts of its
    /// concatenations not started yet), then waits until their tasks have ended; records a
    /// failure if one has not after the test store's timeout (an effect that does not stop
    /// when cancelled).
    public nonisolated(nonsending) func cancel(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let task = task
        let cancelled = task.cancelReportingEffects()
        let ended = await waitForTestStore(task.effectActivity, timeout: timeout, maximumYields: maximumYields) {
            task.hasEnded(cancelled)
        }
        guard !ended else { return }
        FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column).record(
            "The effects of \(task.action) were cancelled, but their tasks did not end within \(timeout); an effect must return when its task is cancelled"
        )
    }
}

/// A test store's wait for `condition`: suspended until `activity` notes a change, for up to
/// `timeout` on the real clock and 10,000 yields after it (see `waitUntil`); or, with the
/// deprecated bound in yields, `maximumYields` yields.
func waitForTestStore(
    _ activity: ActivitySignal, timeout: Duration, maximumYields: Int?,
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    guard let maximumYields else { return await waitUntil(activity, timeout: timeout, condition) }
    var bound = WaitBound(yields: maximumYields, duration: .zero)
    while !condition() {
        guard bound.allowsYield() else { return false }
        await Task.yield()
    }
    return true
}
