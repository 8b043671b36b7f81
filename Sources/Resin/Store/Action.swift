/// Something one part of the app asks another to do; the only way to change a store's state.
///
/// Actions are values: structs or enums, `Sendable` so that asynchronous effects can send
/// them back to the store.
///
/// ```swift
/// struct AddTodo: Action { var title: String }
/// enum Counter: Action { case increment, decrement }
/// ```
///
/// An action is a request, not a notification: it says "do this", addressed to the reducers
/// and middleware that handle it. Do not use actions as an event stream to tell the app that
/// something changed; observe the state for that (see <doc:Semantics>).
public protocol Action: Sendable {}

/// An action that names what it concerns, so that a store hands it only to the reducers and
/// middleware registered for that route.
///
/// ```swift
/// struct RenameRow: RoutedAction {
///     var id: Row.ID
///     var title: String
///     var route: Row.ID { id }
/// }
///
/// let rename = Reducer<Row?, RenameRow>(route: row.id) { row, action in row?.title = action.title }
/// ```
///
/// A reducer or middleware registered without a route sees every action of the type; one
/// registered with a route sees only the actions with that route. Finding them costs the
/// same with one route as with thousands. For an enum action, a route can name the case (or
/// the case and the element it concerns).
public protocol RoutedAction: Action {
    /// What a route is made of.
    associatedtype Route: Hashable & Sendable
    /// The registrations this action is for.
    var route: Route { get }
}
