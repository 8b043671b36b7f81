/// Names one case of an enum that carries a value, so that a store can focus on it.
///
/// ```swift
/// enum Destination { case detail(Detail), settings(Settings) }
///
/// extension Destination {
///     static let detail = CaseKey(Destination.detail) { if case .detail(let value) = $0 { value } else { nil } }
/// }
/// ```
///
/// ```swift
/// let detail = store.focus(\.destination, case: Destination.detail)   // Store<Detail?>
/// ```
///
/// A case key is known by its identity: keep one (a `static let`) and focus with it, so that
/// focusing again finds the same focus.
///
/// It is `Sendable` (its closures are), so it can be a `static let`.
public final class CaseKey<Root, Value>: Sendable {
    let embed: @Sendable (Value) -> Root
    let extract: @Sendable (Root) -> Value?

    /// The case `embed` makes, whose value `extract` takes out (nil in any other case).
    public init(_ embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
        self.embed = embed
        self.extract = extract
    }
}

extension Store {
    /// A store on the value of one case of the enum at `path`: `nil` while the enum is in
    /// another case.
    ///
    /// Setting a value puts the enum in this case (from any case); setting `nil` leaves the
    /// enum as it is. Register with ``register(presentOnly:)`` for reducers that run only in
    /// this case. When the enum leaves the case, the effects this focus's registrations
    /// started are cancelled.
    public func focus<Enum, Payload>(_ path: WritableKeyPath<State, Enum>, case key: CaseKey<Enum, Payload>) -> Store<
        Payload?
    > {
        focus(
            key: FocusKey(path: path, id: AnyHashable(ObjectIdentifier(key))), region: .of(path),
            get: { key.extract($0[keyPath: path]) },
            modify: { state, body in
                var payload = key.extract(state[keyPath: path])
                body(&payload)
                if let payload { state[keyPath: path] = key.embed(payload) }
            })
    }

    /// A store on the value of one case of the optional enum at `path` (a destination that
    /// may be absent): `nil` while the enum is absent or in another case.
    ///
    /// ```swift
    /// let sheet = store.focus(\.destination, case: Destination.detail)   // Store<Detail?>
    /// ```
    ///
    /// Setting a value puts the enum in this case; setting `nil` while in this case clears
    /// the enum (dismisses the destination); in another case, `nil` leaves it as it is.
    public func focus<Enum, Payload>(_ path: WritableKeyPath<State, Enum?>, case key: CaseKey<Enum, Payload>) -> Store<
        Payload?
    > {
        focus(
            key: FocusKey(path: path, id: AnyHashable(ObjectIdentifier(key))), region: .of(path),
            get: { $0[keyPath: path].flatMap(key.extract) },
            modify: { state, body in
                let current = state[keyPath: path]
                var payload = current.flatMap(key.extract)
                let wasInCase = payload != nil
                body(&payload)
                if let payload {
                    state[keyPath: path] = key.embed(payload)
                } else if wasInCase {
                    state[keyPath: path] = nil
                }
            })
    }

    /// Calls `body` with a focused store for each element of the array at `path`, now and
    /// whenever one is added, and ends what `body` returned when the element is removed: the
    /// element's registrations then stop, and effects they started are cancelled.
    ///
    /// ```swift
    /// let rows = store.forEach(\.todos) { id, todo in
    ///     todo.register(presentOnly: Reducer<Todo, Toggle>(route: id) { todo, _ in todo.done.toggle() })
    /// }
    /// ```
    ///
    /// `body` runs for the elements present when the call is made, in order, then while the
    /// action that adds an element propagates (so the element's reducers first see the next
    /// action). An element removed and added back in one action is kept. The returned
    /// connection ends every element's registrations and stops following the array; while
    /// connected it keeps the store alive.
    public func forEach<Element: Identifiable>(
        _ path: WritableKeyPath<State, [Element]>, _ body: @escaping (Element.ID, Store<Element?>) -> Connection
    ) -> Connection {
        // Each element's focus starts looking where the element is: made one after another,
        // the foci of n elements cost O(n), not O(n²).
        follow(identities(of: path) { $0.map(\.id) }) { id, index in
            body(id, self.focus(path, id: id, lookingFirstAt: index))
        }
    }

