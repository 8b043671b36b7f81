import Dispatch

/// Holds the app state and changes it only through actions.
///
/// ```swift
/// struct AppState { var count = 0; var todos: [String] = [] }
/// enum Counter: Action { case increment }
///
/// let store = Store(initialState: AppState())
/// let counter = store.register(Reducer<AppState, Counter> { state, _ in state.count += 1 })
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
    let access: FocusAccess<State>
    /// The focus's state input; holding it keeps the focus (see ``FocusAccess``).
    let input: Input<State>
    var node: FocusNode { access.node }

    /// Creates a root store holding `initialState`, delivering what effects send through
    /// `scheduler` and timing debounces and throttles on it; its effects run with
    /// `dependencies` (live values by default).
    public convenience init(
        initialState: State, scheduler: some Scheduler = DispatchScheduler(queue: .main),
        dependencies: Dependencies = Dependencies()
    ) {
        self.init(initialState: initialState, effectScheduler: scheduler, dependencies: dependencies)
        engine.deliverEffectsAutomatically()
    }

    /// Creates a root store like ``init(initialState:scheduler:dependencies:)``, whose effects
    /// run with the live dependencies as `changeDependencies` changes them (TCA's form).
    ///
    /// ```swift
    /// let store = Store(initialState: AppState()) {
    ///     $0.api = APIClient { query in ["\(query), from the staging server"] }
    /// }
    /// ```
    public convenience init(
        initialState: State, scheduler: some Scheduler = DispatchScheduler(queue: .main),
        withDependencies changeDependencies: (inout Dependencies) -> Void
    ) {
        var dependencies = Dependencies()
        changeDependencies(&dependencies)
        self.init(initialState: initialState, scheduler: scheduler, dependencies: dependencies)
    }

    /// Creates a root store whose effects' actions are taken only when asked (the test
    /// store's mode).
    init(initialState: State, effectScheduler: any Scheduler, dependencies: Dependencies) {
        let engine = RootEngine(state: initialState, scheduler: effectScheduler, dependencies: dependencies)
        // The root state changes as a whole: comparing it would cost as much as the app
        // state is big, so it always propagates and foci cut off instead.
        let node = FocusNode(parent: nil, key: nil, region: .opaque, engine: engine)
        let access = RootAccess(engine: engine, node: node)
        self.engine = engine
        self.access = access
        input = access.input
        node.store = self
    }

    init(engine: Engine, access: FocusAccess<State>) {
        self.engine = engine
        self.access = access
        input = access.input
        access.node.store = self
    }

    /// The store's state, as an Incremental value: observe it or derive from it.
    ///
    /// It changes once per action that changes it, after every reducer for that action has
    /// run. For a focused store it changes only when its slice changes.
    public var state: I<State> { input }

    /// The state now; for middleware and tests.
    var currentState: State { access.get() }

    /// Dispatches `action`: middleware sees it, then the reducers for its type run, in
    /// registration order. An action dispatched while another is being processed is queued
    /// and processed after it, in order; none is dropped.
    ///
    /// Returns the action's ``StoreTask``: await its ``StoreTask/finish(isolation:)`` for every effect
    /// the action started to end, or ``StoreTask/cancel()`` them.
    @discardableResult
    public func dispatch(_ action: some Action) -> StoreTask {
        let task = StoreTask(engine: engine, action: action)
        engine.dispatch(action, task: task)
        return task
    }

    /// Dispatches each action `actions` yields, in order, on a task isolated to the caller's
    /// actor (the store's domain), until the sequence ends or the returned connection
    /// disconnects: the feed the other paradigms have. After a disconnect nothing more is
    /// dispatched; `finished` runs once when the sequence ends on its own, with `nil` or the
    /// error it threw.
    ///
    /// ```swift
    /// let feed = store.dispatch(from: notifications.map { _ in Refresh() })
    /// ```
    public func dispatch<Actions: AsyncSequence>(
        from actions: sending Actions,
        isolation: isolated (any Actor) = #isolation,
        finished: @escaping (Actions.Failure?) -> Void = { _ in }
    ) -> Connection where Actions.Element: Action {
        // Weak: the feed does not keep a store that its owner let go.
        feedIsolated(actions, isolation: isolation, receive: { [weak self] in self?.dispatch($0) }, finished: finished)
    }

    /// Registers a reducer on this store's state; it runs while the returned connection is
    /// connected (disconnect it, or release it, to unregister).
    ///
    /// A reducer with a route (`Reducer(route:_:)`)
    /// runs only for actions with that route.
    public func register<Handled: Action>(_ reducer: Reducer<State, Handled>) -> Connection {
        register(reducer, mayLeaveUnchanged: true)
    }

    /// Registers `reducer`; `mayLeaveUnchanged` is false only for a reducer that changes the
    /// state whenever it runs (a persistence's loads), which the focus then need not keep
    /// its state to tell (see ``FocusNode/comparedReducers``).
    func register<Handled: Action>(_ reducer: Reducer<State, Handled>, mayLeaveUnchanged: Bool) -> Connection {
        let reduce = reducer.reduce
        let access = access
        engine.actionTypeNames[ObjectIdentifier(Handled.self)] = String(describing: Handled.self)
        return engine.register(
            reducer: { action in
                // Registered under `Handled`'s identifier, so only such actions arrive here.
                var effect = Effect<Handled>.none
                access.modify { effect = reduce(&$0, action as! Handled) }
                return effect.steps
            }, for: ObjectIdentifier(Handled.self), route: reducer.route, at: node,
            mayLeaveUnchanged: mayLeaveUnchanged)
    }

    /// Registers a reducer that runs only while this optional state is present; it runs while
    /// the returned connection is connected.
    ///
    /// An action whose every reducer is one of these with its state absent (a dismissed child,
    /// a popped element, another case of an enum) goes nowhere: a test store fails the test,
    /// a debug build warns once per action type.
    public func register<Wrapped, Handled: Action>(
        presentOnly reducer: Reducer<Wrapped, Handled>
    ) -> Connection where State == Wrapped? {
        let reduce = reducer.reduce
        // Unowned: the engine keeps its reducers, and goes after them.
        return register(
            Reducer<State, Handled>(
                reduce: { [unowned engine] state, action in
                    guard state != nil else {
                        engine.absentSkips += 1
                        return .none
                    }
                    return reduce(&state!, action)
                }, route: reducer.route))
    }

    /// Registers middleware; its context reads this store's state. It runs while the
    /// returned connection is connected.
    public func register(_ middleware: Middleware<State>) -> Connection {
        let context = MiddlewareContext(engine: engine, node: node, access: access)
        let handle = middleware.handle
        let after = middleware.after
        if let type = middleware.actionType, let name = middleware.actionTypeName {
            engine.actionTypeNames[type] = name
        }
        return engine.register(
            middleware: { action in handle(action, context) },
            after: after.map { after in { action in after(action, context) } },
            for: middleware.actionType, route: middleware.route, at: node)
    }

    /// Registers everything in `parcel`: its reducers, middleware and presentation routes.
    /// They stay registered while the returned connection is connected.
    public func register(_ parcel: Parcel<State>) -> Connection {
        parcel.install(self)
    }

    /// A store on the part of this store's state at `path`.
    ///
    /// ```swift
    /// let settings = store.focus(\.settings)
    /// let registration = settings.register(settingsReducer)   // works on AppState.settings
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
    /// ``focus(_:id:)-(WritableKeyPath<State,[Element]>,_)`` and ``focus(_:key:)``, which know that different elements never
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
    /// let rename = todo.register(presentOnly: Reducer<Todo, Rename> { $0.title = $1.title })
    /// ```
    ///
    /// Setting the element to `nil` removes it; setting it while absent appends it. An action
    /// on one element refreshes no other element's focus. The focus remembers where its
    /// element was, and looks there and next to it first, so finding it costs O(1) while
    /// elements keep their places or move by one (an insertion or removal before it); after
    /// a bigger move, one linear search finds it again.
    ///
    /// - Precondition: A reducer does not change the element's `id`.
    public func focus<Element: Identifiable>(_ path: WritableKeyPath<State, [Element]>, id: Element.ID) -> Store<
        Element?
    > {
        focus(path, id: id, lookingFirstAt: 0)
    }

    /// ``focus(_:id:)``, whose first look for the element is at `index`.
    func focus<Element: Identifiable>(
        _ path: WritableKeyPath<State, [Element]>, id: Element.ID, lookingFirstAt index: Int
    ) -> Store<Element?> {
        let hint = IndexHint(lookingFirstAt: index)
        let generation = node.generation(of: path)
        return focus(
            key: FocusKey(path: path, id: AnyHashable(id)),
            region: .element(collection: path, collectionBytes: FocusRegion.storedBytes(of: path), id: AnyHashable(id)),
            get: { state in
                let array = state[keyPath: path]
                return hint.index(of: id, in: array).map { array[$0] }
            },
            modify: { state, body in
                let index = hint.index(of: id, in: state[keyPath: path])
                var element = index.map { state[keyPath: path][$0] }
                body(&element)
                precondition(
                    element == nil || element!.id == id,
                    "Resin: a reducer changed the id of the element it focuses on, from \(id) to \(element!.id); an element focus keeps its element's identity"
                )
                switch (index, element) {
                case (let index?, let element?): state[keyPath: path][index] = element
                case (let index?, nil):
                    state[keyPath: path].remove(at: index)
                    generation.changes += 1
                case (nil, let element?):
                    state[keyPath: path].append(element)
                    generation.changes += 1
                case (nil, nil): break
                }
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
        let generation = node.generation(of: path)
        return focus(
            key: FocusKey(path: path, id: AnyHashable(key)),
            region: .element(
                collection: path, collectionBytes: FocusRegion.storedBytes(of: path), id: AnyHashable(key)),
            get: { $0[keyPath: path][key] },
            modify: { state, body in
                let wasPresent = state[keyPath: path][key] != nil
                body(&state[keyPath: path][key])
                if wasPresent != (state[keyPath: path][key] != nil) { generation.changes += 1 }
            })
    }

    func focus<Part>(
        key: FocusKey, region: FocusRegion, get: @escaping (State) -> Part,
        modify: @escaping (inout State, (inout Part) -> Void) -> Void
    ) -> Store<Part> {
        let parent = access
        return childStore(
            of: node, engine: engine, key: key, region: region,
            get: { get(parent.get()) },
            modify: { body in parent.modify { modify(&$0, body) } })
    }

    /// Called with every action that no middleware handled and no reducer is registered
    /// for. The default does nothing; set it (on any store of the tree) to log or assert.
    public var unhandledActionHandler: (any Action) -> Void {
        get { engine.unhandledActionHandler }
        set { engine.unhandledActionHandler = newValue }
    }

    /// Called, in the store's isolation domain, with every error an effect's operation
    /// threw that no `catch:` handler took (see ``Effect/run(id:operation:catch:)``). The
    /// default writes it to standard error; set it (on any store of the tree) to log,
    /// report or assert. A test store records each such error as a test failure instead.
    public var unhandledErrorHandler: (any Error) -> Void {
        get { engine.unhandledErrorHandler }
        set { engine.unhandledErrorHandler = newValue }
    }

    /// The dependencies the store's effects run with (shared by every store of the tree);
    /// a change applies to effects started afterwards.
    public var dependencies: Dependencies {
        get { engine.dependencies }
        set { engine.dependencies = newValue }
    }

    /// The number of effects started and still running (not finished or cancelled).
    public var runningEffectCount: Int { engine.runningEffectCount }

    /// The number of debounces and throttles under way: waiting to start an effect, or in a
    /// throttle's pause.
    public var pacingEffectCount: Int { engine.pacingEffectCount }

    /// How many foci the last action that a reducer handled refreshed (wrote their part into
    /// their state node), for tests of the cost.
    package var lastRefreshCountForTesting: Int { engine.lastRefreshCount }

    /// The effect inbox, for tests that check it is freed with the store.
    package var effectInboxForTesting: AnyObject { engine.inbox }

    /// The engine and its graph, for tests that check they are freed with the store.
    package var engineForTesting: (engine: AnyObject, graph: AnyObject) { (engine, engine.graph) }
}

/// The store of the focus `key` of `parent`: the one held, a new store object on the focus
/// if it lives, or a new focus reading and writing its part with `get` and `modify`.
func childStore<Part>(
    of parent: FocusNode, engine: Engine, key: FocusKey, region: FocusRegion, get: @escaping () -> Part,
    modify: @escaping ((inout Part) -> Void) -> Void
) -> Store<Part> {
    if let child = parent.child(for: key), let refresher = child.refresher {
        if let store = child.store as? Store<Part> { return store }
        // Its input, a registration or an inner focus keeps the node; a new store object
        // joins it. The node was made by this function with `FocusAccess<Part>`.
        return Store<Part>(engine: engine, access: refresher as! FocusAccess<Part>)
    }
    let child = FocusNode(parent: parent, key: key, region: region, engine: engine)
    let access = FocusAccess<Part>(node: child, graph: engine.graph, get: get, modify: modify)
    parent.add(child, for: key)
    return Store<Part>(engine: engine, access: access)
}

/// Where an element focus last found its element.
final class IndexHint {
    private var last: Int

    init(lookingFirstAt index: Int) {
        last = index
    }

    /// The index of the element with `id` in `array`: looked for where it was, next to
    /// that, then from the start.
    func index<Element: Identifiable>(of id: Element.ID, in array: [Element]) -> Int? {
        for candidate in [last, last - 1, last + 1] where array.indices.contains(candidate) {
            if array[candidate].id == id {
                last = candidate
                return candidate
            }
        }
        guard let found = array.firstIndex(where: { $0.id == id }) else { return nil }
        last = found
        return found
    }
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
    /// A root store whose effects' actions wait until the test store takes them, timing
    /// debounces and throttles on `scheduler`.
    package convenience init(
        takingEffectsManually initialState: State, scheduler: any Scheduler, dependencies: Dependencies
    ) {
        self.init(initialState: initialState, effectScheduler: scheduler, dependencies: dependencies)
    }

    /// How many reducers, middleware and routes are registered in the whole tree.
    package var registrationCountsForTesting: (reducers: Int, middleware: Int, routes: Int) {
        engine.registrationCounts
    }

    /// How many foci this store's focus has inside it (held by a store, a registration or
    /// an inner focus).
    package var focusChildCountForTesting: Int { node.childCount }

    /// The current state.
    package var stateForTesting: State { currentState }

    /// Whether an effect sent an action that nobody has taken yet.
    package var hasWaitingEffectActions: Bool { engine.hasWaitingActions }

    /// The next action an effect sent, not yet dispatched; finished effects are forgotten
    /// on the way.
    package func takeNextEffectAction() -> (any Action)? { engine.takeNextAction() }

    /// Forgets the effects that finished (starting what a concatenation has next).
    package func takeFinishedEffects() { engine.takeFinished() }

    /// One line per running effect, oldest first: the action that started it, and its ids.
    package var runningEffectDescriptions: [String] { engine.runningEffectDescriptions }

    /// Cancels every effect, concatenation, debounce and throttle under way (a test store's
    /// `skipInFlightEffects`); returns how many there were.
    @discardableResult
    package func cancelEveryEffectForTesting() -> Int { engine.cancelEverything() }

    /// Sets what happens to an action that goes nowhere (a test store records a failure).
    package func setActionWentNowhereHandler(_ handler: @escaping (any Action, String) -> Void) {
        engine.actionWentNowhereHandler = handler
    }

    /// The errors effects threw that no `catch:` handler took, since the last call.
    package func takeUnhandledEffectErrors() -> [any Error] { engine.takeUnhandledErrors() }

    /// The actions effects sent after they completed, since the last call (dropped).
    package func takeActionsSentAfterCompletion() -> [any Action] { engine.takeSentAfterCompletion() }

    /// How many cancelled effects' tasks have not ended yet.
    package var endingEffectCount: Int { engine.ending.count }

    /// One line per cancelled effect whose task has not ended yet, oldest first.
    package var endingEffectDescriptions: [String] { engine.endingEffectDescriptions }

    /// What tells a test store's waits that an effect posted something or a task's sleep on
    /// the test scheduler began or ended.
    package var effectActivity: ActivitySignal { engine.inbox.activity }

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
