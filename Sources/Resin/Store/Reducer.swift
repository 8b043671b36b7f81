/// The only thing that changes state: a function of the state and one type of action.
///
/// ```swift
/// let counter = Reducer<Int, Counter> { count, action in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
/// }
/// ```
///
/// Register reducers on a store (or bundle them in a ``Parcel``). Several reducers may
/// handle one action type; they run in the order they were registered.
public struct Reducer<State, Handled: Action> {
    let reduce: (inout State, Handled) -> Void

    /// A reducer for actions of type `Handled`.
    public init(_ reduce: @escaping (inout State, Handled) -> Void) {
        self.reduce = reduce
    }

    /// A reducer for actions of `type`, for when the type cannot be inferred.
    public init(for type: Handled.Type, _ reduce: @escaping (inout State, Handled) -> Void) {
        self.reduce = reduce
    }

    var erased: AnyReducer<State> {
        let reduce = reduce
        return AnyReducer(actionType: ObjectIdentifier(Handled.self)) { state, action in
            // The store calls a reducer only with actions of the type it registered under.
            reduce(&state, action as! Handled)
        }
    }
}

/// A reducer with its action type erased, as the store keeps it.
public struct AnyReducer<State> {
    let actionType: ObjectIdentifier
    let reduce: (inout State, any Action) -> Void
}
