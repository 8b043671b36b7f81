/// Sees every action before the reducers do, to run side effects, dispatch further
/// actions, replace the action or swallow it.
///
/// ```swift
/// let logger = Middleware<AppState> { action, context in
///     log.append("\(action)")
///     return .pass
/// }
///
/// let loader = Middleware<AppState>.on(Load.self) { load, context in
///     context.run(id: "load") { send in
///         let items = await api.items(page: load.page)
///         send(Loaded(items: items))
///     }
/// }
/// ```
///
/// Middleware runs in the order it was registered, each seeing the action as the previous
/// one left it. It never changes state itself. Middleware made with ``on(_:_:)`` is
/// registered for its action type (and ``on(_:route:_:)`` for one route), so the store
/// hands it only those actions without asking the rest.
public struct Middleware<State> {
    let handle: (any Action, MiddlewareContext<State>) -> MiddlewareDecision
    /// Runs after every action has been processed (the reducers ran and the state
    /// propagated, or the action was swallowed or unhandled), before the next one.
    let after: ((any Action, MiddlewareContext<State>) -> Void)?
    /// The action type it is for, or nil for every action.
    let actionType: ObjectIdentifier?
    /// That type's name, for inspection.
    var actionTypeName: String?
    let route: AnyHashable?

    /// Middleware that decides what happens to each action.
    public init(_ handle: @escaping (any Action, MiddlewareContext<State>) -> MiddlewareDecision) {
        self.handle = handle
        after = nil
        actionType = nil
        route = nil
    }

    init(
        _ handle: @escaping (any Action, MiddlewareContext<State>) -> MiddlewareDecision,
        after: ((any Action, MiddlewareContext<State>) -> Void)? = nil, actionType: ObjectIdentifier? = nil,
        actionTypeName: String? = nil, route: AnyHashable? = nil
    ) {
        self.handle = handle
        self.after = after
        self.actionType = actionType
        self.actionTypeName = actionTypeName
        self.route = route
    }

    /// Middleware that runs `handle` for actions of `type` (which then count as handled);
    /// it sees no other action.
    public static func on<Handled: Action>(
        _ type: Handled.Type, _ handle: @escaping (Handled, MiddlewareContext<State>) -> Void
    ) -> Middleware<State> {
        Middleware(
            { action, context in
                // Registered under `Handled`'s identifier, so only such actions arrive here.
                handle(action as! Handled, context)
                return .handled
            }, actionType: ObjectIdentifier(Handled.self), actionTypeName: "\(Handled.self)")
    }

    /// Middleware that runs `handle` for the actions of `type` whose route is `route`
    /// (which then count as handled); it sees no other action.
    public static func on<Handled: RoutedAction>(
        _ type: Handled.Type, route: Handled.Route, _ handle: @escaping (Handled, MiddlewareContext<State>) -> Void
    ) -> Middleware<State> {
        Middleware(
            { action, context in
                handle(action as! Handled, context)
                return .handled
            }, actionType: ObjectIdentifier(Handled.self), actionTypeName: "\(Handled.self)", route: AnyHashable(route))
    }
}

/// What a middleware does with an action.
public enum MiddlewareDecision {
    /// Not interested: the action goes on unchanged.
    case pass
    /// Acted on it (so it is not unhandled); the action goes on unchanged.
    case handled
    /// The action goes on as `replacement` instead.
    case replace(any Action)
    /// The action stops here: no later middleware and no reducer sees it.
    case swallow
}

/// What a middleware can do: read the state of the store it was registered on, dispatch
/// actions, and run or cancel asynchronous effects.
public struct MiddlewareContext<State> {
    // Unowned: middleware runs only while the engine processes an action, and a strong
    // reference from a registered middleware back to its store would keep the store alive.
    unowned let engine: Engine
    unowned let node: FocusNode
    let access: FocusAccess<State>

    /// The current state of the store the middleware was registered on.
    public var state: State { access.get() }

    /// The store's dependencies, which its effects run with.
    public var dependencies: Dependencies { engine.dependencies }

    /// Dispatches `action`; it is processed after the current one, in order.
    public func dispatch(_ action: some Action) {
        engine.dispatch(action)
    }

    /// Starts an asynchronous effect once the action has been processed; the actions it
    /// sends are dispatched into the store, in the store's isolation domain, in the order
    /// sent. The same as returning ``Effect/run(id:operation:catch:)`` from a reducer.
    ///
    /// An effect started with an `id` cancels any effect still running under the same id;
    /// ``cancel(id:)`` cancels it. Once cancelled, an effect's later actions are dropped. An
    /// error the operation throws goes to `handler`, or without one to the store's
    /// ``Store/unhandledErrorHandler``.
    public func run(
        id: (any Hashable & Sendable)? = nil, _ operation: @escaping @Sendable (Send<any Action>) async throws -> Void,
        catch handler: (@Sendable (any Error, Send<any Action>) async -> Void)? = nil
    ) {
        engine.perform(Effect.run(id: id, operation: operation, catch: handler).steps, owner: node)
    }

    /// Starts `effect` once the action has been processed, as if a reducer returned it.
    public func perform<Sent>(_ effect: Effect<Sent>) {
        engine.perform(effect.steps, owner: node)
    }

    /// Cancels the effect running under `id`, and any debounce or throttle waiting under it,
    /// once the action has been processed (in order with the effects asked for before).
    public func cancel(id: some Hashable & Sendable) {
        engine.perform(Effect<any Action>.cancel(id: id).steps, owner: node)
    }
}
