extension MessageSource {
    /// Runs `transform`, asynchronous work, for each message and passes on its result, as long
    /// as no later message came meanwhile: a new message cancels the task of the one before
    /// it, and a superseded task's result is dropped even if it finishes anyway (RxSwift's
    /// `flatMapLatest`, for async work).
    ///
    /// ```swift
    /// query.didSet
    ///     .throttle(pause: .milliseconds(300), latest: true)
    ///     .flatMapLatest { text in await backend.results(for: text) }
    ///     .then { results in show(results) }
    ///     .append(to: observables)
    /// ```
    ///
    ///     query:    -a----b---c--------|
    ///     work:      [a..]              a's task, cancelled when b comes
    ///                     [b..]         b's task, cancelled when c comes
    ///                         [c.....]
    ///     results:  ---------------C---   only c's result passes
    ///
    /// Each task runs on the global concurrent executor; its result passes on the chain's
    /// executor (the main queue unless the chain says otherwise), in the order the results
    /// come. A task is cancelled (`Task.isCancelled`, `Task.checkCancellation()`) when a later
    /// message comes and when the chain is removed; `transform` decides what a cancelled
    /// task returns, and that result is dropped. To report failures, return them (an
    /// optional, a `Result`): a chain has no failure of its own.
    ///
    /// On a queue, a result and a later message are handled one after the other, so a
    /// result passes only if its message is still the latest when the result is handled. A
    /// chain that runs on the sending thread (`noDispatch()`) with messages from several
    /// threads may pass a result just as a later message arrives on another thread, never
    /// after that message's own result.
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Message) async -> Output
    ) -> LatestModifier<Message, Output> {
        LatestModifier(upstream: self, core: LatestCore(upstream: self, transform: transform))
    }
}

/// Runs asynchronous work per message, keeping only the latest message's result; made by
/// `flatMapLatest` of async work.
///
/// The rule is ReactiveCore's `LatestStateMachine`, kept under a lock with the running task:
/// messages may come from any thread, and tasks finish on any thread.
public final class LatestModifier<Input: Sendable, Output: Sendable>: Modifier<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: no stored properties of its own.

    /// Whether a task runs whose result would pass (for tests and debugging).
    public var isWorking: Bool {
        unsafeDowncast(core, to: LatestCore<Input, Output>.self).isWorking
    }
}

/// The work of a ``LatestModifier``.
final class LatestCore<Input: Sendable, Output: Sendable>: ModifierCore<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the machine and its task are behind `latest`'s lock; the
    // transform is a `let` of a `Sendable` type.

    private let transform: @Sendable (Input) async -> Output
    private let latest = LockedState(LatestStateMachine<Task<Void, Never>>())

    init(upstream: MessageSource<Input>, transform: @escaping @Sendable (Input) async -> Output) {
        self.transform = transform
        super.init(upstream: upstream)
    }

    var isWorking: Bool { latest.withLock { $0.isRunning } }

    override func process(_ message: Input, sequence: UInt64?) {
        guard let (ticket, superseded) = latest.withLock({ $0.begin() }) else { return }
        // Cancelled outside the lock: a task's cancellation handlers run synchronously.
        superseded?.cancel()
        let transform = transform
        // Weak: a removed chain's core is not kept alive by its work; the result then goes
        // nowhere.
        let task = Task { [weak self] in
            let output = await transform(message)
            self?.deliver(output, for: ticket)
        }
        if let late = latest.withLock({ $0.started(task, for: ticket) }) { late.cancel() }
    }

    /// Passes `output` on the chain's executor if `ticket`'s work is still the latest; if the
    /// input finished meanwhile, the chain then finishes.
    private func deliver(_ output: Output, for ticket: LatestTicket) {
        runSide(inline: false) { [self] in
            let (passes, ends) = latest.withLock { machine -> (Bool, Bool) in
                guard machine.result(of: ticket) == .pass else { return (false, false) }
                machine.finished(ticket)
                return (true, inputFinished)
            }
            if passes { send(output) }
            if ends { finish(.finished) }
        }
    }

    /// Whether the input finished while work ran: its result is the last. Under `latest`'s
    /// lock.
    private var inputFinished = false

    /// When the input finishes, the latest message's work still runs and its result passes,
    /// then the chain finishes; any other end cancels the work and ends the chain at once.
    override func processCompletion(_ completion: Completion<any Error>) {
        guard case .finished = completion else { return finish(completion) }
        let waits = latest.withLock { machine -> Bool in
            inputFinished = machine.isRunning
            return machine.isRunning
        }
        if !waits { finish(.finished) }
    }

    @discardableResult
    override func detach() -> Bool {
        let running = latest.withLock { $0.cancel() }
        running?.cancel()
        return super.detach()
    }
}