    /// Calls `body` with a focused store for each key of the dictionary at `path`, now and
    /// whenever one is added, and ends what `body` returned when the key is removed; see
    /// ``forEach(_:_:)-(WritableKeyPath<State,[Element]>,_)``.
    public func forEach<Key: Hashable, Value>(
        _ path: WritableKeyPath<State, [Key: Value]>, _ body: @escaping (Key, Store<Value?>) -> Connection
    ) -> Connection {
        follow(identities(of: path) { Array($0.keys) }) { key in body(key, self.focus(path, key: key)) }
    }

    /// A focus on the identities of the collection at `path` (`ids` of it), refreshed like
    /// any focus except when an element focus of that collection replaced its element in
    /// place: then the identities cannot have changed, and reading them (which costs what the
    /// collection is long) is skipped. It holds the identities, not the collection, so an
    /// element changed in place is not copied.
    func identities<Collection, ID: Hashable>(
        of path: WritableKeyPath<State, Collection>, _ ids: @escaping (Collection) -> [ID]
    ) -> I<[ID]> {
        let generation = node.generation(of: path)
        let parent = access
        let tracker: Store<[ID]> = childStore(
            of: node, engine: engine, key: FocusKey(path: path, id: AnyHashable(IdentitiesOf())),
            region: FocusRegion.of(path),
            get: {
                generation.seen = generation.changes
                return ids(parent.get()[keyPath: path])
            },
            // Never called: this store is not handed out, and nothing registers on it.
            modify: { _ in })
        tracker.node.identityTracking = (path, generation)
        return tracker.state
    }

    /// Calls `body` with this store whenever its optional state becomes present (now, if it
    /// is), and ends what `body` returned when the state becomes absent: registrations made
    /// for a screen or a selection live exactly while it is there.
    ///
    /// ```swift
    /// let detail = store.focus(\.destination, case: Destination.detail).whilePresent { detail in
    ///     detail.register(presentOnly: detailReducer)
    /// }
    /// ```
    ///
    /// `body` runs while the action that makes the state present propagates, so what it
    /// registers first sees the next action. Effects those registrations started are
    /// cancelled when the state becomes absent (as for every optional focus). The returned
    /// connection ends it all and stops following; while connected it keeps the store alive.
    public func whilePresent<Wrapped>(_ body: @escaping (Store<State>) -> Connection) -> Connection
    where State == Wrapped? {
        follow(state.map { $0 == nil ? [] : [true] }) { _ in body(self) }
    }

    /// Keeps one connection per id in `ids`, made by `make` when an id appears and ended
    /// when it disappears.
    func follow<ID: Hashable>(_ ids: I<[ID]>, _ make: @escaping (ID) -> Connection) -> Connection {
        follow(ids) { id, _ in make(id) }
    }

    /// ``follow(_:_:)``, telling `make` where in `ids` the id is.
    func follow<ID: Hashable>(_ ids: I<[ID]>, _ make: @escaping (ID, Int) -> Connection) -> Connection {
        let live = LiveConnections<ID>()
        let observer = ids.observe { current in
            guard live.isActive else { return }
            let present = Set(current)
            for id in live.byID.keys where !present.contains(id) {
                live.byID.removeValue(forKey: id)?.disconnect()
            }
            for (index, id) in current.enumerated() where live.byID[id] == nil {
                let connection = make(id, index)
                // `make` may have ended the whole thing (it can reach the returned connection).
                guard live.isActive else {
                    connection.disconnect()
                    return
                }
                live.byID[id] = connection
            }
        }
        return Connection(isolated: {
            live.isActive = false
            observer.disconnect()
            let connections = live.byID.values
            live.byID.removeAll()
            for connection in connections { connection.disconnect() }
        })
    }
}

/// The connections ``Store/forEach(_:_:)-(WritableKeyPath<State,[Element]>,_)`` keeps, by id.
private final class LiveConnections<ID: Hashable> {
    var byID: [ID: Connection] = [:]
    /// False once the returned connection disconnected.
    var isActive = true
}

/// Marks the focus on the identities of a collection among its parent's children.
private struct IdentitiesOf: Hashable {}
