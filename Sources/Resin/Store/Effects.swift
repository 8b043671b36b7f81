import Synchronization

/// Work a reducer or a middleware asks the store to do after an action: asynchronous
/// operations that send actions back, actions to dispatch next, cancellations, and timing.
///
/// ```swift
/// enum Search: Action { case queryChanged(String), resultsLoaded([String]) }
///
/// let search = Reducer<SearchState, Search> { state, action in
///     switch action {
///     case .queryChanged(let query):
///         state.query = query
///         return .run { send in
///             send(.resultsLoaded(try await backend.search(query)))
///         } catch: { _, send in
///             send(.resultsLoaded([]))
///         }
///         .debounce(id: "search", for: .milliseconds(300))
///     case .resultsLoaded(let results):
///         state.results = results
///         return .none
///     }
/// }
/// ```
///
/// `Sent` is the action type the effect's ``Send`` and ``send(_:)-(Sent)`` take with
/// leading-dot syntax: a reducer of `Reducer<State, Search>` returns an `Effect<Search>`, so
/// `send(.resultsLoaded(…))` names a case of `Search`. Actions of any other type can be sent
/// too (`send(Loaded())`), and are routed by their own type, as every dispatched action is.
/// `Effect<any Action>` is the effect that names no type, for middleware and helpers shared
/// by several features; ``init(_:)`` gives an effect of one type as another.
///
/// The effects of an action start once the action has been processed: after its reducers
/// ran and its state propagated, in the order they were returned, before the next queued
/// action. What they send is dispatched into the store in its own isolation domain, first
/// in first out. An effect is `Sendable` because its operation runs in a task.
public struct Effect<Sent>: Sendable {
    let steps: [EffectStep]

    init(steps: [EffectStep]) {
        self.steps = steps
    }

    /// The same work as `other`, typed as sending `Sent`; what its operations send is
    /// unchanged (the type only decides what leading-dot syntax names).
    public init<Other>(_ other: Effect<Other>) {
        steps = other.steps
    }

    /// No work.
    public static var none: Effect { Effect(steps: []) }

    /// Runs `operation` in a task; what it sends through ``Send`` is dispatched into the
    /// store, in the order sent.
    ///
    /// With an `id`, the effect replaces any effect still running under that id (which is
    /// cancelled), and ``cancel(id:)`` cancels it.
    ///
    /// An error `operation` throws goes to `handler`, which may send actions through the
    /// same ``Send``. Without a handler, it goes to the store's
    /// ``Store/unhandledErrorHandler`` (a test store records it as a failure). An error
    /// thrown after the effect was cancelled, and a `CancellationError`, go nowhere: they
    /// are how a cancelled operation ends.
    public static func run(
        id: (any Hashable & Sendable)? = nil, operation: @escaping @Sendable (Send<Sent>) async throws -> Void,
        catch handler: (@Sendable (any Error, Send<Sent>) async -> Void)? = nil
    ) -> Effect {
        let ids = id.map { [EffectID($0)] } ?? []
        let run = EffectStep.run(
            ids: ids,
            operation: { send in
                let typed = Send<Sent>(inbox: send.inbox, handle: send.handle)
                do {
                    try await operation(typed)
                } catch {
                    guard !(error is CancellationError), !typed.isCancelled, !Task.isCancelled else { return }
                    if let handler {
                        await handler(error, typed)
                    } else {
                        send.inbox.post(.failed(error, send.handle))
                    }
                }
            })
        return Effect(steps: ids.map(EffectStep.cancelRunning) + [run])
    }

    /// Dispatches `action` after the current one, in order with the actions effects send.
    public static func send(_ action: Sent) -> Effect where Sent: Action {
        Effect(steps: [.send(action)])
    }

    /// Dispatches `action`, of any action type, after the current one, in order with the
    /// actions effects send.
    public static func send(_ action: some Action) -> Effect {
        Effect(steps: [.send(action)])
    }

