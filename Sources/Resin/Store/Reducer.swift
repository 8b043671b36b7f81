/// The only thing that changes state: a function of the state and one type of action, which
/// may ask for effects.
///
/// ```swift
/// let counter = Reducer<Int, Counter> { count, action in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
/// }
///
/// let facts = Reducer<FactState, Fact> { state, action in
///     switch action {
///     case .load:
///         state.isLoading = true
///         let number = state.number
///         return .run { send in send(.loaded(try await api.fact(number))) }
///     case .loaded(let fact):
///         state.isLoading = false
///         state.fact = fact
///         return .none
///     }
/// }
/// ```
///
/// A closure that returns nothing makes a reducer without effects; one that returns an
/// ``Effect`` (even from a single expression, or `.none` in some branches of a `switch`)
/// makes one whose effects are typed by `Handled`, so `.send(.loaded(x))` and, inside
/// `.run`, `send(.loaded(x))` name `Handled`'s cases.
///
/// Register reducers on a store (or bundle them in a ``Parcel``); registering returns a
/// connection, and the reducer runs while it is connected. Several reducers may handle one
/// action type; they run in the order they were registered. A reducer with a `route` runs
/// only for actions whose ``RoutedAction/route`` equals it, and the store finds it without
/// looking at the others.
public struct Reducer<State, Handled: Action> {
    let reduce: (inout State, Handled) -> Effect<Handled>
    let route: AnyHashable?

    /// A reducer for actions of type `Handled`.
    public init(_ reduce: @escaping (inout State, Handled) -> Void) {
        self.reduce = { state, action in
            reduce(&state, action)
            return .none
        }
        route = nil
    }

    /// A reducer for actions of type `Handled` that returns the effects they ask for; they
    /// start once the action has been processed (see ``Effect``).
    ///
    /// The second parameter is never passed. It makes Swift pick this initializer for a
    /// closure that returns an effect, even a single expression (`{ _, _ in .send(Done()) }`,
    /// which the `Void` one would otherwise take, dropping the effect), and the `Void` one for
    /// a closure that returns nothing.
    public init(
        _ reduce: @escaping (inout State, Handled) -> Effect<Handled>, _ returningEffects: ReturningEffects = .init()
    ) {
        self.reduce = reduce
        route = nil
    }

    init(reduce: @escaping (inout State, Handled) -> Effect<Handled>, route: AnyHashable?) {
        self.reduce = reduce
        self.route = route
    }

    /// A reducer for actions of `type`, for when the type cannot be inferred.
    public init(for type: Handled.Type, _ reduce: @escaping (inout State, Handled) -> Void) {
        self.init(reduce)
    }

    /// A reducer for actions of `type` that returns effects, for when the type cannot be
    /// inferred.
    ///
    /// The second parameter is never passed. It makes Swift pick this initializer for a
    /// closure that returns an effect, even a single expression (`{ _, _ in .send(Done()) }`,
    /// which the `Void` one would otherwise take, dropping the effect), and the `Void` one for
    /// a closure that returns nothing.
    public init(
        for type: Handled.Type, _ reduce: @escaping (inout State, Handled) -> Effect<Handled>,
        _ returningEffects: ReturningEffects = .init()
    ) {
        self.init(reduce: reduce, route: nil)
    }
}

extension Reducer where Handled: RoutedAction {
    /// A reducer for the actions of type `Handled` whose route is `route`.
    ///
    /// ```swift
    /// for id in rowIDs {
    ///     registrations.add(store.focus(\.rows, key: id).register(
    ///         Reducer<Row?, RowAction>(route: id) { row, action in row?.apply(action) }))
    /// }
    /// ```
    public init(route: Handled.Route, _ reduce: @escaping (inout State, Handled) -> Void) {
        self.reduce = { state, action in
            reduce(&state, action)
            return .none
        }
        self.route = AnyHashable(route)
    }

    /// A reducer for the actions of type `Handled` whose route is `route`, returning effects.
    ///
    /// The second parameter is never passed. It makes Swift pick this initializer for a
    /// closure that returns an effect, even a single expression (`{ _, _ in .send(Done()) }`,
    /// which the `Void` one would otherwise take, dropping the effect), and the `Void` one for
    /// a closure that returns nothing.
    public init(
        route: Handled.Route, _ reduce: @escaping (inout State, Handled) -> Effect<Handled>,
        _ returningEffects: ReturningEffects = .init()
    ) {
        self.reduce = reduce
        self.route = AnyHashable(route)
    }
}

/// The never-passed last parameter of ``Reducer``'s effect-returning initializers, which
/// steers overload resolution (see ``Reducer/init(_:_:)``).
public struct ReturningEffects: Sendable {
    /// The only value, the parameter's default.
    public init() {}
}

extension Reducer {
    /// This reducer, then `react` whenever it changed `value` of the state: with the value
    /// before the action and after it, and the state to adjust. What `react` returns starts
    /// with this reducer's effects, after them.
    ///
    /// ```swift
    /// let settings = Reducer<LanguageSettings, SettingsAction> { settings, action in
    ///     settings.apply(action)
    /// }
    /// .onChange(of: \.language) { old, new, settings in
    ///     settings.translationsLoaded = false
    ///     return .run { send in send(.translationsLoaded(try await translations(for: new))) }
    /// }
    /// ```
    ///
    /// Like The Composable Architecture's `onChange(of:)`, it sees what this reducer changed
    /// for the actions it handles, compared with `==`: a change back to the old value within
    /// the action is no change. Another reducer's writes to the same state run their own.
    public func onChange<Value: Equatable>(
        of value: @escaping (State) -> Value,
        _ react: @escaping (_ old: Value, _ new: Value, _ state: inout State) -> Effect<Handled>,
        _ returningEffects: ReturningEffects = .init()
    ) -> Reducer {
        let reduce = reduce
        return Reducer(
            reduce: { state, action in
                let old = value(state)
                let effect = reduce(&state, action)
                let new = value(state)
                guard old != new else { return effect }
                return .merge(effect, react(old, new, &state))
            }, route: route)
    }

    /// This reducer, then `react` whenever it changed `value` of the state, as the overload
    /// whose `react` returns an effect does, for a `react` that asks for none.
    public func onChange<Value: Equatable>(
        of value: @escaping (State) -> Value,
        _ react: @escaping (_ old: Value, _ new: Value, _ state: inout State) -> Void
    ) -> Reducer {
        onChange(of: value) { old, new, state -> Effect<Handled> in
            react(old, new, &state)
            return .none
        }
    }
}
