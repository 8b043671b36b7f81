import Dispatch

/// Holds the app state and changes it only through actions.
///
/// ```swift
/// struct AppState { var count = 0; var todos: [String] = [] }
/// enum Counter: Action { case increment }
///
/// let store = Store(initialState: AppState())
/// store.register(Reducer<AppState, Counter> { state, _ in state.count += 1 })
/// let connection = store.state.map(\.count).observe { print($0) }   // 0
/// store.dispatch(Counter.increment)                                 // 1
/// ```
///
/// The state is exposed only as an Incremental `I` (``state``): observe it, derive
/// from it. Parts of the app work on a ``focus(_:)``ed store of their slice, which ties into
/// the root transparently.
///
/// ## Isolation
///
/// A store, its focused stores and their state nodes live in one isolation domain, like the
/// Incremental graph they are built on; on Apple platforms and in most apps that is the main
/// actor. Effects run in tasks and send their actions back through the store's scheduler,
/// which must run work in that domain: `DispatchScheduler(queue: .main)` (the default) for a
/// store on the main actor, a `TestScheduler` advanced from a test.
public final class Store<State> {
    let engine: Engine
    let node: FocusNode
    let access: FocusAccess<State>

    /// Creates a root store holding `initialState`, delivering what effects send through
    /// `scheduler`.
    public convenience init(initialState: State, scheduler: some Scheduler = DispatchScheduler(queue: .main)) {
        self.init(initialState: initialState)
        engine.deliverEffects(on: scheduler)
    }

    /// Creates a root store whose effects' actions are taken only when asked (the test
    /// store's mode).
    init(initialState: State) {
        let engine = RootEngine(state: initialState)
        // The root state changes as a whole: comparing it would cost as much as the app
        // state is big, so it always propagates and foci cut off instead.
        let access = RootAccess(engine: engine)
        let node = FocusNode(parent: nil, region: .opaque, access: access)
        self.engine = engine
        self.node = node
        self.access = access
        engine.rootNode = node
        node.store = self
    }

    init(engine: Engine, node: FocusNode, access: FocusAccess<State>) {
        self.engine = engine
        self.node = node
        self.access = access
        node.store = self
    }

    /// The store's state, as an Incremental value: observe it or derive from it.
    ///
    /// It changes once per action that changes it, after every reducer for that action has
    /// run. For a focused store it changes only when its slice changes.
    public var state: I<State> { access.input }

    /// The state now; for middleware and tests.
    var currentState: State { access.get() }

    /// Dispatches `action`: middleware sees it, then the reducers for its type run, in
    /// registration order. An action dispatched while another is being processed is queued
    /// and processed after it, in order; none is dropped.
    public func dispatch(_ action: some Action) {
        engine.dispatch(action)
    }

    /// Registers a reducer on this store's state.
    public func register<Handled: Action>(_ reducer: Reducer<State, Handled>) {
        let reduce = reducer.reduce
        let access = access
        engine.register(
            { action in
                // Registered under `Handled`'s identifier, so only such actions arrive here.
                access.modify { reduce(&$0, action as! Handled) }
            }, for: ObjectIdentifier(Handled.self), at: node)
    }

    /// Registers a reducer that runs only while this optional state is present.
    public func register<Wrapped, Handled: Action>(
        presentOnly reducer: Reducer<Wrapped, Handled>
    ) where State == Wrapped? {
        register(
            Reducer<State, Handled> { state, action in
                guard state != nil else { return }
                reducer.reduce(&state!, action)
            })
    }

    /// Registers middleware that sees every action; its context reads this store's state.
    public func register(_ middleware: Middleware<State>) {
        let context = MiddlewareContext(engine: engine, access: access)
        let handle = middleware.handle
        engine.register { action in handle(action, context) }
        if let after = middleware.after {
            engine.registerAfterAction { action in after(action, context) }
        }
    }

    /// Registers everything in `parcel`: its reducers, middleware and presentation routes.
    public func register(_ parcel: Parcel<State>) {
        parcel.install(self)
    }

    /// A store on the part of this store's state at `path`.
    ///
    /// ```swift
    /// let settings = store.focus(\.settings)
    /// settings.register(settingsReducer)   // works on AppState.settings
    /// ```
    ///
    /// Focusing on the same path again gives the same store while it is held. Observers of a
    /// focused store's ``state`` are woken only when that part changes. Optional parts
    /// (`\.selection`) focus as optional states; see ``register(presentOnly:)``.
    ///
    /// Foci may overlap (`\.settings` and `\.settings.darkMode`, or `\.todos` and
    /// `\.todos[id: id]`): an action refreshes every focus whose part it may have changed.
    /// The store knows which parts a chain of stored properties covers, so such foci cost
    /// nothing when their neighbours change. It cannot see into a subscript or computed
    /// property: an action on `\.todos[id: id]` refreshes the foci beside it too (each
    /// compares its part and wakes no one if it is unchanged). For collection elements, use
    /// ``focus(_:id:)`` and ``focus(_:key:)``, which know that different elements never
    /// overlap.
    public func focus<Part>(_ path: WritableKeyPath<State, Part>) -> Store<Part> {
        focus(
            key: FocusKey(path: path, id: nil), region: .of(path),
            get: { $0[keyPath: path] }, modify: { state, body in body(&state[keyPath: path]) })
    }

