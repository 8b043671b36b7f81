/// The state and delivery behind an observable (a ``MessageSource``): the connected receivers,
/// held strongly, and the last message. A send nested in a delivery waits in the thread's
/// ``DeliveryContext``.
///
/// A relay holds its receivers strongly, so a delivery loads no weak reference (a weak
/// reference gives its object a side table, and every retain and release of it then takes
/// the slow path: 70% of a delivery's time under perf). What a user holds is the
/// ``MessageSource`` handle; a modifier's handle disconnects its receiver when it is freed.
///
/// The path a message takes (``send(_:sequence:)``, ``sendFromInput(_:sequence:)`` and what
/// they call) is `@inlinable`, and so is each one-input operator that builds a modifier: a
/// client's chain is then compiled for its own message types. Code in this module is generic
/// and copies, compares and remembers messages through run-time type information, which cost
/// three times the delivery itself (a probe of map → filter → then: 31 ns per message
/// compiled for `Int`, 170 ns generic).
@usableFromInline
class Relay<Message: Sendable>: Receiver, @unchecked Sendable {
    // `@unchecked`: a non-final class cannot be checked. Every stored property here and in
    // every subclass is a `let` of a `Sendable` type, or (`lastSlot`, `completion`,
    // `replayRule`) only touched while holding `state`'s lock.

    // The hot path (`send`) touches only non-generic types: generic code that uses a generic
    // struct or `Optional<Message>` looks their metadata up at run time, which cost more than
    // the delivery itself (callgrind).
    @usableFromInline let state = RelayStorage.make(
        messageSize: MemoryLayout<Message>.size, alignment: MemoryLayout<Message>.alignment)
    /// The last message, in `state`'s allocation; initialized while `state.hasLast`, read and
    /// written under the lock.
    @usableFromInline let lastSlot: UnsafeMutablePointer<Message>
    /// Where this observable sends its messages from (`nil`: any thread, for sources).
    @usableFromInline let emittingExecutor: Executor?
    /// How the stream ended, once it did (while `state.isCompleted`): what a receiver that
    /// connects later is handed instead of a last message. Under `state`'s lock.
    private var completion: Completion<any Error>?
    /// What a connecting receiver is owed beyond the last message, if an operator said
    /// (``ReplayRule``), or while a burst is open (see ``keepInHistory(_:sequence:in:)``);
    /// `nil` for the common relay. Under `state`'s lock, with its history (so no access
    /// overlaps another: unchecked, as a checked access costs a runtime call).
    @exclusivity(unchecked) private var replayRule: ReplayRule<Message>?

    /// A relay whose last message is `last` (or none), sending from `emittingExecutor`, that
    /// owes connecting receivers what `rule` says (by default, the last message); `entry` is
    /// how it receives, as a modifier's core (see ``Receiver/entry``).
    init(
        last: Message? = nil, emittingExecutor: Executor?, rule: ReplayRule<Message>? = nil,
        entry: @escaping Entry = Receiver.receiveEntry
    ) {
        lastSlot = state.messageAddress(alignment: MemoryLayout<Message>.alignment)
            .bindMemory(to: Message.self, capacity: 1)
        self.emittingExecutor = emittingExecutor
        self.replayRule = rule
        super.init(entry: entry)
        // Locked only if there is something to set: most relays start with neither.
        guard rule != nil || last != nil else { return }
        state.withLock { state in
            state.hasRule = rule != nil
            if let last { remember(last, sequence: nil, in: &state) }
        }
    }

    deinit {
        SignalsChecks.relayFreed(self)
        // The slot itself goes with `state`, which this relay's deinit releases after this.
        let list = state.withLock { state -> Unmanaged<ReceiverList>? in
            if state.hasLast { lastSlot.deinitialize(count: 1) }
            return state.list
        }
        // No delivery walks this list: a walk runs inside a send of this relay, which the
        // caller keeps alive (a source's handle, or the list of the relay before it).
        list?.release()
    }

    /// The last message sent, if any: what a newly connected modifier receives. `nil` once
    /// ended, also when the relay keeps the message it ended on (see ``keepsLastAtEnd``).
    var lastMessage: Message? {
        state.withLock { $0.hasLast && !$0.isCompleted && replayRule?.depth != 0 ? lastSlot.pointee : nil }
    }

