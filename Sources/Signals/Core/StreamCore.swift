import Dispatch
import Synchronization

/// What a stateful operator's rule does in one step, gathered under the operator's lock and
/// carried out after it, in order: messages to send, the end, work that connects or releases
/// an input, and timers.
///
/// The first effect waits in a field of its own and the rest in an array: a step makes one
/// effect or none nearly always, and then no array is allocated.
@usableFromInline
struct Outbox<Output: Sendable> {
    /// What to carry out after the lock, in order.
    @usableFromInline
    enum Effect {
        case send(Output)
        case end(Completion<any Error>)
        /// Work to run outside the lock, in its turn (connecting or releasing an input).
        case run(@Sendable () -> Void)
    }

    /// The oldest effect waiting, if any; `rest` is empty while this is `nil`.
    @usableFromInline var first: Effect?
    /// The effects after `first`, in order.
    @usableFromInline var rest: [Effect] = []
    /// Whether the rule ended the stream: nothing more is carried out after that.
    @usableFromInline var hasEnded = false
    /// Timers to start under the lock (scheduling never runs the work at once), each in its
    /// slot; a timer already in the slot is cancelled.
    @usableFromInline var timers: [(slot: UInt64, deadline: SchedulerInstant, work: @Sendable () -> Void)] = []
    /// Timer slots whose timers to cancel.
    @usableFromInline var cancelledTimers: [UInt64] = []

    @inlinable
    init() {}

    /// Whether no effect waits.
    @inlinable
    var isEmpty: Bool { first == nil }

    /// How many effects wait.
    @inlinable
    var count: Int { first == nil ? 0 : 1 + rest.count }

    /// Whether timers wait to be started or cancelled.
    @inlinable
    var hasTimerWork: Bool { !timers.isEmpty || !cancelledTimers.isEmpty }

    @inlinable
    mutating func append(_ effect: Effect) {
        if first == nil { first = effect } else { rest.append(effect) }
    }

    /// Effects taken out at once, oldest first.
    @usableFromInline typealias Batch = (first: Effect?, rest: [Effect])

    /// Takes every waiting effect out, oldest first.
    @inlinable
    mutating func take() -> Batch {
        // Moved out, not copied: no retain of what the effects hold, and no release after.
        var taken: [Effect] = []
        if !rest.isEmpty { swap(&taken, &rest) }
        return (first.take(), taken)
    }

    /// Sends `message` on.
    @inlinable
    mutating func send(_ message: Output) {
        if !hasEnded { append(.send(message)) }
    }

    /// Ends the stream (and detaches the operator from every input) after what came before.
    @inlinable
    mutating func end(_ completion: Completion<any Error> = .finished) {
        guard !hasEnded else { return }
        hasEnded = true
        append(.end(completion))
    }

    /// Runs `work` outside the lock, in its turn among the messages.
    @inlinable
    mutating func run(_ work: @escaping @Sendable () -> Void) {
        if !hasEnded { append(.run(work)) }
    }

    /// Runs `work` at `deadline`, in timer slot `slot` (replacing the timer there).
    @inlinable
    mutating func schedule(at deadline: SchedulerInstant, slot: UInt64 = 0, _ work: @escaping @Sendable () -> Void) {
        if !hasEnded { timers.append((slot, deadline, work)) }
    }

