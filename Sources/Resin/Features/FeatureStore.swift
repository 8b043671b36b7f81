import Dispatch
import Incremental
import ReactiveCore

/// A store seen through one feature's action type, so that `send(.increment)` names the
/// feature's cases with a leading dot.
///
/// ```swift
/// enum Counter: Action { case increment, decrement }
/// let counter = Reducer<Int, Counter> { count, action in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
/// }
///
/// let store = FeatureStore(initialState: 0, reducer: counter)
/// store.send(.increment)
/// let label = store.state.map { "\($0)" }
/// ```
///
/// A `Store` takes actions of every type (``Store/dispatch(_:)``), which is how parcels route
/// to each other; a feature store is the same store with one action type named, for the
/// code that drives one feature (a view, a controller). Make one from a store or a focused
/// store with ``Store/sending(_:)``, or with a root store and the feature's reducer with
/// ``init(initialState:reducer:scheduler:dependencies:)``. It still sends actions of other
/// types (`send(Logout())`).
public struct FeatureStore<State, Sent: Action> {
    /// The store actions go to.
    public let store: Store<State>
    /// The registration of the reducer the feature store was made with, kept while any copy
    /// of it lives.
    private let registration: Connection?

    /// The feature `store` serves.
    public init(_ store: Store<State>) {
        self.store = store
        registration = nil
    }

    /// A root store holding `initialState`, with `reducer` registered for as long as this
    /// feature store (or a copy of it) lives; `scheduler` and `dependencies` are those of
    /// ``Store/init(initialState:scheduler:dependencies:)``.
    public init(
        initialState: State, reducer: Reducer<State, Sent>, scheduler: some Scheduler = DispatchScheduler(queue: .main),
        dependencies: Dependencies = Dependencies()
    ) {
        store = Store(initialState: initialState, scheduler: scheduler, dependencies: dependencies)
        registration = store.register(reducer)
    }

    /// A root store holding `initialState`, with the reducer `reducer` makes registered, and
    /// effects that run with the live dependencies as `changeDependencies` changes them:
    /// TCA's `Store(initialState:reducer:withDependencies:)`.
    ///
    /// ```swift
    /// let counter = FeatureStore(initialState: CounterState()) {
    ///     counterReducer
    /// } withDependencies: {
    ///     $0.numberFact = NumberFactClient { "\($0) is a good number." }
    /// }
    /// ```
    public init(
        initialState: State, scheduler: some Scheduler = DispatchScheduler(queue: .main),
        reducer: () -> Reducer<State, Sent>,
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        var dependencies = Dependencies()
        changeDependencies(&dependencies)
        self.init(initialState: initialState, reducer: reducer(), scheduler: scheduler, dependencies: dependencies)
    }

    /// The store's state, as an Incremental value (see ``Store/state``).
    public var state: I<State> { store.state }

    /// Dispatches `action`, a case of the feature's action type (see ``Store/dispatch(_:)``).
    public func send(_ action: Sent) {
        store.dispatch(action)
    }

    /// Dispatches `action`, of any action type (see ``Store/dispatch(_:)``).
    public func send(_ action: some Action) {
        store.dispatch(action)
    }

    /// The feature store of the part of the state at `path`, sending `Part`'s actions.
    ///
    /// ```swift
    /// let settings = app.focus(\.settings, sending: SettingsAction.self)
    /// settings.send(.toggleDarkMode)
    /// ```
    public func focus<Part, PartSent: Action>(
        _ path: WritableKeyPath<State, Part>, sending: PartSent.Type
    ) -> FeatureStore<Part, PartSent> {
        FeatureStore<Part, PartSent>(store.focus(path))
    }
}

extension Store {
    /// This store, sending `Sent`'s actions with leading-dot syntax (see ``FeatureStore``).
    ///
    /// ```swift
    /// let counter = store.focus(\.counter).sending(Counter.self)
    /// counter.send(.increment)
    /// ```
    public func sending<Sent: Action>(_ type: Sent.Type) -> FeatureStore<State, Sent> {
        FeatureStore(self)
    }
}
