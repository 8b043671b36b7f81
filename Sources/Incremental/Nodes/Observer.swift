/// An observer of a node: a record in its graph's ``BlockArena``, linked into the node's list
/// of observers in the order added.
///
/// Observing allocates the connection and nothing else: the record comes from the arena, the
/// node is the connection's source (the record's address is its token), and the sink is
/// stored right after the record, typed by the node (``I``), which alone knows the value
/// type. A record removed while one of its node's deliveries is under way keeps its `next`
/// (a delivery loop may stand on it) and is freed when the node's deliveries end.
///
/// Accessed only in the graph's isolation domain, through the pointer. A delivery may hold it
/// across the sink's call, which may disconnect the observer: the record is then only
/// unlinked, and freed when the node's deliveries end.
@usableFromInline
struct ObserverRecord {
    /// The next observer of the node, in the order added.
    var next: UnsafeMutablePointer<ObserverRecord>?
    /// The previous observer; for a removed record waiting to be freed, the next such record.
    var previous: UnsafeMutablePointer<ObserverRecord>?
    /// The node's version this observer last received.
    var seen = -1
    /// Whether cleanups registered with `Graph.onCleanup` during its last run wait in the
    /// graph's `observerCleanups`, under the record's address. Kept there, so that a record
    /// is plain data (freed with no reference counted) and 48 bytes with its sink.
    var hasCleanups = false
    /// False once disconnected.
    var isActive = true
    /// Whether the sink takes results (`observeResult`) rather than values (`observe`).
    let receivesResults: Bool

    /// Where the sink is stored: after the record, 16-byte aligned.
    @inlinable static var sinkOffset: Int { (MemoryLayout<ObserverRecord>.stride + 15) & ~15 }
    /// The record's size with its sink (a closure: two words, whatever its type).
    static var size: Int { sinkOffset + MemoryLayout<() -> Void>.stride }
    static var sizeClass: UInt8 { BlockArena.sizeClass(of: size) }

    @usableFromInline
    init(receivesResults: Bool) {
        self.receivesResults = receivesResults
    }
}

extension UnsafeMutablePointer where Pointee == ObserverRecord {
    /// The address of the record's sink.
    @inlinable @inline(__always)
    var sinkAddress: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(self) + ObserverRecord.sinkOffset
    }
}

/// An observer's closure, as stored after its record. One field, a closure, whatever
/// `Argument` is: a freed record destroys it as an ``ErasedClosure``, without its type.
@usableFromInline
struct Sink<Argument> {
    @usableFromInline let call: (Argument) -> Void

    @inlinable
    init(call: @escaping (Argument) -> Void) {
        self.call = call
    }
}
