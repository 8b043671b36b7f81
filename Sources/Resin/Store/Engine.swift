/// A registered reducer: the focus it works on and what it does with an action.
struct ReducerEntry {
    let node: FocusNode
    let apply: (any Action) -> [EffectStep]
}

/// A registered middleware: the focus whose state its context reads, and its handler.
struct MiddlewareEntry {
    let node: FocusNode
    let handle: (any Action) -> MiddlewareDecision
}

/// The machinery shared by a root store and every store focused from it: the graph, the
/// action queue, the registries, the focus tree and the running effects.
///
/// Registrations are indexed by action type and by route, so a dispatch touches only the
/// registrations made for its action; each returns a connection that removes it in O(1).
///
/// The state lives here; the operations live beside their concern, and each field is
/// written by one of them only:
/// - `EngineRegistration.swift`: `nextToken`, `reducers`, `middlewareByType`,
///   `everyActionMiddleware`, `afterAction`, `routes`;
/// - `EngineDispatch.swift`: `actions`, `isProcessing`, `stamp`, `dirty`,
///   `lastRefreshCount`, and `pendingEffects` as reducers ask for effects;
/// - `EngineEffects.swift`: `running`, `runningByID`, `pacers`, `pauses`, `nextEffect`,
///   `inbox`, `takesEffectActionsManually`, and `pendingEffects` as they start;
/// - `Invariants.swift` reads them all (R1 to R7).
class Engine {
    let graph = Graph()
    /// Brings effects' actions back into the store's domain and times debounces and
    /// throttles.
    let scheduler: any Scheduler
    /// What effects get as ``Dependencies/current``.
    var dependencies: Dependencies
    /// How many foci have a ``FocusNode/dependencyOverride``; while none has, an effect
    /// starts without looking for one.
    var overridingFoci = 0
    /// The last effect scope given to a presented child or stack element (see ``EffectID``).
    var nextEffectScope = 0

    /// Orders every registration of this engine (and is its token).
    var nextToken = 0
    var reducers: [ObjectIdentifier: RouteTable<ReducerEntry>] = [:]
    /// The names of the action types registered for, for inspection.
    var actionTypeNames: [ObjectIdentifier: String] = [:]
    let everyActionMiddleware = RegistrationList<MiddlewareEntry>()
    var middlewareByType: [ObjectIdentifier: RouteTable<MiddlewareEntry>] = [:]
    /// What runs once an action has been processed, before the next one (logging).
    let afterAction = RegistrationList<(any Action) -> Void>()
    /// Presentation routes by name; the newest registration still connected wins.
    var routes: [String: RegistrationList<RegisteredRoute>] = [:]
    /// Actions dispatched while one is being processed wait here, in order.
    /// Actions waiting to be processed, with the task of each that someone may await.
    let actions = SerialQueue<(action: any Action, task: StoreTask?, followUp: Bool)>()
    /// Whether the action being processed was dispatched while another one was (by its
    /// middleware, reducers' observers or a focus's refresh): a history does not replay it.
    var processingFollowUp = false
    /// Whether the after-action hooks run: what they dispatch is a follow-up too.
    var isRunningAfterHooks = false
    /// While true (a replay), effects do not start: only their cancellations apply.
    var isReplaying = false
    var unhandledActionHandler: (any Action) -> Void = { _ in }
    /// What happens to an action that names something absent (see ``reportWentNowhere(_:_:)``):
    /// a warning once per action type in a debug build, nothing in release; a test store's
    /// records a failure.
    var actionWentNowhereHandler: (any Action, String) -> Void = Engine.warnOnceWentNowhere
    /// How many reducers the action being reduced skipped because their state was absent.
    var absentSkips = 0
    /// The action types a reducer was ever registered for inside a presented child or a stack
    /// element.
    var presentedActionTypes: Set<ObjectIdentifier> = []
    var unhandledErrorHandler: (any Error) -> Void = Engine.reportUnhandledError

    // Focus bookkeeping: nodes whose state a reducer changed in the current action.
    var stamp = 0
    var dirty: [FocusNode] = []
    /// How many foci the last action refreshed; for tests of the cost.
    var lastRefreshCount = 0

