import ReactiveCore

// The engine's invariants, checked in code when the module is built with
// `SIGNALS_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/Signals.md states
// each one (S1, S2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag every hook below is an empty inline function: the checks cost nothing.

/// The invariant checks' entry points, called by the engine.
@usableFromInline
package enum SignalsChecks {
    /// Whether this build of the module checks the engine's invariants
    /// (`SIGNALS_INTERNAL_CHECKS`).
    package static var isEnabled: Bool {
        #if SIGNALS_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }

    /// A receivers list was made.
    @inline(__always)
    static func listMade(_ list: ReceiverList) {
        #if SIGNALS_INTERNAL_CHECKS
            walks.withLock { _ = $0.live.insert(ObjectIdentifier(list)) }
        #endif
    }

    /// A receivers list is being freed. S1: no thread walks it.
    @inline(__always)
    static func listFreed(_ list: ReceiverList) {
        #if SIGNALS_INTERNAL_CHECKS
            let walkers = walks.withLock { walks in
                walks.live.remove(ObjectIdentifier(list))
                return walks.walking[ObjectIdentifier(list), default: 0]
            }
            signalsCheck(walkers == 0, "S1", "a receivers list was freed while \(walkers) thread(s) walked it")
        #endif
    }

    /// A delivery starts walking `list`. S1: the list is alive and the thread pinned.
    @usableFromInline @inline(__always)
    static func walkBegins(_ list: Unmanaged<ReceiverList>) {
        #if SIGNALS_INTERNAL_CHECKS
            let id = ObjectIdentifier(list.takeUnretainedValue())
            let live = walks.withLock { walks in
                walks.walking[id, default: 0] += 1
                return walks.live.contains(id)
            }
            signalsCheck(live, "S1", "a delivery walks a receivers list already freed")
            signalsCheck(DeliveryContext.isPinned, "S1", "a delivery walks a receivers list without pinning its thread")
        #endif
    }

    /// A delivery has walked `list`.
    @usableFromInline @inline(__always)
    static func walkEnds(_ list: Unmanaged<ReceiverList>) {
        #if SIGNALS_INTERNAL_CHECKS
            let id = ObjectIdentifier(list.takeUnretainedValue())
            walks.withLock { walks in
                walks.walking[id, default: 0] -= 1
                if walks.walking[id] == 0 { walks.walking[id] = nil }
            }
        #endif
    }

    /// S6: the retired lists are in the order of their stamps, each earlier than the epoch.
    /// The stamps are read only when checking: without the checks nothing is evaluated.
    @inline(__always)
    static func checkRetired(_ stamps: @autoclosure () -> [UInt64], epoch: UInt64) {
        #if SIGNALS_INTERNAL_CHECKS
            var previous: UInt64 = 0
            for stamp in stamps() {
                signalsCheck(
                    previous < stamp && stamp < epoch, "S6",
                    "retired lists out of stamp order (\(previous), then \(stamp); epoch \(epoch))")
                previous = stamp
            }
        #endif
    }

    /// A relay remembered message `number` (zero: it was not remembered, being older than
    /// one remembered before) and hands it to the first `count` receivers of `list`, under
    /// its lock. S13: each is handed the relay's messages live one after another, from the
    /// first remembered after it connected.
    @usableFromInline @inline(__always)
    static func handedLive(_ relay: AnyObject, _ list: Unmanaged<ReceiverList>, count: Int, number: UInt64) {
        #if SIGNALS_INTERNAL_CHECKS
            guard number > 0 else { return }
            let receivers = list.takeUnretainedValue().receivers.prefix(count).map(ObjectIdentifier.init)
            let relayID = ObjectIdentifier(relay)
            let failure = handshakes.withLock { handshakes -> String? in
                for receiver in receivers {
                    guard var connection = handshakes[relayID]?[receiver] else {
                        return "a relay handed message \(number) to a receiver it never connected"
                    }
                    guard number == connection.liveThrough + 1, number > connection.connectedAt else {
                        return "a receiver was handed message \(number) live after message \(connection.liveThrough)"
                            + " (connected after message \(connection.connectedAt))"
                    }
                    connection.liveThrough = number
                    handshakes[relayID]![receiver] = connection
                }
                return nil
            }
            if let failure { signalsCheck(false, "S13", failure) }
        #endif
    }

    /// A receiver connects to a relay (or finds it ended) that has remembered `remembered`
    /// messages, in the critical section that adds it to the list. S13: what it is owed of
    /// them is decided in this section; every later one reaches it live.
    @inline(__always)
    static func connects(_ relay: AnyObject, _ receiver: Receiver, remembered: UInt64) {
        #if SIGNALS_INTERNAL_CHECKS
            handshakes.withLock {
                $0[ObjectIdentifier(relay), default: [:]][ObjectIdentifier(receiver)] = Handshake(
                    connectedAt: remembered, liveThrough: remembered)
            }
        #endif
    }

    /// Under the relay's lock: a connecting receiver is owed the messages numbered `owed` of
    /// the relay's `state` (evaluated only when checking). S13: exactly those numbered `first` through `through` among the
    /// last `depth` remembered, if the relay still keeps them (`kept`); and none it was
    /// handed already.
    @inline(__always)
    static func owes(
        _ relay: AnyObject, _ owed: @autoclosure () -> [UInt64], first: UInt64, through: UInt64, depth: Int,
        kept: Bool, state: ObservableState
    ) {
        #if SIGNALS_INTERNAL_CHECKS
            let owed = owed()
            // Among the last `depth`, or remembered since an open burst began.
            var lowest = state.remembered >= UInt64(depth) ? state.remembered - UInt64(depth) + 1 : 1
            if state.inBurst, depth > 0 { lowest = min(lowest, state.burstStart + 1) }
            lowest = max(first, lowest, 1)
            let expected = kept && depth > 0 && lowest <= through ? Array(lowest...through) : []
            signalsCheck(
                owed == expected, "S13",
                "a connecting receiver was owed messages \(owed), where the rule owes \(expected) (first owed \(first),"
                    + " through \(through), \(state.remembered) remembered, the last \(depth) kept)")
            pendingOwed.withLock { $0.append(contentsOf: owed.map { (ObjectIdentifier(relay), $0) }) }
        #endif
    }

    /// Outside the relay's lock: a receiver is handed message `number` it was owed as it
    /// connected (zero: a prefix, not numbered). S13: each owed message is handed once, in
    /// order, and only one that was owed.
    @inline(__always)
    static func handsReplay(_ relay: AnyObject, _ receiver: Receiver, number: UInt64) {
        #if SIGNALS_INTERNAL_CHECKS
            guard number > 0 else { return }
            let relayID = ObjectIdentifier(relay)
            let failure = handshakes.withLock { handshakes -> String? in
                let receiverID = ObjectIdentifier(receiver)
                guard var connection = handshakes[relayID]?[receiverID] else { return nil }
                guard number <= connection.connectedAt else {
                    return "a receiver was handed message \(number) as a replay, remembered after it connected"
                }
                guard number > connection.replayedThrough else {
                    return "a receiver was handed message \(number) as a replay after message"
                        + " \(connection.replayedThrough): a replay handed twice or out of order"
                }
                connection.replayedThrough = number
                handshakes[relayID]![receiverID] = connection
                return nil
            }
            if let failure { signalsCheck(false, "S13", failure) }
            let owed = pendingOwed.withLock { pending -> Bool in
                guard let index = pending.firstIndex(where: { $0 == (relayID, number) }) else { return false }
                pending.remove(at: index)
                return true
            }
            signalsCheck(owed, "S13", "a receiver was handed message \(number) as a replay it was not owed")
        #endif
    }

    /// Under the relay's lock: `receiver` is disconnected (or, with `remembered` `nil`, was
    /// handed an ended relay's replay without connecting). S13: it was handed every message
    /// remembered since it connected.
    @inline(__always)
    static func disconnects(_ relay: AnyObject, _ receiver: Receiver, remembered: UInt64?) {
        #if SIGNALS_INTERNAL_CHECKS
            let connection = handshakes.withLock {
                $0[ObjectIdentifier(relay)]?.removeValue(forKey: ObjectIdentifier(receiver))
            }
            guard let remembered, let connection else { return }
            signalsCheck(
                connection.liveThrough == remembered, "S13",
                "a receiver disconnected after message \(remembered) was handed only messages through"
                    + " \(connection.liveThrough) live (connected after message \(connection.connectedAt))")
        #endif
    }

    /// Under the relay's lock, as it ends after `remembered` messages: S13 for each receiver
    /// of `list`, as ``disconnects(_:_:remembered:)``.
    @inline(__always)
    static func connectionsEnd(_ relay: AnyObject, _ list: Unmanaged<ReceiverList>?, remembered: UInt64) {
        #if SIGNALS_INTERNAL_CHECKS
            for receiver in list?.takeUnretainedValue().receivers ?? [] {
                disconnects(relay, receiver, remembered: remembered)
            }
        #endif
    }

    /// A relay is freed: its connections go with it.
    @inline(__always)
    static func relayFreed(_ relay: AnyObject) {
        #if SIGNALS_INTERNAL_CHECKS
            let relayID = ObjectIdentifier(relay)
            handshakes.withLock { $0[relayID] = nil }
            pendingOwed.withLock { $0.removeAll { $0.0 == relayID } }
        #endif
    }

    /// Under a connecting receiver's lock: a message (or the replay) waits in its held batch.
    @inline(__always)
    static func holds(_ receiver: AnyObject) {
        #if SIGNALS_INTERNAL_CHECKS
            heldCounts.withLock { $0[ObjectIdentifier(receiver), default: (held: 0, received: 0)].held += 1 }
        #endif
    }

    /// `count` messages that waited are received, in order.
    @inline(__always)
    static func receivesHeld(_ receiver: AnyObject, count: Int) {
        #if SIGNALS_INTERNAL_CHECKS
            heldCounts.withLock { $0[ObjectIdentifier(receiver), default: (held: 0, received: 0)].received += count }
        #endif
    }

    /// Under a connecting receiver's lock, as a sender that a drain on another thread could
    /// hold back holds a message. S14: no more than the gate's limit of other threads'
    /// messages wait in one connect while such a sender could wait instead.
    @inline(__always)
    static func checkGate(heldFromOthers: Int, limit: Int) {
        #if SIGNALS_INTERNAL_CHECKS
            signalsCheck(
                heldFromOthers <= limit, "S14",
                "a sender held message \(heldFromOthers) of other threads in one connect, past the gate's \(limit)")
        #endif
    }

    /// Under the receiver's lock, as it ends connecting. S13: every message that waited while
    /// it connected was received.
    @inline(__always)
    static func connectingEnds(_ receiver: AnyObject) {
        #if SIGNALS_INTERNAL_CHECKS
            let counts =
                heldCounts.withLock { $0.removeValue(forKey: ObjectIdentifier(receiver)) } ?? (held: 0, received: 0)
            signalsCheck(
                counts.held == counts.received, "S13",
                "a receiver ended connecting having received \(counts.received) of the \(counts.held) messages"
                    + " that waited")
        #endif
    }

    /// S7: a thread that unpins has no delivery under way and no send waiting.
    @usableFromInline @inline(__always)
    static func checkUnpinned(activeDeliveries: Int, hasPending: Bool) {
        #if SIGNALS_INTERNAL_CHECKS
            signalsCheck(
                activeDeliveries == 0 && !hasPending, "S7",
                "a thread unpinned with \(activeDeliveries) deliveries under way or sends waiting")
        #endif
    }

    /// S7: a thread's deliveries nest inside its pins.
    @usableFromInline @inline(__always)
    static func checkDeliveryBegun(activeDeliveries: Int, pins: Int) {
        #if SIGNALS_INTERNAL_CHECKS
            signalsCheck(
                activeDeliveries <= pins, "S7",
                "\(activeDeliveries) deliveries under way on a thread pinned \(pins) times")
        #endif
    }

    /// A relay's state, under its lock. S9: an ended relay holds no receivers, and no last
    /// message unless it ended while it kept one for later receivers.
    @inline(__always)
    static func checkEnded(_ state: ObservableState) {
        #if SIGNALS_INTERNAL_CHECKS
            guard state.isCompleted else { return }
            signalsCheck(state.list == nil, "S9", "an ended relay still holds receivers")
            signalsCheck(
                !state.hasLast || state.keptAtEnd, "S9", "an ended relay still remembers a last message it did not keep"
            )
        #endif
    }

    /// A revivable modifier's core settles, under its lock. S12: attached means connected to
    /// its upstream; idle means connected to nothing, and dropping what arrives.
    @inline(__always)
    static func checkAttachment(_ attachment: Attachment, hasUpstream: Bool, isDetached: Bool) {
        #if SIGNALS_INTERNAL_CHECKS
            switch attachment {
            case .attached:
                signalsCheck(hasUpstream, "S12", "a core marked attached has no upstream")
            case .idle:
                signalsCheck(!hasUpstream && isDetached, "S12", "an idle core still has an upstream, or takes messages")
            case .attaching, .detaching, .final:
                break
            }
        #endif
    }

    /// A stream operator carries out one batch of effects. S10: only the thread that took the
    /// carrying-out flag does, and nothing follows an end.
    @usableFromInline @inline(__always)
    static func checkCarryingOut(isCarryingOut: Bool, endedBefore: Bool, effects: Int) {
        #if SIGNALS_INTERNAL_CHECKS
            signalsCheck(isCarryingOut, "S10", "a stream operator carried out effects without holding the flag")
            signalsCheck(
                !endedBefore || effects == 0, "S10", "a stream operator carried out \(effects) effect(s) after its end")
        #endif
    }

    /// A side input ends connecting without its lock. S11: nothing waits in its held batch
    /// (`heldBatch` reads it under the lock).
    @inline(__always)
    static func checkNothingHeld(_ heldBatch: () -> HeldMessagesBase?) {
        #if SIGNALS_INTERNAL_CHECKS
            signalsCheck(
                heldBatch() == nil, "S11", "a side input ended connecting while messages waited in its held batch")
        #endif
    }

    /// S8: a list holds each receiver once, and no more than its room. Under the relay's
    /// lock.
    @inline(__always)
    static func checkList(_ list: Unmanaged<ReceiverList>?) {
        #if SIGNALS_INTERNAL_CHECKS
            guard let list = list?.takeUnretainedValue() else { return }
            let (count, capacity) = list.withUnsafeMutablePointerToHeader { ($0.pointee.count, $0.pointee.capacity) }
            signalsCheck(
                count > 0 && count <= capacity, "S8",
                "a receivers list holds \(count) receivers with room for \(capacity)")
            let receivers = list.receivers.map(ObjectIdentifier.init)
            signalsCheck(Set(receivers).count == receivers.count, "S8", "a receivers list holds a receiver twice")
        #endif
    }

    #if SIGNALS_INTERNAL_CHECKS
        /// Stops the process, naming `invariant`, unless `condition` holds.
        private static func signalsCheck(
            _ condition: Bool, _ invariant: String, _ message: @autoclosure () -> String
        ) {
            if !condition { preconditionFailure("Signals internal check \(invariant) failed: \(message())") }
        }

        /// The receivers lists alive, and how many walks each has under way.
        private static let walks = LockedState(Walks())

        private struct Walks: Sendable {
            var live: Set<ObjectIdentifier> = []
            var walking: [ObjectIdentifier: Int] = [:]
        }

        /// One connection of a receiver to a relay, as S13 follows it.
        private struct Handshake: Sendable {
            /// How many messages the relay had remembered when the receiver connected.
            var connectedAt: UInt64
            /// The last message handed to it live.
            var liveThrough: UInt64
            /// The last message handed to it as a replay.
            var replayedThrough: UInt64 = 0
        }

        /// Each relay's connections, by receiver.
        private static let handshakes = LockedState([ObjectIdentifier: [ObjectIdentifier: Handshake]]())
        /// Messages owed to connecting receivers and not handed yet, with their relays.
        private static let pendingOwed = LockedState([(ObjectIdentifier, UInt64)]())
        /// What waited in each connecting receiver's held batch, and how much of it it received.
        private static let heldCounts = LockedState([ObjectIdentifier: (held: Int, received: Int)]())
    #endif
}
