import Foundation
import ReactiveCore
import Resin
import Synchronization
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// A store for tests that makes them exhaustive: every state change and every action an
/// effect sends must be asserted, and no effect may be left running.
///
/// ```swift
/// @Test func loadsAFact() async {
///     var dependencies = Dependencies(context: .test)
///     dependencies.numberFact = NumberFactClient { number in "\(number) is a good number." }
///     let store = TestStore(initialState: CounterState(), dependencies: dependencies) { counterReducer }
///     store.send(.increment) { $0.count = 1 }
///     store.send(.factButtonTapped) { $0.isLoading = true }
///     await store.receive(\.factResponse) {
///         $0.isLoading = false
///         $0.fact = "1 is a good number."
///     }
///     await store.finish()
/// }
/// ```
///
/// `Sent` is the feature's action type, so that `send(.increment)` and
/// `receive(.factResponse("…"))` name its cases. A test store made from a reducer
/// (`{ counterReducer }`) or with `sending: Counter.self` has it; one set up only with
/// registrations (`{ $0.register(appParcel) }`) is a `TestStore<State, any Action>`, which
/// takes actions of every type spelled out (`send(Counter.increment)`). Either kind sends
/// and receives actions of any type.
///
/// ``send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` dispatches an action and checks that the
/// state changed exactly as the closure says (nothing more, nothing less).
/// `receive(_:_:fileID:filePath:line:column:)` waits for the next action an effect sends,
/// checks it, dispatches it and checks the state. ``finish(fileID:filePath:line:column:)``
/// waits for the effects still running and records an issue for each action nobody
/// received and each effect that does not finish.
///
/// A failure shows only the parts of the state that differ (a `StateDiff` from Resin), and is
/// recorded at the calling line: with Swift Testing's `Issue.record` inside a Swift Testing
/// test, with `XCTFail` inside an XCTest test case.
///
/// Set ``exhaustivity`` to ``Exhaustivity/off`` to assert only what a test cares about
/// (see <doc:TestStoreSemantics>).
///
/// A test store released without everything asserted (a test that forgets `finish()`)
/// records the same failures `finish()` would, at the line that made the test store: actions
/// effects sent that nobody received, effects still running, debounces still waiting.
///
/// Effects' actions are taken only when the test asks, so the test decides the order.
/// Waiting never sleeps: it yields to the effects' tasks until what it waits for comes, or
/// until ``timeout`` has passed on the real clock and it has yielded 10,000 times.
///
/// Effects that sleep on the injected clock (the test store's ``scheduler``) run on virtual
/// time: ``advance(by:fileID:filePath:line:column:)`` lets them reach their sleeps, then moves
/// time.
///
/// Three more things fail a test, at the next call on the test store after they happen: a
/// dependency read with no test value (see `DependencyKey`), and an error an effect threw
/// that no `catch:` handler took.
public final class TestStore<State: Equatable, Sent> {
    /// The store under test.
    public let store: Store<State>
    /// The virtual time the store's debounces and throttles run on: advance it to let them
    /// start their effects.
    public let scheduler: TestScheduler
    /// The deprecated bound of the waits in yields, when the test store was made with one.
    private let maximumYields: Int?
    /// What `setUp` registered; kept for the test store's lifetime.
    private let registrations: Connection
    /// Where the test store was made: where its release reports what was left unasserted.
    private let creation: FailureLocation
    /// The dependencies read with no test value, waiting to be recorded.
    private let unimplemented = UnimplementedDependencies()
    /// The actions that went nowhere (they named an absent child or element), waiting to be
    /// recorded.
    private let wentNowhere = WentNowhere()

    /// How much of what happens a test must assert; ``Exhaustivity/on`` by default.
    public var exhaustivity: Exhaustivity = .on

    /// What non-exhaustive assertions showed as skipped, for tests of the test store.
    package private(set) var shownSkippedAssertions: [String] = []