    /// A store on the element with `id` of the array at `path`: `nil` while there is none.
    ///
    /// ```swift
    /// let todo = store.focus(\.todos, id: todoID)          // Store<Todo?>
    /// todo.register(presentOnly: Reducer<Todo, Rename> { $0.title = $1.title })
    /// ```
    ///
    /// Setting the element to `nil` removes it; setting it while absent appends it. An action
    /// on one element refreshes no other element's focus. Finding the element is a linear
    /// search of the array; for large collections keep them in a dictionary and use
    /// ``focus(_:key:)``.
    ///
    /// - Precondition: A reducer does not change the element's `id`.
    public func focus<Element: Identifiable>(_ path: WritableKeyPath<State, [Element]>, id: Element.ID) -> Store<
        Element?
    > {
        focus(
            key: FocusKey(path: path, id: AnyHashable(id)),
            region: .element(collection: path, collectionBytes: FocusRegion.storedBytes(of: path), id: AnyHashable(id)),
            get: { $0[keyPath: path][id: id] },
            modify: { state, body in
                var element = state[keyPath: path][id: id]
                body(&element)
                precondition(
                    element == nil || element!.id == id,
                    "Resin: a reducer changed the id of the element it focuses on, from \(id) to \(element!.id); an element focus keeps its element's identity"
                )
                state[keyPath: path][id: id] = element
            })
    }

    /// A store on the value for `key` in the dictionary at `path`: `nil` while there is none.
    ///
    /// ```swift
    /// let score = store.focus(\.scores, key: "ada")     // Store<Int?>
    /// ```
    ///
    /// Setting `nil` removes the key. An action on one key refreshes no other key's focus, so
    /// a dictionary of many observed parts costs per action what one part costs.
    public func focus<Key: Hashable, Value>(_ path: WritableKeyPath<State, [Key: Value]>, key: Key) -> Store<Value?> {
        focus(
            key: FocusKey(path: path, id: AnyHashable(key)),
            region: .element(
                collection: path, collectionBytes: FocusRegion.storedBytes(of: path), id: AnyHashable(key)),
            get: { $0[keyPath: path][key] },
            modify: { state, body in body(&state[keyPath: path][key]) })
    }

    private func focus<Part>(
        key: FocusKey, region: FocusRegion, get: @escaping (State) -> Part,
        modify: @escaping (inout State, (inout Part) -> Void) -> Void
    ) -> Store<Part> {
        if let child = node.child(for: key) {
            if let store = child.store as? Store<Part> { return store }
            // Registered reducers keep the node; a new store object joins it.
            // The node was made by this method with `FocusAccess<Part>`.
            return Store<Part>(engine: engine, node: child, access: child.access as! FocusAccess<Part>)
        }
        let parent = access
        let access = FocusAccess<Part>(
            graph: engine.graph,
            get: { get(parent.get()) },
            modify: { body in parent.modify { modify(&$0, body) } })
        let child = FocusNode(parent: node, region: region, access: access)
        node.add(child, for: key)
        return Store<Part>(engine: engine, node: child, access: access)
    }

    /// Called with every action that no middleware handled and no reducer is registered
    /// for. The default does nothing; set it (on any store of the tree) to log or assert.
    public var unhandledActionHandler: (any Action) -> Void {
        get { engine.unhandledActionHandler }
        set { engine.unhandledActionHandler = newValue }
    }

    /// The number of effects started by middleware and still running.
    public var runningEffectCount: Int { engine.runningEffectCount }

    /// How many foci the last action that a reducer handled refreshed (wrote their part into
    /// their state node), for tests of the cost.
    package var lastRefreshCountForTesting: Int { engine.lastRefreshCount }

    /// The effect inbox, for tests that check it is freed with the store.
    package var effectInboxForTesting: AnyObject { engine.inbox }
}

extension Array where Element: Identifiable {
    /// The element with `id`, for focusing a store on one element (`\.todos[id: id]`);
    /// setting `nil` removes it, setting a value replaces it (or appends it if absent).
    public subscript(id id: Element.ID) -> Element? {
        get { first { $0.id == id } }
        set {
            let index = firstIndex { $0.id == id }
            switch (index, newValue) {
            case (let index?, let element?): self[index] = element
            case (let index?, nil): remove(at: index)
            case (nil, let element?): append(element)
            case (nil, nil): break
            }
        }
    }
}

// MARK: For ResinTesting

extension Store {
    /// A root store whose effects' actions wait until the test store takes them.
    package convenience init(takingEffectsManually initialState: State) {
        self.init(initialState: initialState)
    }

    /// The current state.
    package var stateForTesting: State { currentState }

    /// Whether an effect sent an action that nobody has taken yet.
    package var hasWaitingEffectActions: Bool { engine.hasWaitingActions }

    /// The next action an effect sent, not yet dispatched; finished effects are forgotten
    /// on the way.
    package func takeNextEffectAction() -> (any Action)? { engine.takeNextAction() }

    /// Forgets the effects that finished.
    package func takeFinishedEffects() { engine.takeFinished() }

    /// Every waiting action, not dispatched.
    package func takeWaitingEffectActions() -> [any Action] {
        var actions: [any Action] = []
        while let action = engine.takeNextAction() { actions.append(action) }
        return actions
    }
}

extension Store: Subscribable {
    /// Delivers the store's state at once, then after each action that changes it, until the
    /// connection disconnects: ``state``'s `observe` under the name every paradigm of this
    /// package shares, so `.values` and code written against `Subscribable` work with stores
    /// and focused stores. The connection keeps the store alive while it is connected.
    public func subscribe(_ sink: @escaping (State) -> Void) -> Connection {
        let connection = state.observe(sink)
        connection.onDisconnect(isolated: { [self] in _ = self })
        return connection
    }
}
