import Synchronization

/// Names one change of an incremental collection value, and the change it follows.
///
/// A derived collection, an observed array or a delta bridge remembers the change it applied
/// last (``SeenChange``) and, when the collection comes back, applies only the edits it has
/// not seen. That is sound only if a change's name cannot belong to another collection: a
/// `flatMap` that switches to another collection, or recovers from an error onto one, hands its
/// readers a value with a history of its own, and numbers counted per collection would match by
/// accident (the reader takes the new collection's edits as the continuation of the old one's,
/// and drifts from it for good). So every change takes an identifier no other change in the
/// process has, from one counter, and records the identifier of the change before it with its
/// final number of edits. A reader applies a change incrementally only when it applied exactly
/// that predecessor, all of it; anything else (a switch, a recovery, a missed change, a reset)
/// rebuilds from the elements.
struct ChangeStamp: Equatable {
    /// This change, unique in the process; never 0.
    var id: Int
    /// The change before this one, or 0 after a reset (nothing before it can be extended).
    var previousID: Int
    /// How many edits the previous change had when this one began.
    var previousEditCount: Int

    /// A change with no predecessor: a collection made from elements, or reset to them.
    static func fresh() -> ChangeStamp {
        ChangeStamp(id: nextID(), previousID: 0, previousEditCount: 0)
    }

    /// The change that follows this one, whose edit count ended at `editCount`.
    func successor(afterEditCount editCount: Int) -> ChangeStamp {
        ChangeStamp(id: Self.nextID(), previousID: id, previousEditCount: editCount)
    }

    /// The counter every change draws from. Relaxed is enough: an identifier only has to
    /// differ from every other, and a value reaches another thread (a graph moved between
    /// isolation domains) only through a synchronization that orders it anyway.
    private static let counter = Atomic<Int>(0)

    private static func nextID() -> Int {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

/// Which change of a collection a reader applied, and how many of its edits.
struct SeenChange {
    /// The change applied, or 0 for none.
    var id = 0
    var editCount = 0

    init() {}

    init(_ collection: some VersionedCollection) {
        id = collection.change.id
        editCount = collection.editCount
    }

    /// The index of the first edit of `collection` not applied yet, or `nil` if they cannot
    /// be applied: the value is another collection's, a reset, or follows a change this
    /// reader did not apply in full.
    func firstNewEdit(of collection: some VersionedCollection) -> Int? {
        let change = collection.change
        if change.id == id { return editCount <= collection.editCount ? editCount : nil }
        if !collection.isReset && change.previousID == id && change.previousEditCount == editCount { return 0 }
        return nil
    }
}

/// A collection value that records its changes: a stamp per change, and whether the last
/// change replaced everything.
protocol VersionedCollection {
    var change: ChangeStamp { get }
    var isReset: Bool { get }
    /// How many edits the current change has recorded.
    var editCount: Int { get }
}

/// A collection value a derived node edits: it starts a change and records its edits.
protocol EditRecordingCollection: VersionedCollection {
    associatedtype Edit
    var change: ChangeStamp { get set }
    var isReset: Bool { get set }
    var edits: [Edit] { get set }
    var hasEdits: Bool { get }
    mutating func beginChange(afterEditCount count: Int)
}
