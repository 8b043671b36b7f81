/// A module's reducers, middleware and presentation routes, registered together.
///
/// ```swift
/// // In the Todos module; its reducers stay internal.
/// public var todosParcel: Parcel<TodosState> {
///     Parcel(
///         reducers: [.init(addTodoReducer), .init(toggleReducer)],
///         middleware: [persistence],
///         routes: [PresentationRoute<String>("todo") { "Todo \($0.parameter ?? "")" }.erased])
/// }
/// ```
///
/// The app registers it on its slice, and keeps the connection:
///
/// ```swift
/// let todos = store.register(todosParcel.focused(on: \AppState.todos))
/// ```
///
/// A parcel is not `Sendable` (its reducers and middleware run in the store's isolation
/// domain), so a module publishes it as a computed property, as above, or as a `static`
/// member of a `@MainActor` type; a stored global `let` does not compile in Swift 6.
///
/// Registering a parcel returns one connection for everything in it: disconnecting it (or
/// releasing it) unregisters them all. A parcel focused on a part of a bigger state
/// registers its reducers and middleware on the focused store, so they keep working on their part (and a change they make wakes only
/// observers of that part). Parcels combine with ``combined(with:)``.
public struct Parcel<State> {
    let install: (Store<State>) -> Connection

    /// A parcel of `reducers`, `middleware` and `routes`.
    public init(
        reducers: [ParcelReducer<State>] = [], middleware: [Middleware<State>] = [],
        routes: [AnyPresentationRoute] = []
    ) {
        install = { store in
            var connections: [Connection] = []
            for reducer in reducers { connections.append(reducer.register(store)) }
            for middleware in middleware { connections.append(store.register(middleware)) }
            for route in routes { connections.append(store.register(route)) }
            return Connection(grouping: connections)
        }
    }

    init(install: @escaping (Store<State>) -> Connection) {
        self.install = install
    }

    /// This parcel, working on the part of `Parent` at `path`.
    public func focused<Parent>(on path: WritableKeyPath<Parent, State>) -> Parcel<Parent> {
        let install = install
        return Parcel<Parent> { store in install(store.focus(path)) }
    }

    /// This parcel and `other`, registered in that order.
    public func combined(with other: Parcel<State>) -> Parcel<State> {
        let (first, second) = (install, other.install)
        return Parcel { store in Connection(grouping: [first(store), second(store)]) }
    }
}

/// A reducer of any action type, as a parcel lists it.
public struct ParcelReducer<State> {
    let register: (Store<State>) -> Connection

    /// Wraps `reducer`.
    public init<Handled: Action>(_ reducer: Reducer<State, Handled>) {
        register = { $0.register(reducer) }
    }
}
