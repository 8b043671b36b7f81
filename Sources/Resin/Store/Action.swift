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