    /// Cancels every effect running under `id` (a concatenation made cancellable under it
    /// included, with the effects it has not started yet), and any debounce or throttle
    /// waiting under it: their tasks are cancelled and whatever they send afterwards is dropped.
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(steps: [.cancel(EffectID(id))])
    }

    /// Cancels every effect running under any of `ids`, as ``cancel(id:)`` does for each.
    public static func cancel(ids: [any Hashable & Sendable]) -> Effect {
        Effect(steps: ids.map { .cancel(EffectID($0)) })
    }

    /// These effects one after another: each starts when everything the one before it ran
    /// has finished or was cancelled. An effect that runs nothing (only sends or cancels)
    /// takes no time; a debounce or throttle counts as done once it has taken its effect.
    ///
    /// ```swift
    /// return .concatenate(
    ///     .run { send in send(.saved(try await save(draft))) },
    ///     .run { send in send(.synced(try await sync())) }
    /// )
    /// ```
    ///
    /// Make the whole sequence cancellable with ``cancellable(id:cancelInFlight:)``:
    /// cancelling its id cancels what runs and drops what has not started. Cancelling one
    /// part under an id of its own ends that part, and the next one starts.
    public static func concatenate(_ effects: Effect...) -> Effect {
        concatenate(effects)
    }

    /// These effects one after another; see ``concatenate(_:)-(Effect<Sent>...)``.
    public static func concatenate(_ effects: [Effect]) -> Effect {
        let groups = effects.map(\.steps).filter { !$0.isEmpty }
        if groups.count <= 1 { return Effect(steps: groups.first ?? []) }
        return Effect(steps: [.concatenate(ids: [], groups: groups)])
    }

    /// This effect and then `other`, once this one has finished.
    public func concatenate(with other: Effect) -> Effect {
        .concatenate(self, other)
    }

    /// This effect, cancellable under `id`: ``cancel(id:)`` cancels it, with every other
    /// effect under `id`. Several effects may run under one id at once.
    ///
    /// With `cancelInFlight`, the effects already running under `id` are cancelled first, so
    /// that only this one runs under it (what `.run(id:)` does); without it, the ones in
    /// flight keep running alongside this one. A debounce or throttle inside keeps its own id;
    /// the effect it starts is cancellable under `id` too.
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        let id = EffectID(id)
        return Effect(steps: (cancelInFlight ? [.cancelRunning(id)] : []) + steps.map { $0.cancellable(under: id) })
    }

    /// These effects, started in this order.
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// These effects, started in this order.
    public static func merge(_ effects: [Effect]) -> Effect {
        Effect(steps: effects.flatMap(\.steps))
    }

    /// This effect and then `other`, started in this order.
    public func merge(with other: Effect) -> Effect {
        Effect(steps: steps + other.steps)
    }

    /// This effect, started only once no effect with the same `id` has been asked for during
    /// `pause` (on the store's scheduler): each new one restarts the wait and replaces the
    /// one waiting; the effect running under `id` is cancelled when a new one is asked for.
    ///
    /// - Precondition: `pause` is not negative.
    public func debounce(id: some Hashable & Sendable, for pause: Duration) -> Effect {
        precondition(pause >= .zero, "Resin: debounce and throttle need a pause of zero or more, got \(pause)")
        let id = EffectID(id)
        return Effect(steps: [
            .cancelRunning(id), .pace(id: id, rule: .debounce, pause: pause, steps: identified(id)),
        ])
    }

    /// This effect, started at once if no effect with the same `id` started during the last
    /// `pause` (on the store's scheduler); otherwise held until the pause ends (the newest
    /// one if `latest`, else the first one asked for during the pause) and the rest dropped,
    /// as swift-async-algorithms' `throttle(for:latest:)` does.
    ///
    /// - Precondition: `pause` is not negative.
    public func throttle(id: some Hashable & Sendable, for pause: Duration, latest: Bool) -> Effect {
        precondition(pause >= .zero, "Resin: debounce and throttle need a pause of zero or more, got \(pause)")
        let id = EffectID(id)
        return Effect(steps: [.pace(id: id, rule: .throttle(latest: latest), pause: pause, steps: identified(id))])
    }

    /// Whether this effect does nothing.
    public var isNone: Bool { steps.isEmpty }

    /// This effect's steps with their runs under `id`, each replacing what runs under it,
    /// unless they name an id of their own.
    private func identified(_ id: EffectID) -> [EffectStep] {
        steps.flatMap { step -> [EffectStep] in
            if case .run(let ids, let operation) = step, ids.isEmpty {
                return [.cancelRunning(id), .run(ids: [id], operation: operation)]
            }
            return [step]
        }
    }
}

