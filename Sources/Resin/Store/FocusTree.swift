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
/// Children are indexed by region, so that finding the foci that may overlap a changed one
/// costs what the overlapping ones cost, not how many foci there are: a thousand element foci
/// of one collection are one group, and only the one with the same identity is looked at.
final class FocusNode {
    weak var parent: FocusNode?
    let region: FocusRegion
    let access: any FocusRefreshing
    /// The store for this focus while someone holds it, so that focusing twice gives the
    /// same store.
    weak var store: AnyObject?
    var dirtyStamp = -1
    var refreshStamp = -1
    var subtreeStamp = -1

    private var byKey: [FocusKey: FocusNode] = [:]
    private var storedChildren: [(node: FocusNode, bytes: Range<Int>)] = []
    private var opaqueChildren: [FocusNode] = []
    private var elementGroups: [AnyKeyPath: (bytes: Range<Int>?, byID: [AnyHashable: FocusNode])] = [:]

    init(parent: FocusNode?, region: FocusRegion, access: any FocusRefreshing) {
        self.parent = parent
        self.region = region
        self.access = access
    }

    /// Every child, in no particular order.
    var children: Dictionary<FocusKey, FocusNode>.Values { byKey.values }

    /// The child focused by `key`, if any.
    func child(for key: FocusKey) -> FocusNode? { byKey[key] }

    /// Adds `child`, found again by `key`.
    func add(_ child: FocusNode, for key: FocusKey) {
        byKey[key] = child
        switch child.region {
        case .stored(let bytes): storedChildren.append((child, bytes))
        case .opaque: opaqueChildren.append(child)
        case .element(let collection, let bytes, let id):
            elementGroups[collection, default: (bytes, [:])].byID[id] = child
        }
    }

    /// Calls `body` with every child other than `child` whose part may share state with
    /// `child`'s.
    func forEachChild(overlapping child: FocusNode, _ body: (FocusNode) -> Void) {
        switch child.region {
        case .opaque:
            for other in byKey.values where other !== child { body(other) }
        case .stored(let bytes):
            for other in storedChildren where other.node !== child && other.bytes.overlaps(bytes) { body(other.node) }
            for other in opaqueChildren { body(other) }
            for group in elementGroups.values where mayOverlap(group.bytes, bytes) {
                for other in group.byID.values { body(other) }
            }
        case .element(let collection, let collectionBytes, let id):
            for other in storedChildren where mayOverlap(other.bytes, collectionBytes) { body(other.node) }
            for other in opaqueChildren { body(other) }
            for (otherCollection, group) in elementGroups {
                if otherCollection == collection {
                    if let other = group.byID[id], other !== child { body(other) }
                } else if mayOverlap(group.bytes, collectionBytes) {
                    for other in group.byID.values { body(other) }
                }
            }
        }
    }
}