    /// How long `receive` waits for an effect's action, and ``finish(fileID:filePath:line:column:)``
    /// for running effects, before recording a failure; measured on the real clock.
    ///
    /// A wait ends as soon as what it waits for has come, so a passing test never waits this
    /// long; the timeout only bounds a test that would fail. Effects run on other threads,
    /// which a loaded machine (a CI runner, a parallel test run) may keep from running for a
    /// while: the default, 5 seconds, leaves them room. A wait also yields at least 10,000
    /// times before it gives up, for effects isolated to the test's own actor, which other
    /// work may hold for longer than the timeout. Lower the timeout in a test that expects a
    /// wait to fail.
    public var timeout: Duration

    /// The initializers' common work: the store, the clock, the bounds and the registrations.
    fileprivate init(
        initialState: State, scheduler: TestScheduler, dependencies: Dependencies, timeout: Duration,
        maximumYields: Int?, creation: FailureLocation, setUp: (Store<State>) -> Connection,
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        self.creation = creation
        var dependencies = dependencies
        changeDependencies(&dependencies)
        if !dependencies.isSet(ClockKey.self) { dependencies.clock = scheduler }
        let unimplemented = unimplemented
        dependencies.unimplementedReporter = { unimplemented.add($0) }
        store = Store(takingEffectsManually: initialState, scheduler: scheduler, dependencies: dependencies)
        self.scheduler = scheduler
        self.timeout = timeout
        self.maximumYields = maximumYields
        let wentNowhere = wentNowhere
        store.setActionWentNowhereHandler { action, reason in wentNowhere.append("\(action) went nowhere: \(reason)") }
        registrations = setUp(store)
    }

    /// Records what a test left unasserted, as `finish()` would, without waiting.
    deinit {
        recordReported(at: creation)
        guard exhaustivity == .on else { return }
        store.takeFinishedEffects()
        recordUnasserted(at: creation, when: "when the test store was released")
    }

    /// Records, at `location`, every dependency read with no test value and every error
    /// effects threw that no handler took, since the last call.
    private func recordReported(at location: FailureLocation) {
        for key in unimplemented.takeNew() {
            location.record(Dependencies.unimplementedMessage(key))
        }
        for message in wentNowhere.take() {
            location.record(message + "; it changed nothing")
        }
        for action in store.takeActionsSentAfterCompletion() {
            location.record(
                "An effect sent \(action) after it completed, and the action was dropped; an effect's operation must await the work that sends (a Task it starts and does not await outlives it)"
            )
        }
        for error in store.takeUnhandledEffectErrors() {
            location.record(
                "An effect threw \(error), and no catch: handler took it; pass catch: to .run, or handle the error in the operation"
            )
        }
    }

    /// Records every action effects sent that nobody received, and every effect and pacer
    /// still under way, at `location`; `moment` says when ("at the end of the test").
    private func recordUnasserted(at location: FailureLocation, when moment: String) {
        for action in store.takeWaitingEffectActions() {
            location.record("An effect sent \(action), which the test did not receive \(moment)")
        }
        if store.runningEffectCount > 0 {
            let running = store.runningEffectDescriptions.map { "\n  - \($0)" }.joined()
            location.record(
                "\(store.runningEffectCount) effect(s) still running \(moment); end the test with `await store.finish()`, or cancel them:\(running)"
            )
        }
        if store.pacingEffectCount > 0 {
            location.record(
                "\(store.pacingEffectCount) debounce(s) or throttle(s) still under way \(moment); advance the scheduler past them or cancel them"
            )
        }
    }

    /// The store's current state; inside an assertion's closure, the state before the action.
    public var state: State { shownState ?? store.stateForTesting }

    /// The state `state` shows while an assertion's closure runs: the state before the action,
    /// which the closure changes into the expected state.
    private var shownState: State?

