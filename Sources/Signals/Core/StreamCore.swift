import Dispatch
import Synchronization

/// What a stateful operator's rule does in one step, gathered under the operator's lock and
/// carried out after it, in order: messages to send, the end, work that connects or releases
/// an input, and timers.
struct Outbox<Output: Sendable> {
    /// What to carry out after the lock, in order.
    enum Effect {
        case send(Output)
        case end(Completion<any Error>)
        /// Work to run outside the lock, in its turn (connecting or releasing an input).
        case run(@Sendable () -> Void)
    }

    var effects: [Effect] = []
    /// Whether the rule ended the stream: nothing more is carried out after that.
    private(set) var hasEnded = false
    /// Timers to start under the lock (scheduling never runs the work at once), each in its
    /// slot; a timer already in the slot is cancelled.
    var timers: [(slot: UInt64, deadline: SchedulerInstant, work: @Sendable () -> Void)] = []
    /// Timer slots whose timers to cancel.
    var cancelledTimers: [UInt64] = []

    /// Sends `message` on.
    mutating func send(_ message: Output) {
        if !hasEnded { effects.append(.send(message)) }
    }

    /// Ends the stream (and detaches the operator from every input) after what came before.
    mutating func end(_ completion: Completion<any Error> = .finished) {
        guard !hasEnded else { return }
        hasEnded = true
        effects.append(.end(completion))
    }

    /// Runs `work` outside the lock, in its turn among the messages.
    mutating func run(_ work: @escaping @Sendable () -> Void) {
        if !hasEnded { effects.append(.run(work)) }
    }

    /// Runs `work` at `deadline`, in timer slot `slot` (replacing the timer there).
    mutating func schedule(at deadline: SchedulerInstant, slot: UInt64 = 0, _ work: @escaping @Sendable () -> Void) {
        if !hasEnded { timers.append((slot, deadline, work)) }
    }

    /// Cancels the timer in `slot`, if one runs.
    mutating func cancelTimer(slot: UInt64 = 0) {
        cancelledTimers.append(slot)
    }
}

/// An input of an operator beyond its upstream (a second source, a trigger, an inner
/// source): what ``StreamCore`` keeps to detach it.
protocol SideLink: Sendable {
    /// Disconnects and lets go of the source; returns it if it was connected.
    @discardableResult
    func detachLink() -> (any ChainEnd)?
}

extension SideConnection: SideLink {
    func detachLink() -> (any ChainEnd)? {
        detach()
    }
}

