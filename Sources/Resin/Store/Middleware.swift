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
/// one left it. It never changes state itself.
public struct Middleware<State> {
    let handle: (any Action, MiddlewareContext<State>) -> MiddlewareDecision
    /// Runs after every action has been processed (the reducers ran and the state
    /// propagated, or the action was swallowed or unhandled), before the next one.
    let after: ((any Action, MiddlewareContext<State>) -> Void)?

    /// Middleware that decides what happens to each action.
    public init(_ handle: @escaping (any Action, MiddlewareContext<State>) -> MiddlewareDecision) {
        self.handle = handle
        after = nil
    }

    init(
        _ handle: @escaping (any Action, MiddlewareContext<State>) -> MiddlewareDecision,
        after: @escaping (any Action, MiddlewareContext<State>) -> Void
    ) {
        self.handle = handle
        self.after = after
    }

    /// Middleware that runs `handle` for actions of `type` (which then count as handled)
    /// and passes every action on unchanged.
    public static func on<Handled: Action>(
        _ type: Handled.Type, _ handle: @escaping (Handled, MiddlewareContext<State>) -> Void
    ) -> Middleware<State> {
        Middleware { action, context in
            guard let action = action as? Handled else { return .pass }
            handle(action, context)
            return .handled
        }
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
    let access: FocusAccess<State>

    /// The current state of the store the middleware was registered on.
    public var state: State { access.get() }

    /// Dispatches `action`; it is processed after the current one, in order.
    public func dispatch(_ action: some Action) {
        engine.dispatch(action)
    }

    /// Starts an asynchronous effect; the actions it sends are dispatched into the store, in
    /// the store's isolation domain, in the order sent.
    ///
    /// An effect started with an `id` cancels any effect still running under the same id;
    /// ``cancel(id:)`` cancels it. Once cancelled, an effect's later actions are dropped.
    public func run(id: AnyHashable? = nil, _ operation: @escaping @Sendable (Send) async -> Void) {
        engine.startEffect(id: id, operation)
    }

    /// Cancels the effect running under `id`, if any.
    public func cancel(id: AnyHashable) {
        engine.cancelEffect(id: id)
    }
}