    /// Whether an end that comes now keeps the last message, to hand it, then the end, to
    /// each receiver that connects afterwards. False for sources: an ended source replays
    /// its end only. A modifier's core keeps it while it connects: its replay ended it
    /// (`first(where:)` on a property that already matches), and the modifiers written after
    /// it have not connected yet.
    var keepsLastAtEnd: Bool { false }

    /// How many receivers are connected.
    var connectedCount: Int {
        state.withLock { state in state.list.map { $0._withUnsafeGuaranteedRef(\.count) } ?? 0 }
    }

    /// Remembers `message`, numbered `sequence` by a source whose writes can race (or
    /// `nil`): only if no later-numbered message was remembered first. The one place a relay
    /// remembers: the last message, its number (``ObservableState/remembered``) and, if the
    /// relay has a ``ReplayRule``, the rule's history. Under the lock.
    @inlinable
    final func remember(_ message: Message, sequence: UInt64?, in state: inout ObservableState) {
        if let sequence {
            guard sequence > state.lastSequence else { return }
        }
        // A burst's first message needs nothing kept (the last slot holds it): the common
        // connect, a replay of one message, makes no call here.
        if state.hasRule || (state.inBurst && state.remembered > state.burstStart) {
            keepInHistory(message, sequence: sequence, in: &state)
        }
        if let sequence { state.lastSequence = sequence }
        state.remembered &+= 1
        if state.hasLast {
            lastSlot.pointee = message
        } else {
            lastSlot.initialize(to: message)
            state.hasLast = true
        }
    }

    /// Keeps `message`, about to be remembered, in the history of the relay's rule. Out of
    /// line: only relays with a rule, or with a burst open, call it. Under the lock, before
    /// the last message and its numbers are replaced.
    ///
    /// A burst is what a modifier's core sends while it connects (its upstream's replay, and
    /// what waited meanwhile): all of it is kept, and owed to what connects next, so that a
    /// replay of several messages (a ``MessageSource/sequence(_:)``, a
    /// ``MessageSource/prepend(_:)``, a ``MessageSource/replay(_:)``) crosses a chain whole
    /// though each link connects after the one before it has received it. The first message
    /// sent once connecting is over ends the burst: the rule keeps its `depth` again, and a
    /// rule made for the burst alone is dropped.
    @usableFromInline @inline(never)
    final func keepInHistory(_ message: Message, sequence: UInt64?, in state: inout ObservableState) {
        if state.inBurst, !isConnectingNow {
            state.inBurst = false
            if let rule = replayRule {
                if rule.isBurstOnly {
                    replayRule = nil
                    state.hasRule = false
                } else {
                    rule.trim()
                }
            }
        }
        if state.inBurst, replayRule == nil {
            // The burst's first message stays in the last slot alone; its second makes a rule
            // that keeps both.
            guard state.hasLast, state.remembered > state.burstStart else { return }
            let rule = ReplayRule<Message>(depth: 1, isBurstOnly: true)
            rule.keep(
                lastSlot.pointee, sequence: state.lastSequence > 0 ? state.lastSequence : nil, number: state.remembered,
                inBurst: true)
            replayRule = rule
            state.hasRule = true
        }
        replayRule?.keep(message, sequence: sequence, number: state.remembered &+ 1, inBurst: state.inBurst)
    }

    /// Whether this relay is a modifier's core that is connecting: a burst lasts as long.
    var isConnectingNow: Bool { false }

    /// Under the lock, as a modifier's core begins connecting: opens a burst, unless its
    /// rule owes nothing.
    final func openBurst(in state: inout ObservableState) {
        guard replayRule?.depth != 0 else { return }
        state.inBurst = true
        state.burstStart = state.remembered
    }

    /// Sends `message` to every connected modifier, and remembers it.
    ///
    /// A message sent by the thread that is delivering this observable's message (from a
    /// closure of an inline chain) is queued and delivered after the current one, first in
    /// first out, so that every modifier receives this thread's messages in the order sent
    /// and the last message remembered is the newest. Other threads deliver at once, as
    /// before: they never wait for each other.
    @inlinable
    final func send(_ message: Message) {
        send(message, sequence: nil)
    }