/// One thing an effect asks for, whatever action type it is typed by.
enum EffectStep: Sendable {
    /// An operation to run in a task, cancellable under each of `ids`; it sends through an
    /// untyped ``Send`` and reports the errors nobody caught through its inbox.
    case run(ids: [EffectID], operation: @Sendable (Send<any Action>) async -> Void)
    case send(any Action)
    /// Cancels the effects and concatenations running under the id, and the debounce or
    /// throttle waiting under it.
    case cancel(EffectID)
    /// Cancels the effects and concatenations running under the id, not a debounce or
    /// throttle waiting.
    case cancelRunning(EffectID)
    case pace(id: EffectID, rule: PacingRule, pause: Duration, steps: [EffectStep])
    /// Each group of steps started when everything the one before it ran has ended; the
    /// whole sequence is cancellable under each of `ids`.
    case concatenate(ids: [EffectID], groups: [[EffectStep]])
}

extension EffectStep {
    /// Whether the step only cancels.
    var isCancellation: Bool {
        switch self {
        case .cancel, .cancelRunning: true
        case .run, .send, .pace, .concatenate: false
        }
    }

    /// The step with its ids, and those of the steps inside it, in `scope` (see ``EffectID``).
    func scoped(to scope: Int) -> EffectStep {
        switch self {
        case .run(let ids, let operation): .run(ids: ids.map { $0.scoped(to: scope) }, operation: operation)
        case .send: self
        case .cancel(let id): .cancel(id.scoped(to: scope))
        case .cancelRunning(let id): .cancelRunning(id.scoped(to: scope))
        case .pace(let id, let rule, let pause, let steps):
            .pace(id: id.scoped(to: scope), rule: rule, pause: pause, steps: steps.map { $0.scoped(to: scope) })
        case .concatenate(let ids, let groups):
            .concatenate(
                ids: ids.map { $0.scoped(to: scope) }, groups: groups.map { $0.map { $0.scoped(to: scope) } })
        }
    }

    /// The step with what it runs cancellable under `id` as well.
    func cancellable(under id: EffectID) -> EffectStep {
        switch self {
        case .run(let ids, let operation): .run(ids: ids + [id], operation: operation)
        case .pace(let paceID, let rule, let pause, let steps):
            .pace(id: paceID, rule: rule, pause: pause, steps: steps.map { $0.cancellable(under: id) })
        case .concatenate(let ids, let groups):
            .concatenate(ids: ids + [id], groups: groups.map { $0.map { $0.cancellable(under: id) } })
        case .send, .cancel, .cancelRunning: self
        }
    }
}

/// An effect's id, as the store keeps it: any `Hashable & Sendable` value, and the scope it
/// was asked for in.
///
/// The scope is that of the feature instance whose reducer or middleware asked (a stack
/// element, a presented child: see ``Engine/effectScope(of:)``), so that the same value
/// names different effects in two instances; `0` is the store's own scope, outside every
/// presented child. A ``StoreWideID`` keeps scope `0` wherever it is asked for.
///
/// Unchecked `Sendable`: the `AnyHashable` wraps only `Sendable` values (the initializer
/// takes `Hashable & Sendable`).
struct EffectID: Hashable, @unchecked Sendable {
    let value: AnyHashable
    private(set) var scope = 0

    init(_ value: any Hashable & Sendable) {
        self.value = AnyHashable(value)
    }

    /// The id in `scope`; a store-wide id, or one already scoped, stays as it is.
    func scoped(to scope: Int) -> EffectID {
        guard self.scope == 0, !(value.base is any StoreWideEffectID) else { return self }
        var id = self
        id.scope = scope
        return id
    }
}

/// An effect id that names the same effects in every feature instance of a store.
///
/// Ids are scoped to the feature instance that asks for them: an effect a stack element
/// starts under `"timer"` is cancelled by `.cancel(id: "timer")` from that element's
/// reducers, not from a sibling's or the parent's, as TCA scopes cancel ids to a feature's
/// navigation id. Wrap an id in `StoreWideID` to reach across instances:
///
/// ```swift
/// let sync = Effect<Sync>.run(id: StoreWideID("sync")) { send in send(.synced(try await upload())) }
/// // …and from any feature of the store:
/// let stop = Effect<Sync>.cancel(id: StoreWideID("sync"))
/// ```
public struct StoreWideID<ID: Hashable & Sendable>: Hashable, Sendable, StoreWideEffectID {
    /// The id wrapped.
    public let id: ID

    /// The store-wide id `id`.
    public init(_ id: ID) {
        self.id = id
    }
}

/// What ``StoreWideID`` is, whatever it wraps.
protocol StoreWideEffectID {}

/// One running effect's flags, shared by the store and the effect's ``Send``: whether it was
/// cancelled, and whether its operation returned.
final class EffectHandle: Sendable {
    let number: Int
    private let cancelled = Atomic<Bool>(false)
    private let completed = Atomic<Bool>(false)

