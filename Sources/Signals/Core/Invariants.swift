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

    /// A relay's state, under its lock. S9: an ended relay holds no receivers and no last
    /// message.
    @inline(__always)
    static func checkEnded(_ state: ObservableState) {
        #if SIGNALS_INTERNAL_CHECKS
            guard state.isCompleted else { return }
            signalsCheck(state.list == nil, "S9", "an ended relay still holds receivers")
            signalsCheck(!state.hasLast, "S9", "an ended relay still remembers a last message")
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
    #endif
}
