/// What a relay owes a receiver that connects, beyond the one rule every relay keeps (the
/// last message, once per message): the last `depth` messages instead of one, and a fixed
/// `prefix` owed to each receiver's first connection, ahead of them.
///
/// A relay has a rule only if an operator gave it one (``MessageSource/replay(_:)``,
/// ``MessageSource/prepend(_:)``, ``MessageSource/sequence(_:)``); the common relay has
/// none, and its send path only tests a flag of its state. The relay writes the rule's
/// history where it remembers a message (``Relay/remember(_:sequence:in:)``) and reads it
/// where it decides what a connection is owed (``Relay/connect(_:)``), both under its
/// lock: that is the one home of replay (Documentation/Internals/Signals.md, S13).
@usableFromInline
final class ReplayRule<Message: Sendable>: @unchecked Sendable {
    // `@unchecked`: `depth`, `prefix` and `keepsAtEnd` are `let`s of `Sendable` types; the
    // history is only touched under the lock of the one relay that owns the rule.

    /// One remembered message: the message, the number its source gave it (if any) and the
    /// relay's own number for it (``ObservableState/remembered``).
    struct Entry {
        var message: Message
        var sequence: UInt64?
        var number: UInt64
    }

    /// How many of the last messages a connecting receiver is owed (zero: none).
    let depth: Int
    /// What each receiver's first connection is owed before any remembered message.
    let prefix: [Message]
    /// Whether the history outlives the end: a receiver that connects afterwards is handed
    /// it, then the end.
    let keepsAtEnd: Bool
    /// Whether the relay made the rule for a burst alone (see ``Relay/keepInHistory``), to
    /// drop it when the burst ends.
    let isBurstOnly: Bool
    /// The messages kept, oldest first, from `start`: the last `depth`, or more while a
    /// burst is open.
    private var storage: [Entry] = []
    private var start = 0

    init(depth: Int, prefix: [Message] = [], keepsAtEnd: Bool = false, isBurstOnly: Bool = false) {
        self.depth = depth
        self.prefix = prefix
        self.keepsAtEnd = keepsAtEnd
        self.isBurstOnly = isBurstOnly
    }

    /// Keeps `message`, and, unless a burst is open, drops the oldest beyond `depth`. Under
    /// the relay's lock.
    func keep(_ message: Message, sequence: UInt64?, number: UInt64, inBurst: Bool) {
        guard depth > 0 else { return }
        storage.append(Entry(message: message, sequence: sequence, number: number))
        if !inBurst { trim() }
    }

    /// Drops the oldest messages beyond `depth` (a burst ended). Under the relay's lock.
    func trim() {
        let excess = storage.count - start - depth
        if excess > 0 { start += excess }
        // Compacted once the dropped part is most of the array: amortized constant time.
        if start >= 16, 2 * start >= storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// How many messages are kept.
    var keptCount: Int { storage.count - start }

    /// The kept messages numbered `from` or later, oldest first. Under the relay's lock.
    func entries(from first: UInt64) -> ArraySlice<Entry> {
        let kept = storage[start...]
        guard let index = kept.firstIndex(where: { $0.number >= first }) else { return [] }
        return kept[index...]
    }

    /// Forgets every kept message (the relay ended, and does not keep them). Under the lock.
    func clear() {
        storage.removeAll()
        start = 0
    }
}

/// Messages a relay copied under its lock for a receiver that connects, handed to it in
/// order outside the lock. The non-generic base is what the lock's closure returns.
class OwedBatch {
    /// How many messages it holds.
    var count: Int { 0 }
}

/// The owed messages of type `Message`, with their source's numbers and the relay's.
final class OwedMessages<Message>: OwedBatch {
    var messages: [(message: Message, sequence: UInt64?, number: UInt64)] = []

    override var count: Int { messages.count }
}