    /// Dispatches `action` and checks the state after it.
    ///
    /// Exhaustive (``Exhaustivity/on``): `update` changes the state before the action into
    /// the expected state after it, and the state after must equal it; pass no `update`
    /// when the action must not change the state. Every action an effect sent must have been
    /// received first.
    ///
    /// Non-exhaustive (``Exhaustivity/off``): `update` is applied to the state after the
    /// action and must change nothing, so it asserts only what it sets (write absolute
    /// values: `$0.count = 2`, not `$0.count += 1`). Actions effects sent and the test did
    /// not receive are dispatched first, in order.
    @discardableResult
    public func send(
        _ action: some Action, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestStoreTask {
        send(erased: action, update, FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    fileprivate func send(
        erased action: any Action, _ update: ((inout State) -> Void)?, _ location: FailureLocation
    ) -> TestStoreTask {
        // An effect that ended lets its concatenation go on before the action, as in an app.
        store.takeFinishedEffects()
        if store.hasWaitingEffectActions {
            switch exhaustivity {
            case .on:
                location.record("Received actions from effects must be asserted with receive before sending \(action)")
            case .off:
                for skipped in store.takeWaitingEffectActions() {
                    showSkipped("An effect sent \(skipped), which the test did not receive", location)
                    store.dispatch(skipped)
                }
            }
        }
        let before = state
        let task = store.dispatch(action)
        check(before: before, update, after: "\(action)", location)
        recordReported(at: location)
        return TestStoreTask(task: task, timeout: timeout, maximumYields: maximumYields)
    }

    /// Waits for the next action an effect sends, checks that it equals `expected`,
    /// dispatches it and checks the state as ``send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` does.
    ///
    /// Non-exhaustive, actions before the expected one are dispatched and skipped.
    public nonisolated(nonsending) func receive<Expected: Action & Equatable>(
        _ expected: Expected, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            describing: "\(expected)", expecting: expected, matching: { ($0 as? Expected) == expected }, update,
            location)
    }

    /// Waits for the next action an effect sends, checks that it has type `type`,
    /// dispatches it and checks the state as ``send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` does.
    ///
    /// Non-exhaustive, actions before one of that type are dispatched and skipped.
    public nonisolated(nonsending) func receive<Expected: Action>(
        _ type: Expected.Type, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(describing: "a \(Expected.self)", matching: { $0 is Expected }, update, location)
    }

    /// Waits for the effects still running. Exhaustive, it records an issue for every
    /// action they send that nobody received and for every effect still running at the end.
    /// Non-exhaustive, it dispatches the actions nobody received and cancels nothing: effects
    /// still running are left to the store.
    public nonisolated(nonsending) func finish(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        // Cancelled effects count until their tasks end: a test of cancellation must not pass
        // while the cancelled work still runs.
        _ = await waitFor {
            store.takeFinishedEffects()
            return store.runningEffectCount == 0 && store.endingEffectCount == 0
        }
        store.takeFinishedEffects()
        recordReported(at: location)
        guard exhaustivity == .on else {
            for action in store.takeWaitingEffectActions() {
                showSkipped("An effect sent \(action), which the test did not receive", location)
                store.dispatch(action)
            }
            if store.runningEffectCount > 0 {
                let running = store.runningEffectDescriptions.map { "\n  - \($0)" }.joined()
                showSkipped(
                    "\(store.runningEffectCount) effect(s) still running at the end of the test:\(running)", location)
            }
            return
        }
        recordUnasserted(at: location, when: "at the end of the test")
        if store.endingEffectCount > 0 {
            let ending = store.endingEffectDescriptions.map { "\n  - \($0)" }.joined()
            location.record(
                "\(store.endingEffectCount) cancelled effect(s) did not end within \(timeout); an effect must return when its task is cancelled:\(ending)"
            )
        }
        // What was reported here is not reported again when the test store is released.
        store.cancelEveryEffectForTesting()
    }

    /// Waits for the next action an effect sends, checks that `matches` accepts it,
    /// dispatches it and checks the state as ``send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` does.
    ///
    /// ```swift
    /// await store.receive(where: { ($0 as? Loaded)?.items.count == 3 }) { $0.isLoading = false }
    /// ```
    ///
    /// Non-exhaustive, actions before one it accepts are dispatched and skipped.
    public nonisolated(nonsending) func receive(
        where matches: (any Action) -> Bool, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(describing: "an action the predicate accepts", matching: matches, update, location)
    }

    /// Dispatches the actions effects have sent and the test has not received, without
    /// asserting what they change: for a test that does not care about them. With `strict`,
    /// finding none is a failure.
    ///
    /// It first yields, so that effects that are about to send get to; an action an effect
    /// sends later still has to be received or skipped.
    public nonisolated(nonsending) func skipReceivedActions(
        strict: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        for _ in 0..<100 { await Task.yield() }
        store.takeFinishedEffects()
        let skipped = store.takeWaitingEffectActions()
        if strict && skipped.isEmpty { location.record("There were no received actions to skip") }
        for action in skipped { store.dispatch(action) }
        recordReported(at: location)
    }

    /// Cancels the effects still running (and the concatenations, debounces and throttles
    /// under way), so that the test can end without waiting for them. With `strict`, finding
    /// none is a failure. Actions they already sent must still be received or skipped.
    public nonisolated(nonsending) func skipInFlightEffects(
        strict: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        store.takeFinishedEffects()
        let cancelled = store.cancelEveryEffectForTesting()
        if strict && cancelled == 0 { location.record("There were no in-flight effects to skip") }
        recordReported(at: location)
    }

    /// Checks the state without an action: `update` sets the parts of the state to check, with
    /// absolute values (`$0.count = 2`), and the state must then be unchanged by it.
    ///
    /// ```swift
    /// store.assert { $0.count = 2 }
    /// ```
    public func assert(
        _ update: (inout State) -> Void,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        withoutActuallyEscaping(update) { update in
            check(before: state, update, after: "the assertion", expectsChange: false, location)
        }
        recordReported(at: location)
    }

    /// Runs `body` with ``exhaustivity`` set to `exhaustivity`, then puts it back.
    public nonisolated(nonsending) func withExhaustivity(_ exhaustivity: Exhaustivity, _ body: () async -> Void) async {
        let saved = self.exhaustivity
        self.exhaustivity = exhaustivity
        await body()
        self.exhaustivity = saved
    }

    fileprivate nonisolated(nonsending) func receive(
        describing expected: String, expecting value: (any Action)? = nil, matching matches: (any Action) -> Bool,
        _ update: ((inout State) -> Void)?, _ location: FailureLocation
    ) async {
        defer { recordReported(at: location) }
        while true {
            guard let action = await nextEffectAction(location) else { return }
            if matches(action) {
                let before = state
                store.dispatch(action)
                check(before: before, update, after: "\(action)", location)
                return
            }
            switch exhaustivity {
            case .on:
                location.record("Expected to receive \(expected), received \(action)" + actionDiff(value, action))
                return
            case .off:
                showSkipped("Skipped receiving \(action) before \(expected)", location)
                store.dispatch(action)
            }
        }
    }

    /// Lets the effects that are running reach their sleeps on ``scheduler``, then moves its
    /// time forward by `duration`, letting the effects it wakes run between steps (see
    /// `TestScheduler.advanceTasks(by:maximumYields:)`).
    ///
    /// ```swift
    /// let store = TestStore(initialState: 0) { stopwatchReducer }
    /// store.send(.start)
    /// await store.advance(by: .seconds(1))
    /// await store.receive(.tick) { $0 = 1 }
    /// ```
    ///
    /// Time moves from one scheduled instant to the next. Before each step, and at the end,
    /// the test store waits until as many tasks sleep on the scheduler as effects run: each
    /// effect has reached its sleep, or finished. An effect that finishes is noticed then, so
    /// what starts after it (the next part of a concatenation, the effect a debounce lets
    /// out) runs and reaches its own sleep within the same `advance`: a chain of timers
    /// needs no poking from the test. An effect that waits on something else (a stream the
    /// test feeds, a continuation) never sleeps: the first wait then ends after ``timeout``,
    /// later ones after a few yields, and time moves anyway.
    ///
    /// - Precondition: `duration` is not negative.
    public nonisolated(nonsending) func advance(
        by duration: Duration = .zero,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        precondition(duration >= .zero, "TestStore.advance(by:) cannot move time backwards (by \(duration))")
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let deadline = scheduler.now + duration
        var patient = await settle(patiently: true)
        // Bounded, so that work that schedules itself at the same instant forever ends the wait.
        var steps = 0
        while let next = scheduler.nextInstant, next <= deadline, steps < 100_000 {
            await scheduler.advanceTasks(by: next - scheduler.now, maximumYields: 100, awaitingSleeps: nil)
            patient = await settle(patiently: patient)
            steps += 1
        }
        scheduler.advance(to: deadline)
        recordReported(at: location)
    }

    /// Forgets the effects that finished, which starts what their concatenations have next,
    /// until every effect still running sleeps on ``scheduler``. Waits up to ``timeout``
    /// `patiently`, else for a few yields (an effect that waits on something else already
    /// made one wait give up); returns whether the wait may be patient next time.
    private nonisolated(nonsending) func settle(patiently patient: Bool) async -> Bool {
        let settled = {
            self.store.takeFinishedEffects()
            let running = self.store.runningEffectCount
            return running == 0 || self.scheduler.sleepingCount >= running
        }
        guard patient else {
            var wait = WaitBound(yields: 100, duration: .zero)
            while !settled() {
                if !wait.allowsYield() { return false }
                await Task.yield()
            }
            return false
        }
        return await waitFor(settled)
    }

    private nonisolated(nonsending) func nextEffectAction(_ location: FailureLocation) async -> (any Action)? {
        var action: (any Action)?
        let came = await waitFor {
            action = store.takeNextEffectAction()
            return action != nil || store.runningEffectCount == 0
        }
        if let action { return action }
        if came {
            location.record("Expected an action from an effect, but no effect is running")
        } else {
            let bound = maximumYields.map { "after \($0) yields" } ?? "within \(timeout)"
            location.record("Expected an action from an effect, but none came \(bound)")
        }
        return nil
    }

    /// Waits until `condition` holds, suspended until an effect posts or a sleep on the
    /// scheduler begins or ends: up to ``timeout`` and 10,000 yields after it, or the
    /// deprecated bound in yields; returns whether it holds.
    private nonisolated(nonsending) func waitFor(_ condition: () -> Bool) async -> Bool {
        await waitForTestStore(store.effectActivity, timeout: timeout, maximumYields: maximumYields, condition)
    }

    private func check(
        before: State, _ update: ((inout State) -> Void)?, after action: String, expectsChange: Bool = true,
        _ location: FailureLocation
    ) {
        let actual = state
        var expected: State
        // The closure sees the state before the action as `state`, as it would have before
        // the action was sent.
        shownState = before
        defer { shownState = nil }
        switch exhaustivity {
        case .on:
            expected = before
            update?(&expected)
            if expectsChange, update != nil, expected == actual, actual == before {
                location.record(
                    "Expected the state to change after \(action), but no change occurred; if no change is expected, pass no closure"
                )
                return
            }
        case .off:
            expected = actual
            update?(&expected)
            if actual == expected, showsSkippedAssertions {
                var exhaustive = before
                update?(&exhaustive)
                if exhaustive != actual {
                    showSkipped(
                        """
                        State after \(action) changed in parts the test left unchecked (asserted → actual):
                        \(StateDiff(from: exhaustive, to: actual).description)
                        """, location)
                }
            }
        }
        guard actual != expected else { return }
        let diff = StateDiff(from: expected, to: actual)
        location.record(
            """
            State after \(action) differs from the expected state (expected → actual):
            \(diff.isEmpty ? "  (the states are not equal, but no part of them differs)" : diff.description)
            """)
    }

    /// The parts in which `received` differs from `expected`, one per line (expected →
    /// received), when the two are of one type and differ below the root; else nothing.
    private func actionDiff(_ expected: (any Action)?, _ received: any Action) -> String {
        guard let expected, type(of: expected) == type(of: received) else { return "" }
        let diff = StateDiff(from: expected, to: received)
        // A difference at the root (another enum case) says no more than the two names do.
        guard !diff.isEmpty, !diff.changes.contains(where: \.path.isEmpty) else { return "" }
        return " (expected → received):\n\(diff.description)"
    }

    /// Whether non-exhaustive assertions show what they skip.
    private var showsSkippedAssertions: Bool {
        if case .off(showSkippedAssertions: true) = exhaustivity { return true }
        return false
    }

    /// Shows `message` as a known issue at `location` when ``exhaustivity`` asks to show what
    /// is skipped.
    private func showSkipped(_ message: String, _ location: FailureLocation) {
        guard showsSkippedAssertions else { return }
        shownSkippedAssertions.append(message)
        location.recordKnown("Skipped assertion: " + message)
    }
}

extension TestStore where Sent == any Action {
    /// A test store holding `initialState`, set up (reducers, middleware, parcels) by
    /// `setUp`, which returns the connection of what it registered; the test store keeps it.
    ///
    /// ```swift
    /// let store = TestStore(initialState: AppState()) { $0.register(appParcel) }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The state the store starts with.
    ///   - scheduler: The virtual time of the store's debounces and throttles, and the
    ///     effects' `Dependencies.clock`.
    ///   - dependencies: The dependencies of the effects: by default every key's test value,
    ///     and `scheduler` as the clock (unless these set a clock of their own).
    ///   - timeout: How long waits last on the real clock before they record a failure
    ///     (see ``timeout``).
    ///   - fileID: Where the test store is made, for failures recorded when it is released.
    ///   - filePath: Where the test store is made, for failures recorded when it is released.
    ///   - line: Where the test store is made, for failures recorded when it is released.
    ///   - column: Where the test store is made, for failures recorded when it is released.
    ///   - setUp: Registers the reducers, middleware and parcels under test.
    ///   - changeDependencies: Changes `dependencies` before the store is made, TCA's
    ///     `withDependencies:` (`withDependencies: { $0.numberFact.fetch = { "\($0) is good." } }`).
    public convenience init(
        initialState: State, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        setUp: (Store<State>) -> Connection = { _ in Connection() },
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, timeout: timeout,
            maximumYields: nil,
            creation: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column), setUp: setUp,
            withDependencies: changeDependencies)
    }