    /// Sends `message`, numbered `sequence` by a source whose writes can race (or `nil`);
    /// it is remembered only if no later-numbered message was sent first.
    @inlinable
    final func send(_ message: Message, sequence: UInt64?) {
        let context = DeliveryContext.current
        let identity = ObjectIdentifier(self)
        if context._withUnsafeGuaranteedRef({ $0.isDelivering(identity) }) {
            return enqueueNested(message, sequence: sequence, in: context)
        }
        // Begun (and the thread pinned) before the list is read: see `Reclaimer`.
        context._withUnsafeGuaranteedRef { $0.begin(identity) }
        if let receivers = rememberAndTakeReceivers(message, sequence: sequence) {
            deliver(message, sequence: sequence, to: receivers)
        }
        context._withUnsafeGuaranteedRef { $0.end(identity) }
    }

    /// Sends `message` (numbered `sequence`, or not) from the work of a one-input modifier
    /// that runs on the sending thread, skipping the thread's delivery context: it remembers
    /// and delivers at once.
    ///
    /// Such a send can never be nested in this relay's own delivery on the same thread. The
    /// modifier works only inside its input's delivery (or in its own replay, before anything
    /// is connected to it, or in a drain of what waited while it connected, at the top of a
    /// thread); a closure after it that fires the chain's source while that source delivers
    /// is queued by the source (``send(_:sequence:)``). By induction up the chain, the relay
    /// is never entered twice on one thread. Sources, two-source and paced modifiers (fed by
    /// a second source or a timer) and modifiers on a queue (whose work a spun run loop can
    /// nest) use the guarded ``send(_:sequence:)``.
    @inlinable
    final func sendFromInput(_ message: Message, sequence: UInt64?) {
        guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
        deliver(message, sequence: sequence, to: receivers)
    }

    /// Under the lock: remembers `message` and takes the receivers, or `nil` if there are
    /// none (a relay without receivers just remembers: there is no delivery to nest in).
    /// After the end, the message is dropped: `nil`, nothing remembered.
    @inlinable @inline(__always)
    final func rememberAndTakeReceivers(_ message: Message, sequence: UInt64?) -> ReceiverWalk? {
        state.withLock { state -> ReceiverWalk? in
            guard !state.isCompleted else { return nil }
            let before = state.remembered
            remember(message, sequence: sequence, in: &state)
            guard let list = state.list else { return nil }
            let count = list._withUnsafeGuaranteedRef { $0.count }
            SignalsChecks.handedLive(
                self, list, count: count, number: state.remembered != before ? state.remembered : 0)
            return ReceiverWalk(list: list, count: count)
        }
    }

    /// Queues a send made while this relay delivers on the same thread; it is remembered
    /// and delivered when the delivery under way has reached every receiver. Not inlined:
    /// the closure captures a generic message, whose metadata would otherwise be looked up
    /// on every send.
    @usableFromInline @inline(never)
    final func enqueueNested(_ message: Message, sequence: UInt64?, in context: Unmanaged<DeliveryContext>) {
        context._withUnsafeGuaranteedRef { context in
            context.enqueue(ObjectIdentifier(self)) { [self] in
                guard let receivers = rememberAndTakeReceivers(message, sequence: sequence) else { return }
                deliver(message, sequence: sequence, to: receivers)
            }
        }
    }

    /// Hands `message` to each receiver in `receivers`, a list read under the lock; the
    /// thread is pinned (see ``Reclaimer``), so the list stays alive without a reference.
    @inlinable
    final func deliver(_ message: Message, sequence: UInt64?, to receivers: ReceiverWalk) {
        assert(DeliveryContext.isPinned, "Signals: a delivery walked a receivers list without pinning its thread")
        SignalsChecks.walkBegins(receivers.list)
        withUnsafePointer(to: message) { pointer in
            receivers.list._withUnsafeGuaranteedRef {
                $0.deliver(UnsafeRawPointer(pointer), sequence: sequence, count: receivers.count)
            }
        }
        SignalsChecks.walkEnds(receivers.list)
    }

    /// How the stream ended, if it did.
    var endedWith: Completion<any Error>? {
        state.withLock { $0.isCompleted ? completion : nil }
    }

    /// Ends the stream: sends `completion` to every connected receiver, after every message
    /// sent before it, then lets go of them all; later messages and completions are dropped,
    /// and a receiver that connects later is handed the completion at once.
    ///
    /// Guarded as ``send(_:sequence:)`` is: sent while this relay delivers on the same
    /// thread, it waits behind the messages queued there.
    final func complete(_ completion: Completion<any Error>) {
        let context = DeliveryContext.current
        let identity = ObjectIdentifier(self)
        if context._withUnsafeGuaranteedRef({ $0.isDelivering(identity) }) {
            context._withUnsafeGuaranteedRef { context in
                context.enqueue(identity) { [self] in deliverCompletion(completion) }
            }
            return
        }
        context._withUnsafeGuaranteedRef { $0.begin(identity) }
        deliverCompletion(completion)
        context._withUnsafeGuaranteedRef { $0.end(identity) }
    }

