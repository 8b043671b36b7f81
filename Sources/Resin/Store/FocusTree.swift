/// Changes the dependencies of one effect, which sends with the given `Send`.
typealias DependencyOverride = (inout Dependencies, Send<any Action>) -> Void

/// Where a focus's part lies in its parent's state, as far as the store can tell. It decides
/// which other foci an action must refresh: two foci beside each other are refreshed together
/// only when their regions may overlap.
enum FocusRegion {
    /// A chain of stored properties of structs or tuples: the bytes of the part inside the
    /// parent's value, from `MemoryLayout.offset(of:)`.
    case stored(Range<Int>)
    /// One element of a collection of the parent, by identity (an `Identifiable` id or a
    /// dictionary key). Elements of one collection with different identities never overlap.
    case element(collection: AnyKeyPath, collectionBytes: Range<Int>?, id: AnyHashable)
    /// A computed property, a subscript or a path through a class: it may read any part of
    /// the parent, so it may overlap every other focus beside it.
    case opaque

    /// The region of `path` in `Parent`.
    static func of<Parent, Part>(_ path: WritableKeyPath<Parent, Part>) -> FocusRegion {
        guard let bytes = storedBytes(of: path) else { return .opaque }
        return .stored(bytes)
    }

    /// The bytes a stored-property path covers in `Parent`, or nil if it is not one.
    static func storedBytes<Parent, Part>(of path: WritableKeyPath<Parent, Part>) -> Range<Int>? {
        guard let offset = MemoryLayout<Parent>.offset(of: path) else { return nil }
        return offset..<(offset + MemoryLayout<Part>.size)
    }
}

/// Whether two byte ranges may share state; an unknown range may share any.
private func mayOverlap(_ first: Range<Int>?, _ second: Range<Int>?) -> Bool {
    guard let first, let second else { return true }
    return first.overlaps(second)
}

/// How a child is found again: its key path, or its collection and identity.
struct FocusKey: Hashable {
    let path: AnyKeyPath
    let id: AnyHashable?
}

/// A place in the focus tree: the root store's state, or a part of it.
///
/// A focus lives while something needs it: its state input (held by a store object, an
/// observer or a derived value), a registration on it, or a focus inside it (children hold
/// their parent; parents do not hold their children); see ``FocusAccess``. When the last of
/// those goes, it leaves its parent's index and cancels the effects it started.
///
/// Children are indexed by region, so that finding the foci that may overlap a changed one
/// costs what the overlapping ones cost, not how many foci there are: a thousand element foci
/// of one collection are one group, and only the one with the same identity is looked at.
final class FocusNode {
    let parent: FocusNode?
    let key: FocusKey?
    let region: FocusRegion
    /// The focus's access, while it lives (it owns this node; see ``FocusAccess``). Not
    /// retained, and not weak (that would slow every retain of the access): the access
    /// clears it in its `deinit`.
    unowned(unsafe) var refresher: (any FocusRefreshing)?
    /// The engine, to cancel this focus's effects when it goes; weak because the engine's
    /// registrations may be what frees this focus, while the engine itself is going.
    weak var engine: Engine?
    /// The store for this focus while someone holds it, so that focusing twice gives the
    /// same store.
    weak var store: AnyObject?
    var dirtyStamp = -1
    var refreshStamp = -1
    var subtreeStamp = -1
    /// Whether the last refresh found the part changed.
    var lastRefreshChanged = false
    /// How many reducers registered on this focus may leave its part as it was: while one
    /// is, the focus keeps its part, to tell such an action from a change (see
    /// ``FocusAccess``). A persistence's own reducers always change the part, and do not count.
    var comparedReducers = 0
    /// Effects started by this focus's registrations and still running, by number.
    var ownedEffects: Set<Int> = []
    /// Debounces and throttles this focus's registrations asked for.
    var ownedPacers: Set<EffectID> = []
    /// What this focus changes in the dependencies of effects started by registrations on it
    /// or inside it (a presented child's `dismiss`); see ``Engine/dependencies(for:send:)``.
    var dependencyOverride: DependencyOverride?
    /// For a presented child or a stack element while it is presented, the scope of the
    /// effect ids asked for inside it (see ``EffectID``); `0` elsewhere.
    var effectScope = 0
    /// For a sharing focus (a child of the root), the focus of its local part: the one it is
    /// inside as far as its effects go (their dependencies and their cancellation).
    var localParent: FocusNode?

    /// For each collection of this focus's part that element foci focus into, a count of the
    /// elements they added or removed (see ``CollectionGeneration``).
    var collectionGenerations: [AnyKeyPath: CollectionGeneration] = [:]
    /// For a focus on the identities of a collection (``Store/forEach(_:_:)``), the collection
    /// and its generation: an element focus of that collection that changed its element in
    /// place cannot have changed the identities, so it need not refresh this focus.
    var identityTracking: (collection: AnyKeyPath, generation: CollectionGeneration)?

    /// The generation of `collection`, made on first use.
    func generation(of collection: AnyKeyPath) -> CollectionGeneration {
        if let generation = collectionGenerations[collection] { return generation }
        let generation = CollectionGeneration()
        collectionGenerations[collection] = generation
        return generation
    }

    /// The focus this one's effects belong inside: ``localParent``, else the parent.
    var effectParent: FocusNode? { localParent ?? parent }