    /// A test store whose waits are bounded by a number of yields rather than by time.
    ///
    /// How many yields give effects on other threads time to run depends on the machine and
    /// on what else it runs, so a bound in yields makes tests fail on loaded machines; use
    /// the initializer that takes a `timeout:` (see ``timeout``).
    @available(*, deprecated, message: "waits bounded in yields fail on loaded machines: use timeout:")
    public convenience init(
        initialState: State, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), maximumYields: Int,
        setUp: (Store<State>) -> Connection = { _ in Connection() }
    ) {
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, timeout: .seconds(5),
            maximumYields: maximumYields,
            creation: FailureLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
            setUp: setUp)
    }

    /// A test store set up by `setUp`, which returns the connections of several
    /// registrations; the test store keeps them.
    ///
    /// ```swift
    /// let store = TestStore(initialState: AppState()) { [$0.register(counter), $0.register(logger)] }
    /// ```
    public convenience init(
        initialState: State, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        setUp: (Store<State>) -> [Connection],
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, timeout: timeout,
            fileID: fileID, filePath: filePath, line: line, column: column,
            setUp: { store in Connection(grouping: setUp(store)) }, withDependencies: changeDependencies)
    }

    /// A test store set up by `setUp`, which returns the connections of several
    /// registrations, whose waits are bounded by a number of yields rather than by time.
    @available(*, deprecated, message: "waits bounded in yields fail on loaded machines: use timeout:")
    public convenience init(
        initialState: State, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), maximumYields: Int,
        setUp: (Store<State>) -> [Connection]
    ) {
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, maximumYields: maximumYields
        ) { store in
            Connection(grouping: setUp(store))
        }
    }

}