    /// Records the end under the lock (forgetting the last message, which no receiver is
    /// handed any more, unless ``keepsLastAtEnd``), takes the receivers out of the state and hands each the completion.
    private func deliverCompletion(_ completion: Completion<any Error>) {
        let taken = state.withLock { state -> Unmanaged<ReceiverList>? in
            guard !state.isCompleted else { return nil }
            state.isCompleted = true
            self.completion = completion
            if state.hasLast {
                if keepsLastAtEnd || replayRule?.keepsAtEnd == true {
                    state.keptAtEnd = true
                } else {
                    lastSlot.deinitialize(count: 1)
                    state.hasLast = false
                    replayRule?.clear()
                }
            }
            SignalsChecks.connectionsEnd(self, state.list, remembered: state.remembered)
            defer {
                state.list = nil
                SignalsChecks.checkEnded(state)
            }
            return state.list
        }
        guard let taken else { return }
        // Out of the state, the list changes no more (only the state's list is appended to):
        // reading it without the lock is safe. Retired afterwards, not released: another
        // thread may still be walking it with a message sent before the end.
        let list = taken.takeRetainedValue()
        for receiver in list.receivers { receiver.receiveCompletion(completion) }
        Reclaimer.shared.retire(list)
    }

    /// Connects `receiver`, which takes messages of type `Message`, and holds it until it is
    /// disconnected; hands it what it is owed (see ``owe(into:from:first:prefix:through:)``)
    /// through ``Receiver/receiveReplay(raw:sequence:)``, outside the lock, in one pinned
    /// section.
    ///
    /// S13, the one rule of replay: what a receiver is owed is decided in the critical
    /// section that adds it to the list, so a message remembered before that section is
    /// either owed or superseded, and one remembered after it is delivered to the receiver
    /// live (its send reads the new list). A receiver that connects again (a modifier
    /// brought back by a new chain, see ``reviveAfterConnect()``) is owed only what was
    /// remembered after it disconnected (``Receiver/seenThrough``).
    ///
    /// A lone owed message waits in a temporary allocation and the lock's closure returns a
    /// non-generic value: a generic tuple or optional would have its metadata looked up at run
    /// time on every connect (perf: most of a subscription's time went to lookups).
    func connect(_ receiver: Receiver) {
        withUnsafeTemporaryAllocation(of: Message.self, capacity: 1) { buffer in
            let single = buffer.baseAddress!
            let owed = state.withLock { state -> Owed in
                let isFirst = !receiver.wasConnected
                let first = receiver.firstOwed(remembered: state.remembered)
                guard !state.isCompleted else {
                    SignalsChecks.checkEnded(state)
                    // Not connected; handed what the relay kept at its end, if anything, then
                    // the end.
                    SignalsChecks.connects(self, receiver, remembered: state.remembered)
                    var owed = owe(into: single, from: state, first: first, prefix: isFirst, through: state.remembered)
                    owed.completion = completion
                    return owed
                }
                var old = state.list
                if let list = old, list._withUnsafeGuaranteedRef({ $0.appendIfRoom(receiver) }) {
                    old = nil
                } else {
                    // Full (or none): a new list with room to double, the old one retired.
                    let list: ReceiverList
                    if let old {
                        let receivers = old.takeUnretainedValue().receivers + [receiver]
                        list = ReceiverList.make(receivers, capacity: 2 * receivers.count - 1)
                    } else {
                        list = ReceiverList.make(single: receiver, capacity: 2)
                    }
                    state.list = Unmanaged.passRetained(list)
                }
                SignalsChecks.checkList(state.list)
                SignalsChecks.connects(self, receiver, remembered: state.remembered)
                // A relay that revives first is owed its prefix now and the rest afterwards:
                // what its revival sends reaches the receiver live.
                let revives = claimRevival()
                var owed = owe(
                    into: single, from: state, first: first, prefix: isFirst, through: revives ? nil : state.remembered)
                owed.replaced = old
                if revives { owed.revivesFrom = state.remembered }
                owed.first = first
                return owed
            }
            if let replaced = owed.replaced { Reclaimer.shared.retire(replaced.takeRetainedValue()) }
            hand(owed, single, to: receiver)
            guard let mark = owed.revivesFrom else { return }
            // Connected: what the revived modifier sends now reaches the receiver, in order.
            reviveAfterConnect()
            let later = state.withLock { state -> Owed in
                guard !state.isCompleted else { return Owed() }
                return owe(into: single, from: state, first: owed.first, prefix: false, through: mark)
            }
            hand(later, single, to: receiver)
        }
    }