    // Effects.
    let inbox: EffectInbox
    struct RunningEffect {
        let ids: [EffectID]
        let handle: EffectHandle
        let task: Task<Void, Never>
        /// Not retained (and not weak, which would slow every retain of the node): a focus
        /// cancels its running effects in its `deinit`, which removes them from `running`.
        unowned(unsafe) let owner: FocusNode?
        /// The concatenation whose current group started it, if any.
        let sequence: Int?
        /// The task of the action that started it (directly or through a concatenation).
        let cause: StoreTask?
    }
    var running: [Int: RunningEffect] = [:]
    /// Effects cancelled whose tasks have not ended yet, by number, with what started them:
    /// a test store's `finish()` waits for them.
    var ending: [Int: String] = [:]
    /// The running effects and concatenations under each id.
    var runningByID: [EffectID: Set<Int>] = [:]
    var sequencesByID: [EffectID: Set<Int>] = [:]
    /// What a concatenation waits for before it starts its next group.
    enum SequenceMember: Hashable {
        case run(Int)
        case sequence(Int)
    }
    struct RunningSequence {
        let ids: [EffectID]
        /// The groups not started yet.
        var groups: ArraySlice<[EffectStep]>
        /// What the current group started and is still running.
        var members: Set<SequenceMember> = []
        /// Not retained: a focus cancels its concatenations with its effects, in its `deinit`.
        unowned(unsafe) let owner: FocusNode?
        let ownerID: ObjectIdentifier?
        /// The concatenation whose current group started this one, if any.
        let parent: Int?
        /// The task of the action that started it.
        let cause: StoreTask?
    }
    var sequences: [Int: RunningSequence] = [:]
    var nextSequence = 0
    var pacers: [EffectID: Pacer<PacedEffect>] = [:]
    /// The pause each pacer was made with: a request with another rule or pause replaces it.
    var pauses: [EffectID: Duration] = [:]
    var nextEffect = 0
    /// Errors effects threw that no handler took, kept for a test store to take.
    var unhandledErrors: [any Error] = []
    /// Actions sent from effects that had completed, kept for a test store to take.
    var sentAfterCompletion: [any Action] = []
    /// Effects asked for while an action is processed; they start once it has been.
    var pendingEffects: [(steps: [EffectStep], owner: FocusNode)] = []
    var isProcessing = false
    /// Whether what effects send waits until a test store takes it (until
    /// ``deliverEffectsAutomatically()``).
    var takesEffectActionsManually = true

    #if RESIN_INTERNAL_CHECKS
        /// Calls to `checkInvariants` since the last check (see Invariants.swift).
        var _checksSkipped = 0
    #endif

    init(scheduler: any Scheduler, dependencies: Dependencies) {
        self.scheduler = scheduler
        self.dependencies = dependencies
        // On a test scheduler, one signal tells a test store's waits of both its effects'
        // messages and its sleeps.
        inbox = EffectInbox(activity: (scheduler as? TestScheduler)?.activity ?? ActivitySignal())
    }

    /// The number of effects started and not yet finished or cancelled.
    var runningEffectCount: Int { running.count }

    /// One line per running effect, oldest first: the action that started it (directly or
    /// through a concatenation), and its ids.
    var runningEffectDescriptions: [String] {
        running.sorted { $0.key < $1.key }.map { _, effect in describe(effect) }
    }

    /// What started `effect`, and its ids.
    func describe(_ effect: RunningEffect) -> String {
        let origin = effect.cause.map { "started by \($0.action)" } ?? "started by an effect's action or a debounce"
        let ids =
            effect.ids.isEmpty
            ? "" : " (id \(effect.ids.map { String(reflecting: $0.value.base) }.joined(separator: ", ")))"
        return "an effect \(origin)\(ids)"
    }

    /// One line per cancelled effect whose task has not ended, oldest first.
    var endingEffectDescriptions: [String] {
        ending.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The number of debounces and throttles under way (waiting or pausing).
    var pacingEffectCount: Int { pacers.count }

    deinit {
        // Whoever awaits an action's effects is let go: they end with the store.
        for (number, effect) in running { effect.cause?.ended(run: number) }
        for (number, sequence) in sequences { sequence.cause?.ended(sequence: number) }
        for effect in running.values {
            effect.handle.cancel()
            effect.task.cancel()
        }
        for pacer in pacers.values { pacer.cancel() }
    }
}