extension TestStore where Sent: Action {
    /// A test store of the feature `reducer` makes, holding `initialState`: ``send(_:_:fileID:filePath:line:column:)-(Sent,_,_,_,_,_)``
    /// and `receive` name `Sent`'s cases with leading dots.
    ///
    /// ```swift
    /// let store = TestStore(initialState: CounterState()) { counterReducer }
    /// store.send(.increment) { $0.count = 1 }
    /// ```
    ///
    /// The parameters are those of the set-up initializers; the reducer is registered on the
    /// root store for the test store's lifetime. `withDependencies:` changes the dependencies
    /// before the store is made, as TCA's does:
    ///
    /// ```swift
    /// let store = TestStore(initialState: CounterState()) {
    ///     counterReducer
    /// } withDependencies: {
    ///     $0.numberFact = NumberFactClient { "\($0) is a good number." }
    /// }
    /// ```
    public convenience init(
        initialState: State, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        reducer: () -> Reducer<State, Sent>,
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        let reducer = reducer()
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, timeout: timeout,
            maximumYields: nil,
            creation: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            setUp: { $0.register(reducer) }, withDependencies: changeDependencies)
    }

    /// A test store whose actions are typed `Sent` (so that `send(.increment)` names a case
    /// of it), set up by `setUp` with the parcels and registrations under test.
    ///
    /// ```swift
    /// let store = TestStore(initialState: AppState(), sending: Counter.self) { $0.register(appParcel) }
    /// store.send(.increment) { $0.counter.count = 1 }
    /// ```
    public convenience init(
        initialState: State, sending: Sent.Type, scheduler: TestScheduler = TestScheduler(),
        dependencies: Dependencies = Dependencies(context: .test), timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        setUp: (Store<State>) -> Connection,
        withDependencies changeDependencies: (inout Dependencies) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState, scheduler: scheduler, dependencies: dependencies, timeout: timeout,
            maximumYields: nil,
            creation: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column), setUp: setUp,
            withDependencies: changeDependencies)
    }

    /// Dispatches `action`, a case of the feature's action type, and checks the state after
    /// it; see ``send(_:_:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``.
    @discardableResult
    public func send(
        _ action: Sent, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestStoreTask {
        send(erased: action, update, FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits for the next action an effect sends and checks that it is the case of `Sent`
    /// that `casePath` reads (whatever its payload), then dispatches it and checks the state.
    ///
    /// ```swift
    /// await store.receive(\.factResponse) { $0.fact = "1 is a good number." }
    /// ```
    ///
    /// `casePath` is a property of the action enum that gives a case's payload, or `nil` in
    /// every other case, as an enum declares it to be matched this way:
    ///
    /// ```swift
    /// extension Counter {
    ///     var factResponse: String? {
    ///         if case .factResponse(let fact) = self { fact } else { nil }
    ///     }
    /// }
    /// ```
    ///
    /// Non-exhaustive, actions before a matching one are dispatched and skipped.
    public nonisolated(nonsending) func receive<Payload>(
        _ casePath: KeyPath<Sent, Payload?>, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            describing: "an action with \(casePath)",
            matching: { ($0 as? Sent).map { $0[keyPath: casePath] != nil } ?? false }, update, location)
    }

    /// Waits for the next action an effect sends and checks that it is the case of `Sent`
    /// that `casePath` reads, carrying `payload`; then dispatches it and checks the state.
    ///
    /// ```swift
    /// await store.receive(\.factResponse, "1 is a good number.") { $0.fact = "1 is a good number." }
    /// ```
    public nonisolated(nonsending) func receive<Payload: Equatable>(
        _ casePath: KeyPath<Sent, Payload?>, _ payload: Payload, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            describing: "an action with \(casePath) == \(payload)",
            matching: { ($0 as? Sent).map { $0[keyPath: casePath] == payload } ?? false }, update, location)
    }
}