    /// Under the lock: copies what a receiver connecting now is owed, and says so. The one
    /// rule (S13): of the messages remembered, the receiver is owed those numbered `first`
    /// or later (it had the ones before), no later than `through` (`nil`: none; a revival
    /// passes the number it started from, what came later reached the receiver live), and
    /// among the last the relay keeps: one, or a ``ReplayRule``'s `depth`. With `prefix` (a
    /// receiver's first connection), the rule's prefix before them.
    ///
    /// A lone message (the common relay) is copied into `single`; several, into a batch.
    private func owe(
        into single: UnsafeMutablePointer<Message>, from state: ObservableState, first: UInt64, prefix: Bool,
        through last: UInt64?
    ) -> Owed {
        let kept = state.hasLast && (!state.isCompleted || state.keptAtEnd)
        guard let rule = replayRule else {
            guard kept, let last, state.remembered == last, last >= first else { return Owed() }
            single.initialize(to: lastSlot.pointee)
            SignalsChecks.owes(self, [last], first: first, through: last, depth: 1, kept: kept, state: state)
            return Owed(isOwed: true, sequence: state.lastSequence > 0 ? state.lastSequence : nil, number: last)
        }
        let owesEntries = last != nil && kept && rule.keptCount > 0
        guard owesEntries || (prefix && !rule.prefix.isEmpty) else {
            SignalsChecks.owes(
                self, [], first: first, through: last ?? 0, depth: rule.depth, kept: kept, state: state)
            return Owed()
        }
        let batch = OwedMessages<Message>()
        batch.messages.reserveCapacity((prefix ? rule.prefix.count : 0) + rule.keptCount)
        if prefix { batch.messages.append(contentsOf: rule.prefix.lazy.map { ($0, nil, 0) }) }
        if let last, kept {
            // The last `depth`, and every message of an open burst.
            let depth = UInt64(rule.depth)
            let oldest = state.remembered >= depth ? state.remembered - depth + 1 : 1
            let newest = state.inBurst ? min(oldest, state.burstStart + 1) : oldest
            for entry in rule.entries(from: max(first, newest)) where entry.number <= last {
                batch.messages.append((entry.message, entry.sequence, entry.number))
            }
        }
        SignalsChecks.owes(
            self, batch.messages.map(\.number).filter { $0 > 0 }, first: first, through: last ?? 0,
            depth: rule.depth, kept: kept, state: state)
        return batch.messages.isEmpty ? Owed() : Owed(batch: batch)
    }

    /// Outside the lock: hands `receiver` what `owe` copied (a lone message from `single`, or
    /// a batch), in order, then the end if the relay had ended, in one pinned section; and
    /// destroys the copy. Pinned: a replay may run work that sends on (a modifier whose chain
    /// was just extended, through messages that waited).
    private func hand(_ owed: Owed, _ single: UnsafeMutablePointer<Message>, to receiver: Receiver) {
        guard owed.isOwed || owed.batch != nil || owed.completion != nil else { return }
        DeliveryContext.pinned {
            if owed.isOwed {
                SignalsChecks.handsReplay(self, receiver, number: owed.number)
                receiver.receiveReplay(raw: UnsafeRawPointer(single), sequence: owed.sequence)
            }
            if let batch = owed.batch {
                // Made by `owe`, of this relay's message type.
                for (message, sequence, number) in unsafeDowncast(batch, to: OwedMessages<Message>.self).messages {
                    SignalsChecks.handsReplay(self, receiver, number: number)
                    withUnsafePointer(to: message) {
                        receiver.receiveReplay(raw: UnsafeRawPointer($0), sequence: sequence)
                    }
                }
            }
            if let completion = owed.completion { receiver.receiveReplayCompletion(completion) }
        }
        if owed.isOwed { single.deinitialize(count: 1) }
        if owed.completion != nil { SignalsChecks.disconnects(self, receiver, remembered: nil) }
    }

