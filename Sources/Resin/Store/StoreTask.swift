/// The effects one dispatched action started: await them with ``finish(isolation:)``, stop them with
/// ``cancel()``. ``Store/dispatch(_:)`` returns it (discardable).
///
/// ```swift
/// await store.dispatch(Refresh()).finish()   // the refresh's effects have all ended
/// ```
///
/// The task covers every effect the action's reducers and middleware asked for, including
/// the later parts of its concatenations. It does not cover the actions those effects send
/// (each is dispatched on its own), nor the effect a debounce or throttle the action asked for
/// lets out later: the debounce or throttle counts as done once it has taken the effect.
///
/// Like its store, a task lives in the store's isolation domain: call ``finish(isolation:)`` and
/// ``cancel()`` there. With a store in a test store, end the test with the test store's
/// `finish()`, which also takes the actions the effects sent.
public final class StoreTask {
    private weak var engine: Engine?
    /// Whether the action has been processed (its effects started).
    private(set) var isProcessed = false
    /// Whether ``cancel()`` was called.
    package private(set) var isCancelled = false
    /// The action's running effects and concatenations, by the engine's numbers.
    var runs: Set<Int> = []
    var sequences: Set<Int> = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// The action, to name the effects it started in a test store's failures.
    package let action: any Action

    init(engine: Engine, action: any Action) {
        self.engine = engine
        self.action = action
    }

    /// Whether the action has been processed and every effect it started has ended
    /// (finished or was cancelled).
    public var isFinished: Bool { isProcessed && runs.isEmpty && sequences.isEmpty }

    /// Returns once the action has been processed and every effect it started has ended.
    public func finish(isolation: isolated (any Actor)? = #isolation) async {
        guard !isFinished else { return }
        guard let activity = engine?.takesEffectActionsManually == true ? engine?.inbox.activity : nil else {
            await withCheckedContinuation { waiters.append($0) }
            return
        }
        // A test store's store forgets finished effects only when asked to, so the wait asks
        // each time an effect posts (the actions they send stay for the test to receive).
        while !isFinished {
            let seen = activity.generation
            guard let engine else { return }
            engine.takeFinished()
            if isFinished || Task.isCancelled { return }
            await activity.wait(past: seen, until: nil)
        }
    }

    /// Cancels every effect the action started that still runs, and the parts of its
    /// concatenations not started yet; if the action is still waiting to be processed, its
    /// effects will not start (their cancellations still apply).
    public func cancel() {
        isCancelled = true
        engine?.cancel(self)
        resumeIfFinished()
    }

    /// Cancels like ``cancel()``; returns the numbers of the effects it cancelled, for a
    /// test store to wait for their tasks to end (see ``hasEnded(_:)``).
    package func cancelReportingEffects() -> Set<Int> {
        let cancelled = runs
        cancel()
        return cancelled
    }

    /// Whether the tasks of the cancelled effects `numbers` have all ended; forgets the
    /// effects that finished first (a test store's mode).
    package func hasEnded(_ numbers: Set<Int>) -> Bool {
        guard let engine else { return true }
        engine.takeFinished()
        return numbers.allSatisfy { engine.ending[$0] == nil && engine.running[$0] == nil }
    }

    /// What notes each message the store's effects post (a test store's waits suspend on it).
    package var effectActivity: ActivitySignal { engine?.inbox.activity ?? ActivitySignal() }

    /// Forgets the effects that finished (a test store's mode), which moves this task on.
    package func takeFinishedEffects() { engine?.takeFinished() }

    /// The engine processed the action and started its effects.
    func markProcessed() {
        isProcessed = true
        resumeIfFinished()
    }

    /// The engine forgot one of the action's effects or concatenations.
    func ended(run number: Int) {
        runs.remove(number)
        resumeIfFinished()
    }

    func ended(sequence number: Int) {
        sequences.remove(number)
        resumeIfFinished()
    }

    private func resumeIfFinished() {
        guard isFinished, !waiters.isEmpty else { return }
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