extension TestStore where Sent: Action & Equatable {
    /// Waits for the next action an effect sends and checks that it equals `expected`, a
    /// case of the feature's action type; see ``receive(_:_:fileID:filePath:line:column:)-(Expected,_,_,_,_,_)``.
    public nonisolated(nonsending) func receive(
        _ expected: Sent, _ update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            describing: "\(expected)", expecting: expected, matching: { ($0 as? Sent) == expected }, update,
            location)
    }
}

/// What went nowhere since a test store last recorded, in the store's domain.
private final class WentNowhere {
    private var messages: [String] = []

    func append(_ message: String) { messages.append(message) }

    func take() -> [String] {
        defer { messages.removeAll() }
        return messages
    }
}

/// The dependencies a test store's effects read with no test value; each is recorded once.
private final class UnimplementedDependencies: Sendable {
    private struct State {
        var reported: Set<String> = []
        var waiting: [String] = []
    }

    private let state = Mutex(State())

    func add(_ key: String) {
        state.withLock { state in
            if state.reported.insert(key).inserted { state.waiting.append(key) }
        }
    }

    /// The keys read since the last call, each once per test store.
    func takeNew() -> [String] {
        state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
    }
}

/// How much of what happens a ``TestStore`` test must assert.
public enum Exhaustivity: Equatable, Sendable {
    /// Every state change, every action effects send, and every effect's end must be
    /// asserted: a test states everything the feature does.
    case on
    /// Only what the test asserts is checked: `send` and `receive` check the parts of the
    /// state their closures set, actions effects send may be skipped, and effects may still
    /// run at the end. For integration tests that care about an outcome, not every step.
    ///
    /// With `showSkippedAssertions`, what an exhaustive test would have had to assert is
    /// shown as a known issue (it does not fail the test): the state changes not asserted,
    /// the actions skipped, the effects left running. Turn it on to see what a
    /// non-exhaustive test leaves out.
    case off(showSkippedAssertions: Bool)