    /// Under the lock, as a receiver connects: whether this relay must reconnect to what it
    /// observes first (a modifier's core that let go of its upstream when its last chain was
    /// removed claims that here). False for sources.
    func claimRevival() -> Bool { false }

    /// Reconnects this relay to what it observes, after a connect claimed it
    /// (``claimRevival()``).
    func reviveAfterConnect() {}

    /// Disconnects `receiver`, and marks the messages it has had (``Receiver/seenThrough``).
    /// It is released outside the lock: if that release is its last, its `deinit` may
    /// disconnect what it holds, which takes other relays' locks.
    func disconnect(_ receiver: Receiver) {
        let replaced = state.withLock { state -> Unmanaged<ReceiverList>? in
            guard let old = state.list else { return nil }
            if old._withUnsafeGuaranteedRef({ $0.holdsOnly(receiver) }) {
                receiver.noteDisconnected(remembered: state.remembered)
                SignalsChecks.disconnects(self, receiver, remembered: state.remembered)
                state.list = nil
                return old
            }
            var receivers = old.takeUnretainedValue().receivers
            guard let index = receivers.firstIndex(where: { $0 === receiver }) else { return nil }
            receiver.noteDisconnected(remembered: state.remembered)
            SignalsChecks.disconnects(self, receiver, remembered: state.remembered)
            receivers.remove(at: index)
            state.list =
                receivers.isEmpty
                ? nil : Unmanaged.passRetained(ReceiverList.make(receivers, capacity: receivers.count + 1))
            SignalsChecks.checkList(state.list)
            return old
        }
        // Retired, not released: another thread may be walking it; it holds `receiver` until
        // then. Outside the lock: freeing it may free the receiver, whose teardown may
        // disconnect what it holds.
        if let replaced { Reclaimer.shared.retire(replaced.takeRetainedValue()) }
    }
}

/// An observable's state behind its lock. At file scope, not nested in the generic class:
/// a nested type is generic too, and its metadata would be looked up on every send.
@usableFromInline
struct ObservableState: @unchecked Sendable {
    // `@unchecked`: only touched under its relay's lock; `list` is a reference the relay
    // owns (one retain, given back when it is replaced or the relay is freed).

    /// The connected receivers, `nil` if none.
    @usableFromInline var list: Unmanaged<ReceiverList>?
    @usableFromInline var hasLast = false
    /// The sequence number of the last message, for sources whose writers race
    /// (``Property``).
    @usableFromInline var lastSequence: UInt64 = 0
    /// Whether the stream ended: no message is remembered or delivered after it.
    @usableFromInline var isCompleted = false
    /// How many messages were remembered: the number of the last one. A receiver that
    /// disconnects notes it (``Receiver/seenThrough``), so that connecting again it is not
    /// handed a message it had.
    @usableFromInline var remembered: UInt64 = 0
    /// Whether the relay ended while it kept its last message for later receivers (see
    /// ``Relay/keepsLastAtEnd``).
    @usableFromInline var keptAtEnd = false
    /// Whether the relay has a ``ReplayRule``, whose history ``Relay/remember(_:sequence:in:)``
    /// keeps: a flag beside the others, so that the common relay's send tests no reference.
    @usableFromInline var hasRule = false
    /// Whether a burst is open (see ``Relay/keepInHistory(_:sequence:in:)``), and how many
    /// messages were remembered when it opened.
    @usableFromInline var inBurst = false
    @usableFromInline var burstStart: UInt64 = 0

    init() {}
}

/// What a connecting receiver is owed, as a relay decided under its lock (see
/// ``Relay/owe(into:from:first:prefix:through:)``).
struct Owed {
    /// Whether a lone message is owed (copied into the connect's temporary allocation).
    var isOwed = false
    /// Its source's number, if any.
    var sequence: UInt64?
    /// Its number in the relay (``ObservableState/remembered``).
    var number: UInt64 = 0
    /// Several owed messages, in order: an `OwedMessages` of the relay's message type.
    var batch: OwedBatch?
    /// The receivers list the connection replaced, to retire.
    var replaced: Unmanaged<ReceiverList>?
    /// How the stream ended, if it did: the receiver was not connected and is handed this,
    /// after what it is owed.
    var completion: Completion<any Error>?
    /// Whether the relay reconnects to what it observes before handing the rest
    /// (``Relay/claimRevival()``), and if so how many messages it had remembered then.
    var revivesFrom: UInt64?
    /// The first number the receiver is owed (see ``Receiver/firstOwed(remembered:)``).
    var first: UInt64 = 0
}