    /// Cancels the timer in `slot`, if one runs.
    @inlinable
    mutating func cancelTimer(slot: UInt64 = 0) {
        cancelledTimers.append(slot)
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
@usableFromInline
class StreamCore<Input: Sendable, Output: Sendable, Rule>: ModifierCore<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the rule, the outbox and the timers are behind `guarded`'s
    // lock, the inputs behind `sideTable`'s, and `carrier` is atomic. `sidesBefore` and
    // `sidesAfter` are written only while the operator is built and read once by `attach()`,
    // on the building thread, before anything is connected: no other thread can see them.
    @usableFromInline
    struct Guarded {
        @usableFromInline var rule: Rule
        @usableFromInline var outbox = Outbox<Output>()
        @usableFromInline var isDetached = false
        var timers: [UInt64: Connection] = [:]
        /// The threads waiting for the carrier to leave (S15).
        @usableFromInline var gate = SenderGate()

        init(rule: Rule) {
            self.rule = rule
        }
    }

    @usableFromInline let guarded: LockedState<Guarded>
    /// Who carries out the outbox's effects: bit 0 is set while a thread does, and the rest
    /// counts the steps that left effects to it. Changed under `guarded`'s lock, except when
    /// the carrying thread leaves (``carryOut(_:version:)``): then only if no step left it
    /// anything since it last took the outbox, so that leaving takes no lock.
    @usableFromInline let carrier = Atomic<UInt64>(0)
    /// The inputs beyond the upstream, by key, and whether the core was detached (then no
    /// input is added): not generic, so that adding and releasing one, on every switch of a
    /// `flatMapLatest`, looks up no metadata.
    private let sideTable = LockedState(SideTable())
    /// Inputs connected before the upstream (triggers), then after it, in order.
    private var sidesBefore: [() -> Void] = []
    private var sidesAfter: [() -> Void] = []

    /// A core whose rule starts as `rule`; `entry` is how it receives (see
    /// ``ModifierCore/entry(_:)``).
    @usableFromInline
    init(upstream: MessageSource<Input>, rule: Rule, entry: @escaping Entry = Receiver.receiveEntry) {
        guarded = LockedState(Guarded(rule: rule))
        super.init(upstream: upstream, entry: entry)
    }

    /// Adds `source` as input `key`, connected when the operator is (before its upstream if
    /// `first`): its messages and its end are stepped with `receive`.
    @inlinable
    final func addSide<Message: Sendable>(
        _ source: MessageSource<Message>, key: UInt64, first: Bool = false,
        _ receive: @escaping @Sendable (inout Rule, StreamEvent<Message, any Error>, inout Outbox<Output>) -> Void
    ) {
        let entry = StreamCore.sideEntry(of: Message.self) { _, rule, _, event, outbox in
            receive(&rule, event, &outbox)
        }
        addSide(first: first) { [self] in connectSide(source, key: key, entry: entry) }
    }

    /// Keeps `connect` to run when the operator connects.
    @usableFromInline
    final func addSide(first: Bool, _ connect: @escaping () -> Void) {
        if first { sidesBefore.append(connect) } else { sidesAfter.append(connect) }
    }

    override func attach() {
        for connect in sidesBefore { connect() }
        super.attach()
        for connect in sidesAfter { connect() }
        sidesBefore = []
        sidesAfter = []
    }

    /// The entry of inputs of `Message`s: steps `handler` with this core, the input's key and
    /// each event, at once if the input is inline, otherwise on the operator's executor.
    ///
    /// Made once per operator where it is written (or per input added when it is built), so
    /// that connecting an input allocates no closure.
    @inlinable
    static func sideEntry<Message: Sendable>(
        of _: Message.Type,
        _ handler:
            @escaping @Sendable (
                StreamCore, inout Rule, _ key: UInt64, StreamEvent<Message, any Error>, inout Outbox<Output>
            ) -> Void
    ) -> SideEntry {
        { input, event in
            // Every input is made with its operator's core as the target, and an entry of its
            // message type.
            let core = unsafeDowncast(input.target, to: StreamCore.self)
            let key = input.key
            switch event {
            case .value(let address):
                let message = address.assumingMemoryBound(to: Message.self).pointee
                guard input.isInline else {
                    return core.runSide(inline: false) { core.step { handler(core, &$0, key, .value(message), &$1) } }
                }
                // Inline, at once, without the closure `runSide` would allocate per message.
                guard !core.isDetached.load(ordering: .acquiring) else { return }
                core.step { handler(core, &$0, key, .value(message), &$1) }
            case .completion(let completion):
                core.runSide(inline: input.isInline) {
                    core.step { handler(core, &$0, key, .completion(completion), &$1) }
                }
            }
        }
    }

    /// Connects `source` as input `key` now (an inner source), unless the operator was
    /// detached; its events reach `entry` (one of ``sideEntry(of:_:)``), the replay at once.
    @inlinable
    final func connectSide<Message: Sendable>(_ source: MessageSource<Message>, key: UInt64, entry: @escaping SideEntry)
    {
        let inline = executor.queue == nil || executor === source.relay.emittingExecutor
        // The input holds this core until it is freed; the core lets go of it when it is
        // released (`releaseSide`) or detached, which ends that cycle.
        add(
            TypedSideInput(
                source: source, target: self, key: key, isInline: inline,
                inlineQueue: inline && executor.queue != nil ? executor : nil, entry: entry))
    }

    /// Keeps `input` under its key and connects it, unless the operator was detached.
    @usableFromInline
    final func add(_ input: SideInput) {
        let added = sideTable.withLock { table -> Bool in
            guard !table.isDetached else { return false }
            table.insert(input)
            return true
        }
        if added { input.connectToSource() } else { input.detachFromSource() }
    }

    /// Disconnects input `key` and lets go of it at once.
    @usableFromInline
    final func releaseSide(key: UInt64) {
        let input = sideTable.withLock { $0.remove(key: key) }
        input?.detachFromSource()
    }

    /// Runs one step of the rule under the lock, unless the operator ended, then carries out
    /// what the outbox holds unless another thread is doing so.
    ///
    /// Inlined where an operator is written, with the rule's closure: the step is then
    /// compiled for the chain's types, and looks up no generic metadata (which, generic, took
    /// half of a zip's time).
    @inlinable
    final func step(_ body: (inout Rule, inout Outbox<Output>) -> Void) {
        var replaced: [Connection] = []
        // Filled in under the lock if this thread is to carry out, and then moved on: taken
        // out of an optional tuple instead, every effect and the array were copied.
        var batch: Outbox<Output>.Batch = (nil, [])
        var version: UInt64 = 0
        // S15: set when the outbox is full and another thread carries it out.
        var gate: DispatchSemaphore?
        let carries = guarded.withLock { guarded -> Bool in
            guard !guarded.outbox.hasEnded, !guarded.isDetached else { return false }
            if guarded.outbox.count >= SenderGate.limit {
                gate = waitForCarrier(&guarded)
                if gate != nil { return false }
            }
            body(&guarded.rule, &guarded.outbox)
            if guarded.outbox.hasTimerWork { replaced = startTimers(&guarded) }
            guard !guarded.outbox.isEmpty else { return false }
            var state = carrier.load(ordering: .acquiring)
            while true {
                // Another thread carries out: count this step, and it takes the effects too.
                // Otherwise this thread becomes the carrier and takes them. (A carrier leaving
                // at the same moment makes the exchange fail: look again.)
                let carrying = state & 1 == 1
                let (exchanged, original) = carrier.compareExchange(
                    expected: state, desired: carrying ? state &+ 2 : state | 1, ordering: .acquiringAndReleasing)
                if exchanged {
                    guard !carrying else { return false }
                    batch = guarded.outbox.take()
                    version = state | 1
                    return true
                }
                state = original
            }
        }
        // Outside the lock: cancelling takes the scheduler's.
        if !replaced.isEmpty {
            for timer in replaced { timer.disconnect() }
        }
        if carries { carryOut(batch, version: version) }
        if let gate {
            // The carrier left: step again (this thread may carry out now).
            gate.wait()
            step(body)
        }
    }

    /// Under the lock, with `SenderGate.limit` effects in the outbox (S15): if another thread
    /// carries them out and this one drains nothing, a semaphore to wait on until the carrier
    /// leaves; the carrier is told to look under the lock before it leaves (the count in
    /// `carrier` moves, so its lock-free exchange fails). `nil` if no carrier is left to wait
    /// for: the step goes on.
    @usableFromInline @inline(never)
    final func waitForCarrier(_ guarded: inout Guarded) -> DispatchSemaphore? {
        var state = carrier.load(ordering: .acquiring)
        while state & 1 == 1 {
            // Only the carrier changes the word outside the lock, by leaving.
            let (exchanged, original) = carrier.compareExchange(
                expected: state, desired: state &+ 2, ordering: .acquiringAndReleasing)
            if exchanged { return guarded.gate.holdBack(backlog: guarded.outbox.count) }
            state = original
        }
        return nil
    }

    /// Starts and cancels the timers the outbox asks for; returns those to disconnect after
    /// the lock. Under the lock: scheduling never runs the work at once.
    @usableFromInline
    final func startTimers(_ guarded: inout Guarded) -> [Connection] {
        var replaced: [Connection] = []
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
        return replaced
    }

    /// Schedules `work` at `deadline` on the operator's scheduler; operators with timers
    /// override it. Called under the lock: scheduling never runs the work at once.
    func startTimer(at deadline: SchedulerInstant, _ work: @escaping @Sendable () -> Void) -> Connection {
        preconditionFailure("Signals: an operator without a scheduler started a timer")
    }

    /// Carries out `batch`, then what the outbox gathered meanwhile, batch by batch; leaves
    /// when no step left effects since the last batch was taken (`carrier` still holds
    /// `version`), clearing the carrying bit in that same exchange.
    @inlinable
    final func carryOut(_ batch: __owned Outbox<Output>.Batch, version: UInt64) {
        // Owned, and each effect moved out of it: carrying out retains nothing it holds.
        var batch = batch
        var version = version
        // S10: whether an end was carried out; nothing may follow it.
        var ended = false
        // S15: whether a step waits for this carrier to leave; it then leaves under the lock.
        var isAwaited = false
        // Marked as draining: a step this thread makes from its own sends never waits (S15).
        DeliveryContext.carrying {
            while true {
                if let first = batch.first.take() {
                    ended = carryOut(first, endedBefore: ended)
                    for effect in batch.rest { ended = carryOut(effect, endedBefore: ended) }
                }
                if !isAwaited,
                    carrier.compareExchange(expected: version, desired: version & ~1, ordering: .acquiringAndReleasing)
                        .exchanged
                {
                    return
                }
                // A step left effects (and counted itself), or waits for this carrier to leave,
                // under the lock: take the effects there, or leave and wake the waiters.
                let next = guarded.withLock { guarded -> Outbox<Output>.Batch? in
                    let state = carrier.load(ordering: .acquiring)
                    SignalsChecks.checkCarryingOut(
                        isCarryingOut: state & 1 == 1, endedBefore: ended, effects: guarded.outbox.count)
                    if guarded.outbox.isEmpty, guarded.gate.hasWaiters {
                        // Under the lock, where steps look at the word: the next one carries out.
                        carrier.store(state & ~1, ordering: .releasing)
                        guarded.gate.open()
                        return nil
                    }
                    version = state
                    isAwaited = guarded.gate.hasWaiters
                    return guarded.outbox.take()
                }
                guard let next else { return }
                batch = next
            }
        }
    }

    /// Carries out one effect; returns whether the operator has ended.
    @inlinable
    final func carryOut(_ effect: Outbox<Output>.Effect, endedBefore: Bool) -> Bool {
        SignalsChecks.checkCarryingOut(isCarryingOut: true, endedBefore: endedBefore, effects: 1)
        switch effect {
        case .send(let message):
            // Never nested in this core's own delivery on this thread: only the carrier sends
            // here, and a step made from a delivery of it leaves its effects to the carrier.
            // So a pinned thread (a delivery of an input, a replay) sends without the
            // thread's delivery record; a timer's thread, unpinned, takes the guarded path.
            if DeliveryContext.isPinned {
                sendFromInput(message, sequence: nil)
            } else {
                send(message)
            }
            return endedBefore
        case .end(let completion):
            finish(completion)
            return true
        case .run(let work):
            work()
            return endedBefore
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
        let timers = guarded.withLock { guarded in
            guarded.isDetached = true
            defer { guarded.timers = [:] }
            return Array(guarded.timers.values)
        }
        let sides = sideTable.withLock { table in
            table.isDetached = true
            return table.removeAll()
        }
        for timer in timers { timer.disconnect() }
        for side in sides { side.detachFromSource() }
        return super.detach()
    }

    override func detachSideSources() -> [any ChainEnd] {
        let sides = sideTable.withLock { $0.removeAll() }
        return sides.compactMap { $0.detachFromSource() }
    }
}

/// A stream operator's inputs beyond its upstream.
///
/// An array searched by key, not a dictionary: an operator has a few inputs (a flattening,
/// its running inner sources), and hashing a key took a tenth of a `flatMapLatest` switch.
/// Adding is O(1), releasing O(inputs), as disconnecting from a relay's receivers list is.
struct SideTable: Sendable {
    private var sides: [SideInput] = []
    var isDetached = false

    /// Keeps `input`, whose key no kept input has: an operator numbers its fixed inputs
    /// apart, and a flattening gives each inner source a new number.
    mutating func insert(_ input: SideInput) {
        sides.append(input)
    }

    /// Lets go of the input with `key`, and returns it.
    mutating func remove(key: UInt64) -> SideInput? {
        guard let index = sides.firstIndex(where: { $0.key == key }) else { return nil }
        return sides.remove(at: index)
    }

    /// Lets go of every input, and returns them.
    mutating func removeAll() -> [SideInput] {
        var taken: [SideInput] = []
        swap(&taken, &sides)
        return taken
    }
}