/// The core of a stateful stream operator (zip, prefix, flatMap, delay and the rest): its
/// rule, one of ReactiveCore's machines, behind a lock, with the operator's other inputs and
/// timers.
///
/// Each step (a message or an end of any input, a timer) runs the rule under the lock and
/// gathers what it does in an ``Outbox``. What the outbox holds is carried out after the
/// lock by one thread at a time, in the order the steps ran: a thread that steps while
/// another is carrying out leaves its effects to that thread. So no closure is called under
/// the lock, an operator's messages never overtake each other, and a handler downstream that
/// makes the operator step again (by firing one of its inputs) never nests in it: its effects
/// follow the one being carried out.
///
/// Every input's messages reach the rule on the operator's executor, as a two-source
/// modifier's do (``ModifierCore/runSide(inline:_:)``); timers fire there too. The
/// operator's messages are sent there.
class StreamCore<Input: Sendable, Output: Sendable, Rule>: ModifierCore<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the rule, the outbox, the inputs and the timers are behind
    // `guarded`'s lock.
    private struct Guarded {
        var rule: Rule
        var outbox = Outbox<Output>()
        /// Whether a thread is carrying out effects.
        var isCarryingOut = false
        var isDetached = false
        var sides: [UInt64: any SideLink] = [:]
        var timers: [UInt64: Connection] = [:]
    }

    private let guarded: LockedState<Guarded>
    /// Inputs connected before the upstream (triggers), then after it, in order.
    private var sidesBefore: [() -> Void] = []
    private var sidesAfter: [() -> Void] = []

    init(upstream: MessageSource<Input>, rule: Rule) {
        guarded = LockedState(Guarded(rule: rule))
        super.init(upstream: upstream)
    }

    /// Adds `source` as input `key`, connected when the operator is (before its upstream if
    /// `first`): its messages and its end are stepped with `receive`.
    final func addSide<Message: Sendable>(
        _ source: MessageSource<Message>, key: UInt64, first: Bool = false,
        _ receive: @escaping @Sendable (inout Rule, StreamEvent<Message, any Error>, inout Outbox<Output>) -> Void
    ) {
        let connect = { [self] in connectSide(source, key: key, receive) }
        if first { sidesBefore.append(connect) } else { sidesAfter.append(connect) }
    }

    override func attach() {
        for connect in sidesBefore { connect() }
        super.attach()
        for connect in sidesAfter { connect() }
        sidesBefore = []
        sidesAfter = []
    }

    /// Connects `source` as input `key` now (an inner source), unless the operator was
    /// detached; its replay is stepped at once.
    final func connectSide<Message: Sendable>(
        _ source: MessageSource<Message>, key: UInt64,
        _ handler: @escaping @Sendable (inout Rule, StreamEvent<Message, any Error>, inout Outbox<Output>) -> Void
    ) {
        let inline = executor.queue == nil || executor === source.relay.emittingExecutor
        // The input holds this core until it is detached (by `releaseSide` or `detach()`),
        // which ends that cycle.
        let input = SideInput<Message>(
            inlineQueue: inline && executor.queue != nil ? executor : nil,
            forward: { [self] message in
                runSide(inline: inline) { self.step { handler(&$0, .value(message), &$1) } }
            },
            forwardCompletion: { [self] completion in
                runSide(inline: inline) { self.step { handler(&$0, .completion(completion), &$1) } }
            })
        let link = SideConnection(source: source, input: input)
        let added = guarded.withLock { guarded -> Bool in
            guard !guarded.isDetached else { return false }
            guarded.sides[key] = link
            return true
        }
        if added { link.connect() }
    }

    /// Disconnects input `key` and lets go of it at once.
    final func releaseSide(key: UInt64) {
        let link = guarded.withLock { $0.sides.removeValue(forKey: key) }
        link?.detachLink()
    }

    /// Runs one step of the rule under the lock, unless the operator ended, then carries out
    /// what the outbox holds unless another thread is doing so.
    final func step(_ body: (inout Rule, inout Outbox<Output>) -> Void) {
        var replaced: [Connection] = []
        let carriesOut = guarded.withLock { guarded -> Bool in
            guard !guarded.outbox.hasEnded, !guarded.isDetached else { return false }
            body(&guarded.rule, &guarded.outbox)
            for slot in guarded.outbox.cancelledTimers {
                if let timer = guarded.timers.removeValue(forKey: slot) { replaced.append(timer) }
            }
            guarded.outbox.cancelledTimers = []
            for timer in guarded.outbox.timers {
                let work = timer.work
                let scheduled = startTimer(at: timer.deadline) { [self] in
                    runSide(inline: executor.queue == nil) { work() }
                }
                if let old = guarded.timers.updateValue(scheduled, forKey: timer.slot) { replaced.append(old) }
            }
            guarded.outbox.timers = []
            guard !guarded.isCarryingOut, !guarded.outbox.effects.isEmpty else { return false }
            guarded.isCarryingOut = true
            return true
        }
        // Outside the lock: cancelling takes the scheduler's.
        for timer in replaced { timer.disconnect() }
        if carriesOut { carryOut() }
    }

    /// Schedules `work` at `deadline` on the operator's scheduler; operators with timers
    /// override it. Called under the lock: scheduling never runs the work at once.
    func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        preconditionFailure("Signals: an operator without a scheduler started a timer")
    }

    /// Carries out the outbox's effects, batch by batch, until a look under the lock finds it
    /// empty.
    private func carryOut() {
        // S10: whether an end was carried out; nothing may follow it.
        var ended = false
        while true {
            let batch = guarded.withLock { guarded -> [Outbox<Output>.Effect]? in
                SignalsChecks.checkCarryingOut(
                    isCarryingOut: guarded.isCarryingOut, endedBefore: ended, effects: guarded.outbox.effects.count)
                guard !guarded.outbox.effects.isEmpty else {
                    guarded.isCarryingOut = false
                    return nil
                }
                defer { guarded.outbox.effects = [] }
                return guarded.outbox.effects
            }
            guard let batch else { return }
            for effect in batch {
                SignalsChecks.checkCarryingOut(isCarryingOut: true, endedBefore: ended, effects: 1)
                switch effect {
                case .send(let message): send(message)
                case .end(let completion):
                    finish(completion)
                    ended = true
                case .run(let work): work()
                }
            }
        }
    }

    override func process(_ message: Input, sequence: UInt64?) {
        step { handle(&$0, .value(message), &$1) }
    }

    override func processCompletion(_ completion: Completion<any Error>) {
        step { handle(&$0, .completion(completion), &$1) }
    }

    /// Steps the rule with an event of the upstream; overridden by every operator. By
    /// default, a message is dropped and an end passes.
    func handle(_ rule: inout Rule, _ event: StreamEvent<Input, any Error>, _ outbox: inout Outbox<Output>) {
        if case .completion(let completion) = event { outbox.end(completion) }
    }

    /// Detaches every input and cancels every timer, then detaches from the upstream.
    @discardableResult
    override func detach() -> Bool {
        let (sides, timers) = guarded.withLock { guarded in
            guarded.isDetached = true
            defer {
                guarded.sides = [:]
                guarded.timers = [:]
            }
            return (Array(guarded.sides.values), Array(guarded.timers.values))
        }
        for timer in timers { timer.disconnect() }
        for side in sides { side.detachLink() }
        return super.detach()
    }

    override func detachSideSources() -> [any ChainEnd] {
        let sides = guarded.withLock { guarded in
            defer { guarded.sides = [:] }
            return Array(guarded.sides.values)
        }
        return sides.compactMap { $0.detachLink() }
    }
}