/// Takes messages from a relay, by address: the relay knows the message type and so does
/// the receiver it connected (a modifier's core whose input is that type, or a two-source
/// modifier's second input).
///
/// A class rather than a protocol, so that a delivery calls it through an unretained
/// reference. Every relay is one (a modifier's core receives from the relay before it);
/// an endpoint's relay is never connected, and ignores messages.
@usableFromInline
class Receiver: @unchecked Sendable {
    // `@unchecked`: the one stored property is a `let` of a `Sendable` closure; subclasses
    // say why they are `Sendable`.

    /// How a delivery hands this receiver a message: the receiver itself, the message's
    /// address and its number.
    @usableFromInline typealias Entry = @Sendable (Receiver, UnsafeRawPointer, UInt64?) -> Void

    /// What a delivery calls. By default ``receive(raw:sequence:)``; a one-input modifier's
    /// core made by an operator gets a closure compiled for its client's types, which runs
    /// the modifier's work at once in the common case (see ``ModifierCore/entry(_:)``).
    @usableFromInline final let entry: Entry

    /// The number of the last message of the relay this receiver was disconnected from
    /// (``ObservableState/remembered``), written under that relay's lock: connecting to it
    /// again, it is owed only messages remembered later.
    @exclusivity(unchecked) final var seenThrough: UInt64 = 0
    /// Whether it was connected before: a receiver's first connection is also owed a
    /// ``ReplayRule``'s prefix. Written under the relay's lock, with ``seenThrough``.
    @exclusivity(unchecked) final var wasConnected = false
    /// Whether, since it disconnected, a message reached it that it dropped (a modifier's
    /// core that let go of its upstream, see ``ModifierCore/takesLateMessage()``): connecting
    /// again, it is owed its relay's last message whatever it had. Set by the receiver before
    /// it connects, on the connecting thread; cleared by the connect.
    @exclusivity(unchecked) final var missedLast = false

    /// Under the relay's lock, as it disconnects this receiver: notes what it had.
    final func noteDisconnected(remembered: UInt64) {
        seenThrough = remembered
        wasConnected = true
    }

    /// Under the lock of the relay it connects to, which has remembered `remembered`
    /// messages: the number of the first message it is owed (1 on a first connection).
    final func firstOwed(remembered: UInt64) -> UInt64 {
        guard wasConnected else { return 1 }
        defer { missedLast = false }
        return missedLast ? min(seenThrough + 1, max(remembered, 1)) : seenThrough + 1
    }

    /// A receiver entered through `entry`. Not an optional parameter: an optional closure is
    /// stored in its most general form, and calling it after unwrapping goes through two
    /// conversion thunks (perf: a quarter of a three-modifier chain's time).
    init(entry: @escaping Entry = Receiver.receiveEntry) {
        self.entry = entry
    }

    /// The default ``entry``: ``receive(raw:sequence:)``.
    @usableFromInline static let receiveEntry: Entry = { receiver, message, sequence in
        receiver.receive(raw: message, sequence: sequence)
    }

    /// Receives the message at `message`, which is of the receiver's input type, numbered
    /// `sequence` by a source whose messages are states (or `nil`).
    @usableFromInline
    func receive(raw message: UnsafeRawPointer, sequence: UInt64?) {}

    /// Receives the message it is owed on connecting (the relay's last message), at
    /// `message`, before any message sent after it.
    func receiveReplay(raw message: UnsafeRawPointer, sequence: UInt64?) {}

    /// Receives the end of the stream, after every message sent before it; nothing follows.
    /// The relay has let go of this receiver.
    func receiveCompletion(_ completion: Completion<any Error>) {}

    /// Receives the end of a stream that had ended when this receiver connected (it was not
    /// connected). By default, as ``receiveCompletion(_:)``.
    func receiveReplayCompletion(_ completion: Completion<any Error>) {
        receiveCompletion(completion)
    }

    /// Asked when the chain after it ended: a modifier's core that feeds nothing any more
    /// detaches from its upstream and returns it, to be asked in turn; anything else (a
    /// source's relay, a core that still feeds a chain) returns `nil`.
    func detachIfIdle() -> Receiver? { nil }
}
