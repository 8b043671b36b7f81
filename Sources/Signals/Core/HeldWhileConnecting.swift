import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread that connects a receiver, to tell its own sends from other threads'.
struct ConnectingThread {
    private let thread = pthread_self()

    /// Whether the calling thread is the connecting one.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}

/// One look, under a receiver's lock, at the messages that waited while it connected.
enum HeldTake<Batch> {
    /// Nothing waited: connecting is over (the receiver ended it under the same lock).
    case finished
    /// Messages waited, but this drain has used its rounds: they are received elsewhere.
    case handOff
    /// The messages that waited, taken out, oldest first.
    case taken(Batch)
}

/// A receiver that holds the messages reaching it while it connects, and receives them
/// after the replay, in the order they came: a modifier's core and a two-source modifier's
/// side input.
protocol HoldsWhileConnecting: AnyObject, Sendable {
    /// The messages taken out at once.
    associatedtype HeldBatch

    /// Under the receiver's lock: ends connecting and returns `.finished` if nothing waits,
    /// returns `.handOff` if something does, `mayTake` is false and another thread sent some
    /// of it, and otherwise takes out what waits.
    func takeHeld(mayTake: Bool) -> HeldTake<HeldBatch>

    /// Receives messages taken out by ``takeHeld(mayTake:)``, in order.
    func receiveTaken(_ batch: HeldBatch)
}

extension HoldsWhileConnecting {
    /// Receives what waited while connecting (the replay first): on `queue` if one is given,
    /// until nothing is left; otherwise here, until nothing is left while only this thread
    /// sent (its own work, bounded by it), and after one round, if other threads sent
    /// meanwhile, the rest on a global queue, in order, so that connecting ends even while
    /// they send faster than the receiver's work takes.
    func receiveHeld(on queue: Executor?) {
        if let queue {
            queue.run { self.receiveHeld(rounds: .max) }
        } else {
            receiveHeld(rounds: 1)
        }
    }

    /// Receives what waited, round by round, until nothing is left; after `rounds` rounds,
    /// hands the rest to a global queue.
    private func receiveHeld(rounds: Int) {
        // Pinned: what is received here is sent on to modifiers connected after this one
        // (see `Reclaimer`).
        DeliveryContext.pinned { receiveHeldPinned(rounds: rounds) }
    }

    private func receiveHeldPinned(rounds: Int) {
        var round = 0
        while true {
            switch takeHeld(mayTake: round < rounds) {
            case .finished:
                return
            case .handOff:
                DispatchQueue.global().async { self.receiveHeld(rounds: .max) }
                return
            case .taken(let batch):
                receiveTaken(batch)
                round += 1
            }
        }
    }
}