    init(number: Int) {
        self.number = number
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Whether the effect's operation has returned: what its `send` is given after that
    /// came from a task the effect left behind.
    var isCompleted: Bool { completed.load(ordering: .acquiring) }

    func complete() { completed.store(true, ordering: .releasing) }
}

/// Sends actions from an asynchronous effect back into its store.
///
/// ```swift
/// return .run(id: "search") { send in
///     send(.resultsLoaded(try await search(query)))
/// }
/// ```
///
/// `Sent` is the action type that leading-dot syntax names (the effect's type); an action of
/// any other type can be sent too. `Send` is `Sendable`: call it from any task. The store
/// dispatches what it sends in the store's own isolation domain, in the order sent. After
/// the effect is cancelled, what it sends is dropped. After the effect's operation returned,
/// what it sends (from a task the operation started and did not await) is dropped too, and
/// reported: a test store fails the test, a live store writes a line to standard error.
public struct Send<Sent>: Sendable {
    let inbox: EffectInbox
    let handle: EffectHandle

    /// Sends `action` to the store.
    public func callAsFunction(_ action: Sent) where Sent: Action {
        post(action)
    }

    /// Sends `action`, of any action type, to the store.
    public func callAsFunction(_ action: some Action) {
        post(action)
    }

    private func post(_ action: any Action) {
        guard !handle.isCancelled else { return }
        inbox.post(handle.isCompleted ? .sentAfterCompletion(action) : .action(action, handle))
    }

    /// Whether the effect has been cancelled (its task is cancelled too).
    public var isCancelled: Bool {
        handle.isCancelled
    }
}

/// Where effects leave what they send until the store takes it in its own domain.
final class EffectInbox: Sendable {
    enum Message: Sendable {
        case action(any Action, EffectHandle)
        /// An error the effect's operation threw and no `catch:` handler took.
        case failed(any Error, EffectHandle)
        /// An action sent after its effect's operation returned; reported, never dispatched.
        case sentAfterCompletion(any Action)
        case finished(EffectHandle)
    }

    private struct State: Sendable {
        var messages: [Message] = []
        /// Scheduled deliveries, kept until they run (releasing one would cancel it).
        var deliveries: [Connection] = []
        var wake: (@Sendable () -> Void)?
    }

    private let state = LockedState(State())
    /// Notified after every message posted, for waits on what effects post (a test store's
    /// and a `StoreTask`'s in a test store).
    let activity: ActivitySignal

    init(activity: ActivitySignal) {
        self.activity = activity
    }

    /// Sets what posting a message does to get the store to take it.
    func setWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Adds `message`; wakes the store only if nothing was waiting, since a wake already
    /// scheduled takes every message waiting when it runs.
    func post(_ message: Message) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.messages.append(message)
            return state.messages.count == 1 ? state.wake : nil
        }
        wake?()
        activity.notify()
    }

    func keep(_ delivery: Connection) {
        state.withLock { $0.deliveries.append(delivery) }
    }

    /// Takes every message waiting, in the order posted.
    func take() -> [Message] {
        let (messages, deliveries) = state.withLock { state in
            defer { (state.messages, state.deliveries) = ([], []) }
            return (state.messages, state.deliveries)
        }
        _ = deliveries
        return messages
    }

    /// Takes the first waiting message.
    func popFirst() -> Message? {
        state.withLock { $0.messages.isEmpty ? nil : $0.messages.removeFirst() }
    }

    /// Takes the waiting `finished`, `failed` and `sentAfterCompletion` messages, leaving
    /// actions in order.
    func takeFinishedAndFailed() -> (
        finished: [EffectHandle], failed: [(any Error, EffectHandle)], late: [any Action]
    ) {
        state.withLock { state in
            var finished: [EffectHandle] = []
            var failed: [(any Error, EffectHandle)] = []
            var late: [any Action] = []
            state.messages.removeAll { message in
                switch message {
                case .action: return false
                case .failed(let error, let handle): failed.append((error, handle))
                case .sentAfterCompletion(let action): late.append(action)
                case .finished(let handle): finished.append(handle)
                }
                return true
            }
            return (finished, failed, late)
        }
    }

    /// Whether an action from an effect that was not cancelled waits.
    var hasWaitingActions: Bool {
        state.withLock { state in
            state.messages.contains { message in
                if case .action(_, let handle) = message { return !handle.isCancelled }
                return false
            }
        }
    }
}
