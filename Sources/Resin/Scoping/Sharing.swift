/// A feature's own part of the state together with a part it shares with other features:
/// the state of a store made by ``Store/sharing(_:)``.
///
/// ```swift
/// let todos = store.focus(\.todos).sharing(store.focus(\.settings))
/// let sort = todos.register(Reducer<Sharing<TodosState, Settings>, SortByDate> { state, _ in
///     state.shared.sortOrder = .date      // the settings every feature sees
///     state.items.sort { $0.date < $1.date }   // the feature's own part
/// })
/// ```
///
/// Members of the local part read and write directly (`state.items`); the shared part is
/// ``shared``.
@dynamicMemberLookup
public struct Sharing<Local, Shared> {
    /// The feature's own part.
    public var local: Local
    /// The part shared with other features; it lives once, where the store focused to share
    /// it lives.
    public var shared: Shared

    /// A pair of `local` and `shared`.
    public init(local: Local, shared: Shared) {
        self.local = local
        self.shared = shared
    }

    /// A member of the local part.
    public subscript<Member>(dynamicMember member: WritableKeyPath<Local, Member>) -> Member {
        get { local[keyPath: member] }
        set { local[keyPath: member] = newValue }
    }
}

extension Sharing: Equatable where Local: Equatable, Shared: Equatable {}

/// A pair is absent while its local part is (an element that went): its effects are then
/// cancelled, as an element focus's are.
extension Sharing: OptionalPart {
    var isNone: Bool { (local as? any OptionalPart)?.isNone ?? false }
}
extension Sharing: Sendable where Local: Sendable, Shared: Sendable {}

extension Store {
    /// A store on this store's state together with `shared`'s, a part of the same state
    /// tree that several features read and write (settings, the signed-in user), however
    /// far apart their foci are.
    ///
    /// ```swift
    /// let profile = store.focus(\.profile).sharing(store.focus(\.session))
    /// ```
    ///
    /// The shared part has one source of truth, where `shared` focuses: a reducer on any
    /// sharing store writes it there, and every store whose part includes it (each sharing
    /// store, `shared` itself) sees the change after the action, glitch-free, as any focus
    /// does. Sharing the same pair again gives the same store while it is held.
    ///
    /// A reducer on a sharing store works on a copy of both parts, written back after it:
    /// keep large collections a feature changes often in a focus of their own rather than
    /// in a sharing store. The store cannot tell which other foci the pair overlaps, so every
    /// action refreshes a sharing store (it compares its parts and wakes no one if they are
    /// unchanged), as it does a focus through a subscript.
    ///
    /// - Precondition: `shared` is a store of the same tree (focused from the same root).
    public func sharing<Shared>(_ shared: Store<Shared>) -> Store<Sharing<State, Shared>> {
        precondition(
            shared.engine === engine,
            "Resin: a store can share only a part of its own state tree, focused from the same root")
        var root = node
        while let parent = root.parent { root = parent }
        let local = access
        let sharedAccess = shared.access
        // Marked by a key path no other focus uses.
        let key = FocusKey(
            path: \FocusNode.self, id: AnyHashable([ObjectIdentifier(node), ObjectIdentifier(shared.node)]))
        // A focus of the root: the pair's parts may lie anywhere under it. For its effects it
        // is inside the local focus: that focus's presentation gives them their `dismiss`,
        // and its absence cancels them.
        let pair: Store<Sharing<State, Shared>> = childStore(
            of: root, engine: engine, key: key, region: .opaque,
            get: { Sharing(local: local.get(), shared: sharedAccess.get()) },
            modify: { body in
                var pair = Sharing(local: local.get(), shared: sharedAccess.get())
                body(&pair)
                local.modify { $0 = pair.local }
                sharedAccess.modify { $0 = pair.shared }
            })
        pair.node.localParent = node
        return pair
    }
}
