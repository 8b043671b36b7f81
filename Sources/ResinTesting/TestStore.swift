import Resin
import Testing

/// A store for tests that makes them exhaustive: every state change and every action an
/// effect sends must be asserted, and no effect may be left running.
///
/// ```swift
/// @Test func loadsItems() async {
///     let store = TestStore(initialState: AppState()) { $0.register(appParcel) }
///     store.send(Load(page: 1)) { $0.isLoading = true }
///     await store.receive(Loaded(items: ["a"])) {
///         $0.isLoading = false
///         $0.items = ["a"]
///     }
///     await store.finish()
/// }
/// ```
///
/// ``send(_:_:sourceLocation:)`` dispatches an action and checks that the state changed
/// exactly as the closure says (nothing more, nothing less). `receive(_:_:sourceLocation:)`
/// waits for the next action an effect sends, checks it, dispatches it and checks the state.
/// ``finish(sourceLocation:)`` waits for the effects still running and records an issue for
/// each action nobody received and each effect that does not finish. Failures are recorded
/// with Swift Testing's `Issue.record` at the calling line.
///
/// Effects' actions are taken only when the test asks, so the test decides the order.
/// Waiting never sleeps: it yields to the effects' tasks a bounded number of times.
public final class TestStore<State: Equatable> {
    /// The store under test.
    public let store: Store<State>
    private let maximumYields: Int

    /// A test store holding `initialState`, set up (reducers, middleware, parcels) by
    /// `setUp`.
    ///
    /// - Parameters:
    ///   - initialState: The state the store starts with.
    ///   - maximumYields: How many times waiting yields to effects before it records that an
    ///     expected action never came.
    ///   - setUp: Registers the reducers, middleware and parcels under test.
    public init(initialState: State, maximumYields: Int = 10_000, setUp: (Store<State>) -> Void = { _ in }) {
        store = Store(takingEffectsManually: initialState)
        self.maximumYields = maximumYields
        setUp(store)
    }

    /// The store's current state.
    public var state: State { store.stateForTesting }

    /// Dispatches `action` and checks that the state changed exactly as `update` describes
    /// (pass no `update` when the action must not change the state).
    public func send(
        _ action: some Action, _ update: (inout State) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if store.hasWaitingEffectActions {
            Issue.record(
                "Received actions from effects must be asserted with receive before sending \(action)",
                sourceLocation: sourceLocation)
        }
        var expected = state
        update(&expected)
        store.dispatch(action)
        check(expected, after: "\(action)", sourceLocation)
    }

    /// Waits for the next action an effect sends, checks that it equals `expected`,
    /// dispatches it and checks that the state changed exactly as `update` describes.
    public func receive<Expected: Action & Equatable>(
        _ expected: Expected, _ update: (inout State) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let action = await nextEffectAction(sourceLocation) else { return }
        guard let received = action as? Expected, received == expected else {
            Issue.record("Expected to receive \(expected), received \(action)", sourceLocation: sourceLocation)
            return
        }
        var expectedState = state
        update(&expectedState)
        store.dispatch(received)
        check(expectedState, after: "\(received)", sourceLocation)
    }

    /// Waits for the next action an effect sends, checks that it has type `type`,
    /// dispatches it and checks that the state changed exactly as `update` describes.
    public func receive<Expected: Action>(
        _ type: Expected.Type, _ update: (inout State) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let action = await nextEffectAction(sourceLocation) else { return }
        guard let received = action as? Expected else {
            Issue.record("Expected to receive a \(Expected.self), received \(action)", sourceLocation: sourceLocation)
            return
        }
        var expectedState = state
        update(&expectedState)
        store.dispatch(received)
        check(expectedState, after: "\(received)", sourceLocation)
    }

    /// Waits for the effects still running; records an issue for every action they send
    /// that nobody received and for every effect still running at the end.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        var yields = 0
        while store.runningEffectCount > 0 && yields < maximumYields {
            store.takeFinishedEffects()
            if store.runningEffectCount == 0 { break }
            await Task.yield()
            yields += 1
        }
        store.takeFinishedEffects()
        for action in store.takeWaitingEffectActions() {
            Issue.record("An effect sent \(action), which the test did not receive", sourceLocation: sourceLocation)
        }
        if store.runningEffectCount > 0 {
            Issue.record(
                "\(store.runningEffectCount) effect(s) still running at the end of the test; cancel them or let them finish",
                sourceLocation: sourceLocation)
        }
    }

    private func nextEffectAction(_ sourceLocation: SourceLocation) async -> (any Action)? {
        var yields = 0
        while true {
            if let action = store.takeNextEffectAction() { return action }
            if store.runningEffectCount == 0 {
                Issue.record(
                    "Expected an action from an effect, but no effect is running", sourceLocation: sourceLocation)
                return nil
            }
            if yields >= maximumYields {
                Issue.record(
                    "Expected an action from an effect, but none came after \(maximumYields) yields",
                    sourceLocation: sourceLocation)
                return nil
            }
            await Task.yield()
            yields += 1
        }
    }

    private func check(_ expected: State, after action: String, _ sourceLocation: SourceLocation) {
        let actual = state
        guard actual != expected else { return }
        Issue.record(
            """
            State after \(action) differs from the expected state.
            Expected: \(expected)
              Actual: \(actual)
            """, sourceLocation: sourceLocation)
    }
}