    // Children are not retained: each removes itself in its deinit.
    private var byKey: [FocusKey: Unowned] = [:]
    private var storedChildren: [ObjectIdentifier: (node: Unowned, bytes: Range<Int>)] = [:]
    private var opaqueChildren: [ObjectIdentifier: Unowned] = [:]
    private var elementGroups: [AnyKeyPath: (bytes: Range<Int>?, byID: [AnyHashable: Unowned])] = [:]

    /// A reference to a child that does not keep it alive.
    struct Unowned {
        unowned(unsafe) let node: FocusNode
        let id: ObjectIdentifier

        init(_ node: FocusNode) {
            self.node = node
            id = ObjectIdentifier(node)
        }
    }

    init(parent: FocusNode?, key: FocusKey?, region: FocusRegion, engine: Engine) {
        self.parent = parent
        self.key = key
        self.region = region
        self.engine = engine
    }

    deinit {
        if !ownedEffects.isEmpty || !ownedPacers.isEmpty {
            engine?.cancelEffects(numbers: ownedEffects, pacers: ownedPacers, owner: ObjectIdentifier(self))
        }
        if let parent, let key { parent.remove(self, key: key) }
    }

    var hasOwnedEffects: Bool { !ownedEffects.isEmpty || !ownedPacers.isEmpty }

    /// Whether this focus's part, or the part of a focus it is inside, is an absent optional
    /// (an element that is gone).
    var isInAbsentPart: Bool {
        var node: FocusNode? = self
        while let current = node {
            if current.refresher?.isAbsent == true { return true }
            node = current.effectParent
        }
        return false
    }

    var hasChildren: Bool { !byKey.isEmpty }

    /// How many children the focus has; for tests of lifetimes.
    var childCount: Int { byKey.count }

    /// Every child, in no particular order, retained for the caller's walk.
    func childList() -> [FocusNode] { byKey.values.map(\.node) }

    /// The child focused by `key`, if any.
    func child(for key: FocusKey) -> FocusNode? { byKey[key]?.node }

    /// The children, for inspection. Safe to read: a child leaves the index in its deinit, so
    /// every node in it is alive.
    var childNodes: [FocusNode] { byKey.values.map(\.node) }

    /// Adds `child`, found again by `key`.
    func add(_ child: FocusNode, for key: FocusKey) {
        let reference = Unowned(child)
        byKey[key] = reference
        switch child.region {
        case .stored(let bytes): storedChildren[ObjectIdentifier(child)] = (reference, bytes)
        case .opaque: opaqueChildren[ObjectIdentifier(child)] = reference
        case .element(let collection, let bytes, let id):
            elementGroups[collection, default: (bytes, [:])].byID[id] = reference
        }
    }

    private func remove(_ child: FocusNode, key: FocusKey) {
        // Compared by identifier: a reference to an object in its deinit must not be loaded.
        // A newer focus may have taken the key (this one lost its access first); each index
        // forgets this child only where it still stands for it.
        let identity = ObjectIdentifier(child)
        if byKey[key]?.id == identity { byKey[key] = nil }
        switch child.region {
        case .stored: storedChildren[identity] = nil
        case .opaque: opaqueChildren[identity] = nil
        case .element(let collection, _, let id):
            guard elementGroups[collection]?.byID[id]?.id == identity else { break }
            elementGroups[collection]?.byID[id] = nil
            if elementGroups[collection]?.byID.isEmpty == true { elementGroups[collection] = nil }
        }
    }

    /// Calls `body` with every child other than `child` whose part may share state with
    /// `child`'s.
    func forEachChild(overlapping child: FocusNode, _ body: (FocusNode) -> Void) {
        var found: [FocusNode] = []
        switch child.region {
        case .opaque:
            for other in byKey.values where other.node !== child { found.append(other.node) }
        case .stored(let bytes):
            for other in storedChildren.values where other.node.node !== child && other.bytes.overlaps(bytes) {
                found.append(other.node.node)
            }
            for other in opaqueChildren.values { found.append(other.node) }
            for group in elementGroups.values where mayOverlap(group.bytes, bytes) {
                for other in group.byID.values { found.append(other.node) }
            }
        case .element(let collection, let collectionBytes, let id):
            for other in storedChildren.values where mayOverlap(other.bytes, collectionBytes) {
                found.append(other.node.node)
            }
            for other in opaqueChildren.values { found.append(other.node) }
            for (otherCollection, group) in elementGroups {
                if otherCollection == collection {
                    if let other = group.byID[id], other.node !== child { found.append(other.node) }
                } else if mayOverlap(group.bytes, collectionBytes) {
                    for other in group.byID.values { found.append(other.node) }
                }
            }
        }
        for node in found { body(node) }
    }
}

/// How many times element foci of one collection added or removed an element, and how many
/// of those a focus on the collection's identities has seen.
///
/// An element focus changes its collection in one of three ways: it replaces its element
/// (the identities stay: a reducer may not change an element's id), removes it, or appends
/// it. Only the last two change the identities, and they count here; so a focus on the
/// identities, reached because an element focus changed, need not read the collection
/// (which costs what the collection is long) when the count is what it saw.
final class CollectionGeneration {
    /// Additions and removals made by element foci.
    var changes = 0
    /// `changes` when the identities were last read.
    var seen = 0

    /// Whether element foci added or removed nothing since the identities were last read.
    var identitiesUnchanged: Bool { changes == seen }
}