    /// Non-exhaustive, showing nothing of what it skips: ``off(showSkippedAssertions:)`` with
    /// `false`.
    public static let off = Exhaustivity.off(showSkippedAssertions: false)
}

/// Where an assertion was made, and how to report a failure there in the test framework
/// that runs it.
struct FailureLocation {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Shows `message` as a known issue, which does not fail the test: inside a Swift Testing
    /// test, an issue in `withKnownIssue`; elsewhere, a line on standard error.
    func recordKnown(_ message: String) {
        guard Test.current != nil else {
            FileHandle.standardError.write(Data("ResinTesting: \(fileID):\(line): \(message)\n".utf8))
            return
        }
        withKnownIssue {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
        }
    }

    /// Records `message` as a failure: an issue in a Swift Testing test, `XCTFail` in an
    /// XCTest test run, and outside both, a line on standard error and a failing exit status
    /// (see ``UnattributedFailures``), so that a failure is never silent.
    func record(_ message: String) {
        if Test.current == nil {
            #if canImport(XCTest)
                if UnattributedFailures.isXCTestRun {
                    XCTFail(message, file: filePath, line: line)
                    return
                }
            #endif
            UnattributedFailures.report("\(fileID):\(line): \(message)")
            return
        }
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
    }
}

/// Failures recorded where no test framework can take them: a test store used from a plain
/// program, or released after its test ended.
///
/// Each is written to standard error at once; when the process exits, it exits with a
/// failing status, so that a script or CI step that runs it fails too.
enum UnattributedFailures {
    private static let count = Atomic<Int>(0)

    /// Whether the process is an XCTest run (`swift test`'s runner, or `xctest`), where
    /// `XCTFail` reports failures.
    static let isXCTestRun: Bool = {
        let name = ProcessInfo.processInfo.processName
        let environment = ProcessInfo.processInfo.environment
        return name.hasSuffix(".xctest") || name == "xctest" || environment["XCTestConfigurationFilePath"] != nil
            || environment["XCTestBundlePath"] != nil
    }()

    /// The number of failures reported so far.
    static var reported: Int { count.load(ordering: .relaxed) }

    /// Writes `message` to standard error, and makes the process exit with a failing status.
    static func report(_ message: String) {
        FileHandle.standardError.write(Data("ResinTesting failure: \(message)\n".utf8))
        if count.wrappingAdd(1, ordering: .relaxed).oldValue == 0 {
            // Registered once, with the first failure; runs when the process exits normally.
            atexit {
                fflush(nil)
                _exit(EXIT_FAILURE)
            }
        }
    }
}
