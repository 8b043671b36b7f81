/// A registered reducer: the focus it works on and what it does with an action.
struct ReducerEntry {
    let node: FocusNode
    let apply: (any Action) -> Effect
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
class Engine {
    let graph = Graph()
    /// Brings effects' actions back into the store's domain and times debounces and
    /// throttles.
    let scheduler: any Scheduler
    /// What effects get as ``Dependencies/current``.
    var dependencies: Dependencies

    /// Orders every registration of this engine (and is its token).
    private var nextToken = 0
    private var reducers: [ObjectIdentifier: RouteTable<ReducerEntry>] = [:]
    private let everyActionMiddleware = RegistrationList<MiddlewareEntry>()
    private var middlewareByType: [ObjectIdentifier: RouteTable<MiddlewareEntry>] = [:]
    /// What runs once an action has been processed, before the next one (logging).
    private let afterAction = RegistrationList<(any Action) -> Void>()
    /// Presentation routes by name; the newest registration still connected wins.
    private var routes: [String: RegistrationList<RegisteredRoute>] = [:]
    /// Actions dispatched while one is being processed wait here, in order.
    private let actions = SerialQueue<any Action>()
    var unhandledActionHandler: (any Action) -> Void = { _ in }

    // Focus bookkeeping: nodes whose state a reducer changed in the current action.
    private var stamp = 0
    private var dirty: [FocusNode] = []
    /// How many foci the last action refreshed; for tests of the cost.
    private(set) var lastRefreshCount = 0

    // Effects.
    let inbox = EffectInbox()
    private struct RunningEffect {
        let id: EffectID?
        let handle: EffectHandle
        let task: Task<Void, Never>
        /// Not retained (and not weak, which would slow every retain of the node): a focus
        /// cancels its running effects in its `deinit`, which removes them from `running`.
        unowned(unsafe) let owner: FocusNode?
    }
    private var running: [Int: RunningEffect] = [:]
    private var runningByID: [EffectID: Int] = [:]
    private var pacers: [EffectID: Pacer<PacedEffect>] = [:]
    /// The pause each pacer was made with: a request with another rule or pause replaces it.
    private var pauses: [EffectID: Duration] = [:]
    private var nextEffect = 0
    /// Effects asked for while an action is processed; they start once it has been.
    private var pendingEffects: [(effect: Effect, owner: FocusNode)] = []
    private var isProcessing = false
    /// Whether what effects send waits until a test store takes it (until
    /// ``deliverEffectsAutomatically()``).
    private var takesEffectActionsManually = true

    #if RESIN_INTERNAL_CHECKS
        /// Calls to `checkInvariants` since the last check (see Invariants.swift).
        var _checksSkipped = 0
    #endif

    init(scheduler: any Scheduler, dependencies: Dependencies) {
        self.scheduler = scheduler
        self.dependencies = dependencies
    }

    /// The number of effects started and not yet finished or cancelled.
    var runningEffectCount: Int { running.count }

    /// The number of debounces and throttles under way (waiting or pausing).
    var pacingEffectCount: Int { pacers.count }

    // MARK: Registration

    private func takeToken() -> Int {
        nextToken += 1
        return nextToken
    }

    func register(
        reducer apply: @escaping (any Action) -> Effect, for actionType: ObjectIdentifier, route: AnyHashable?,
        at node: FocusNode
    ) -> Connection {
        let token = takeToken()
        let table = reducers[actionType] ?? RouteTable()
        reducers[actionType] = table
        table.add(ReducerEntry(node: node, apply: apply), route: route, token: token)
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self, let table = reducers[actionType] else { return }
            table.remove(route: route, token: token)
            if table.isEmpty { reducers[actionType] = nil }
            checkInvariants()
        })
    }

    func register(
        middleware handle: @escaping (any Action) -> MiddlewareDecision, after: ((any Action) -> Void)?,
        for actionType: ObjectIdentifier?, route: AnyHashable?, at node: FocusNode
    ) -> Connection {
        let token = takeToken()
        let entry = MiddlewareEntry(node: node, handle: handle)
        if let actionType {
            let table = middlewareByType[actionType] ?? RouteTable()
            middlewareByType[actionType] = table
            table.add(entry, route: route, token: token)
        } else {
            everyActionMiddleware.append(entry, token: token)
        }
        if let after { afterAction.append(after, token: token) }
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self else { return }
            defer { checkInvariants() }
            afterAction.remove(token: token)
            guard let actionType else {
                everyActionMiddleware.remove(token: token)
                return
            }
            guard let table = middlewareByType[actionType] else { return }
            table.remove(route: route, token: token)
            if table.isEmpty { middlewareByType[actionType] = nil }
        })
    }

    func register(route: RegisteredRoute) -> Connection {
        let token = takeToken()
        let name = route.route.name
        let list = routes[name] ?? RegistrationList()
        routes[name] = list
        list.append(route, token: token)
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self, let list = routes[name] else { return }
            list.remove(token: token)
            if list.isEmpty { routes[name] = nil }
            checkInvariants()
        })
    }

    /// The newest connected route named `name`.
    func route(named name: String) -> RegisteredRoute? {
        routes[name]?.slots.last { $0 != nil }??.entry
    }

    /// How many registrations of each kind are connected; for tests of lifetimes.
    var registrationCounts: (reducers: Int, middleware: Int, routes: Int) {
        let reducerCount = reducers.values.reduce(0) {
            $0 + $1.unrouted.count + $1.routed.values.reduce(0) { $0 + $1.count }
        }
        let middlewareCount =
            everyActionMiddleware.count
            + middlewareByType.values.reduce(0) {
                $0 + $1.unrouted.count + $1.routed.values.reduce(0) { $0 + $1.count }
            }
        return (reducerCount, middlewareCount, routes.values.reduce(0) { $0 + $1.count })
    }

    // MARK: Dispatch

    /// Queues `action`; if no action is being processed, processes the queue in order.
    func dispatch(_ action: any Action) {
        actions.submit(action) { process($0) }
    }

    private func process(_ action: any Action) {
        isProcessing = true
        let processed = reduce(action)
        let effects = pendingEffects
        pendingEffects.removeAll()
        isProcessing = false
        for (effect, owner) in effects { start(effect, owner: owner) }
        if !afterAction.isEmpty {
            walkInOrder(afterAction, limit: nextToken) { body in
                body(processed)
                return true
            }
        }
        checkInvariants()
    }

    /// Runs the middleware and reducers for `action` and commits the state; returns the
    /// action as the reducers saw it.
    private func reduce(_ action: any Action) -> any Action {
        var action = action
        var handled = false
        var replaced = false
        let limit = nextToken
        var route = (action as? any RoutedAction).map { AnyHashable($0.route) }
        let typed = middlewareByType[ObjectIdentifier(type(of: action))]?.lists(for: route)
        var swallowed = false
        walkInOrder(everyActionMiddleware, typed?.0, typed?.1, limit: limit) { entry in
            switch entry.handle(action) {
            case .pass: break
            case .handled: handled = true
            case .replace(let replacement):
                action = replacement
                handled = true
                replaced = true
            case .swallow:
                swallowed = true
                return false
            }
            return true
        }
        if swallowed { return action }
        if replaced { route = (action as? any RoutedAction).map { AnyHashable($0.route) } }
        guard let table = reducers[ObjectIdentifier(type(of: action))] else {
            if !handled { unhandledActionHandler(action) }
            return action
        }
        let (unrouted, routed) = table.lists(for: route)
        guard !unrouted.isEmpty || routed != nil else {
            if !handled { unhandledActionHandler(action) }
            return action
        }
        let reduced = action
        graph.batch {
            stamp += 1
            walkInOrder(unrouted, routed, limit: limit) { entry in
                let effect = entry.apply(reduced)
                markDirty(entry.node)
                if !effect.isNone { pendingEffects.append((effect, entry.node)) }
                return true
            }
            commit()
        }
        return action
    }

    private func markDirty(_ node: FocusNode) {
        guard node.dirtyStamp != stamp else { return }
        node.dirtyStamp = stamp
        dirty.append(node)
    }

    /// Writes the changed state into every focus it can have changed.
    ///
    /// A focus whose reducers ran is refreshed; if its slice is unchanged (by its cutoff),
    /// nothing else is. If it changed: the foci inside it, top-down, each descending only
    /// when its own slice changed; its ancestors; and at every level on the way up, the foci
    /// beside the path whose part may share state with it (see ``FocusRegion``), top-down.
    /// So the cost follows the foci that can have changed, not how many exist.
    private func commit() {
        let stamp = stamp
        var refreshed = 0
        func refreshOnce(_ node: FocusNode) -> Bool {
            guard node.refreshStamp != stamp else { return node.lastRefreshChanged }
            node.refreshStamp = stamp
            refreshed += 1
            guard let refresher = node.refresher else {
                node.lastRefreshChanged = true
                return true
            }
            let changed = refresher.refresh()
            node.lastRefreshChanged = changed
            if changed, node.hasOwnedEffects, refresher.isAbsent { cancelEffects(ownedBy: node) }
            return changed
        }
        func refreshDown(_ node: FocusNode) {
            guard node.subtreeStamp != stamp else { return }
            node.subtreeStamp = stamp
            guard refreshOnce(node), node.hasChildren else { return }
            for child in node.childList() { refreshDown(child) }
        }
        var index = 0
        while index < dirty.count {
            let node = dirty[index]
            index += 1
            refreshDown(node)
            guard node.lastRefreshChanged else { continue }
            var current = node
            while let parent = current.parent {
                _ = refreshOnce(parent)
                parent.forEachChild(overlapping: current) { refreshDown($0) }
                current = parent
            }
        }
        dirty.removeAll(keepingCapacity: true)
        lastRefreshCount = refreshed
    }

    // MARK: Effects

    /// Makes what effects post reach the store through the scheduler, in the domain that
    /// created the store.
    func deliverEffectsAutomatically() {
        takesEffectActionsManually = false
        let drain = IsolatedClosure { [weak self] in self?.drainInbox() }
        let scheduler = scheduler
        // Weak: the inbox holds this closure, so a strong capture would be a cycle that
        // leaks the inbox and the scheduler with every store (found by LeakSanitizer).
        inbox.setWake { [weak inbox] in
            inbox?.keep(scheduler.schedule(after: .zero) { drain() })
        }
    }

    /// Starts `effect` for `owner` once the action being processed has been, or now.
    func perform(_ effect: Effect, owner: FocusNode) {
        if isProcessing {
            pendingEffects.append((effect, owner))
        } else {
            start(effect, owner: owner)
            checkInvariants()
        }
    }

    private func start(_ effect: Effect, owner: FocusNode?) {
        // A focus whose part is gone (its element was removed, by the same action or since a
        // debounce took the effect) starts nothing: what it would start could never be
        // cancelled by the focus, which already went. Its cancellations still apply.
        let steps = owner?.isInAbsentPart == true ? effect.steps.filter(\.isCancellation) : effect.steps
        for step in steps {
            switch step {
            case .run(let id, let operation):
                startRun(id: id, operation, owner: owner)
            case .send(let action):
                if takesEffectActionsManually {
                    // A test store receives it like any action an effect sends.
                    inbox.post(.action(action, EffectHandle(number: -1)))
                } else {
                    dispatch(action)
                }
            case .cancel(let id):
                cancelEffect(id: id)
                removePacer(id)?.cancel()
            case .cancelRunning(let id):
                cancelEffect(id: id)
            case .pace(let id, let rule, let pause, let inner):
                pace(inner, id: id, rule: rule, pause: pause, owner: owner)
            }
        }
    }

    private func pace(_ effect: Effect, id: EffectID, rule: PacingRule, pause: Duration, owner: FocusNode?) {
        let pacer: Pacer<PacedEffect>
        if let existing = pacers[id], existing.rule == rule, pauses[id] == pause {
            pacer = existing
        } else {
            pacers[id]?.cancel()
            pacer = Pacer(rule, pause: pause, scheduler: scheduler) { [weak self] paced in
                guard let self else { return }
                start(paced.effect, owner: paced.owner)
                if let current = pacers[id], !current.isPacing { removePacer(id) }
            }
            pacer.onIdle = { [weak self] in
                if let self, let current = pacers[id], !current.isPacing { removePacer(id) }
            }
            pacers[id] = pacer
            pauses[id] = pause
        }
        owner?.ownedPacers.insert(id)
        pacer.send(PacedEffect(effect: effect, owner: owner, ownerID: owner.map(ObjectIdentifier.init)))
        if !pacer.isPacing, pacers[id] === pacer { removePacer(id) }
    }

    /// Forgets the pacer for `id` (and its pause); returns it.
    @discardableResult
    private func removePacer(_ id: EffectID) -> Pacer<PacedEffect>? {
        pauses[id] = nil
        return pacers.removeValue(forKey: id)
    }

    private func startRun(id: EffectID?, _ operation: @escaping @Sendable (Send) async -> Void, owner: FocusNode?) {
        if let id { cancelEffect(id: id) }
        let number = nextEffect
        nextEffect += 1
        let handle = EffectHandle(number: number)
        let send = Send(inbox: inbox, handle: handle)
        let inbox = inbox
        let dependencies = dependencies
        let task = Task {
            await Dependencies.$current.withValue(dependencies) { await operation(send) }
            inbox.post(.finished(handle))
        }
        running[number] = RunningEffect(id: id, handle: handle, task: task, owner: owner)
        if let id { runningByID[id] = number }
        owner?.ownedEffects.insert(number)
    }

    /// Cancels the effect running under `id`, if any; forgets it at once.
    func cancelEffect(id: EffectID) {
        guard let number = runningByID[id] else { return }
        cancel(number: number)
    }

    private func cancel(number: Int) {
        guard let effect = running.removeValue(forKey: number) else { return }
        if let id = effect.id, runningByID[id] == number { runningByID[id] = nil }
        effect.owner?.ownedEffects.remove(number)
        effect.handle.cancel()
        effect.task.cancel()
    }

    /// Cancels what `node` started and is still running or waiting: its focus went away
    /// (freed, or its optional slice became absent).
    func cancelEffects(ownedBy node: FocusNode) {
        cancelEffects(numbers: node.ownedEffects, pacers: node.ownedPacers, owner: ObjectIdentifier(node))
        node.ownedEffects.removeAll()
        node.ownedPacers.removeAll()
    }

    /// Cancels the running effects `numbers`, and the debounces and throttles among `ids`
    /// that hold an effect of `owner`. A pacer holding another focus's effect (which asked
    /// under the same id after `owner` did) keeps it: that effect belongs to the focus that
    /// asked for it, and goes only with that focus.
    ///
    /// `owner` is an identifier, not a reference: this runs from the focus's `deinit`.
    func cancelEffects(numbers: Set<Int>, pacers ids: Set<EffectID>, owner: ObjectIdentifier) {
        for number in numbers { cancel(number: number) }
        for id in ids {
            guard let held = pacers[id]?.held, held.ownerID == owner else { continue }
            removePacer(id)?.cancel()
        }
    }

    /// Dispatches what effects sent, in order, and forgets the effects that finished.
    /// Returns the actions it dispatched.
    @discardableResult
    func drainInbox() -> [any Action] {
        var dispatched: [any Action] = []
        for message in inbox.take() {
            switch message {
            case .action(let action, let handle):
                guard !handle.isCancelled else { continue }
                dispatched.append(action)
                dispatch(action)
            case .finished(let handle):
                forgetEffect(handle.number)
            }
        }
        checkInvariants()
        return dispatched
    }

    /// Whether an effect's action waits to be taken.
    var hasWaitingActions: Bool { inbox.hasWaitingActions }

    /// Forgets the effects that finished.
    func takeFinished() {
        for handle in inbox.takeFinished() { forgetEffect(handle.number) }
        checkInvariants()
    }

    /// Takes the next waiting action from an effect that was not cancelled, without
    /// dispatching it; forgets finished effects on the way.
    func takeNextAction() -> (any Action)? {
        while let message = inbox.popFirst() {
            switch message {
            case .action(let action, let handle):
                if !handle.isCancelled { return action }
            case .finished(let handle):
                forgetEffect(handle.number)
            }
        }
        return nil
    }

    private func forgetEffect(_ number: Int) {
        guard let effect = running.removeValue(forKey: number) else { return }
        if let id = effect.id, runningByID[id] == number { runningByID[id] = nil }
        effect.owner?.ownedEffects.remove(number)
    }

    #if RESIN_INTERNAL_CHECKS
        var registrationLimitForChecks: Int { nextToken }
        var reducersForChecks: [ObjectIdentifier: RouteTable<ReducerEntry>] { reducers }
        var middlewareForChecks: [ObjectIdentifier: RouteTable<MiddlewareEntry>] { middlewareByType }
        var everyActionMiddlewareForChecks: RegistrationList<MiddlewareEntry> { everyActionMiddleware }
        var routesForChecks: [String: RegistrationList<RegisteredRoute>] { routes }
        /// How many registrations and effects the checks visit.
        var sizeForChecks: Int {
            let counts = registrationCounts
            return counts.reducers + counts.middleware + counts.routes + running.count
        }

        /// R4: the running effects, their ids and their foci agree (also for `foci`, the foci
        /// registrations work on, and those they are inside); every pacer has its pause.
        /// R5: between actions, no effect waits to start and no focus to be refreshed.
        func checkEffects(registeredFoci foci: [FocusNode]) {
            var visited = Set<ObjectIdentifier>()
            for focus in foci {
                var current: FocusNode? = focus
                while let node = current, visited.insert(ObjectIdentifier(node)).inserted {
                    for number in node.ownedEffects {
                        resinCheck(
                            running[number].map { $0.owner === node } == true, "R4",
                            "a focus counts as its own an effect that is not running for it")
                    }
                    current = node.parent
                }
            }
            for (id, number) in runningByID {
                resinCheck(
                    running[number]?.id == id, "R4",
                    "an effect id names an effect that runs under another id or not at all")
            }
            for (number, effect) in running {
                if let id = effect.id {
                    resinCheck(runningByID[id] == number, "R4", "a running effect's id names another effect")
                }
                if let owner = effect.owner {
                    resinCheck(
                        owner.ownedEffects.contains(number), "R4", "a running effect is not among its focus's effects")
                }
            }
            resinCheck(
                Set(pacers.keys) == Set(pauses.keys), "R4", "the debounces and throttles disagree with their pauses")
            if !isProcessing {
                resinCheck(pendingEffects.isEmpty, "R5", "effects wait to start between actions")
                resinCheck(dirty.isEmpty, "R5", "foci wait to be refreshed between actions")
            }
        }
    #endif

    deinit {
        for effect in running.values {
            effect.handle.cancel()
            effect.task.cancel()
        }
        for pacer in pacers.values { pacer.cancel() }
    }
}

/// An effect waiting in a debounce or a throttle, with the focus that asked for it.
struct PacedEffect {
    let effect: Effect
    /// Not retained: a focus cancels, in its `deinit`, the pacers that hold an effect of
    /// its own, which drops it; so a held effect's owner is alive.
    unowned(unsafe) let owner: FocusNode?
    /// The owner's identity, to compare while the owner's `deinit` runs (when the reference
    /// itself must not be loaded).
    let ownerID: ObjectIdentifier?
}

/// Writes a focus's current state into its graph input.
protocol FocusRefreshing: AnyObject {
    /// Writes the focus's part into its input; returns whether it changed (by the focus's
    /// cutoff; without one, or with no input alive, always).
    func refresh() -> Bool
    /// Whether the focus's part is an absent optional (an element that is gone).
    var isAbsent: Bool { get }
}

/// Lets a focus tell whether its part is an absent optional without knowing its type.
private protocol OptionalPart {
    var isNone: Bool { get }
}

extension Optional: OptionalPart {
    fileprivate var isNone: Bool { self == nil }
}

/// Reads and writes one focus's state in the root state, and keeps its graph input.
///
/// Ownership keeps a focus in the tree exactly while it is needed: the input owns the
/// access (``Input/owner``), the access owns its ``FocusNode``, and a node owns its parent.
/// So a focus lives while its state input lives (held by a store object, an observer, a
/// derived value), while a registration on it lives (it holds the access), or while a focus
/// inside it lives (its reads go through this access). The node and the access refer to
/// the input weakly; when the input is gone and the focus is still needed (a registration),
/// the next store object for it makes a new input.
class FocusAccess<State>: FocusRefreshing, InputOwner {
    let get: () -> State
    let modify: ((inout State) -> Void) -> Void
    let node: FocusNode
    /// The focus's cutoff: `==` for `Equatable` slices, `===` for class instances.
    let isEqual: ((State, State) -> Bool)?
    private unowned let graph: Graph
    /// The live input. Not retained (it owns this access) and not weak (a weak reference
    /// would slow every retain of the input): the input clears it in its `deinit`
    /// (``inputWillEnd()``).
    private unowned(unsafe) var weakInput: Input<State>?
    /// The part as last refreshed, to tell a change also while no input lives. It shares
    /// its storage with the input's value (copy-on-write), so it costs no copy the input
    /// would not cost.
    private var last: State?

    init(
        node: FocusNode, graph: Graph, get: @escaping () -> State,
        modify: @escaping ((inout State) -> Void) -> Void
    ) {
        self.get = get
        self.modify = modify
        self.node = node
        self.graph = graph
        isEqual = Cutoff<State>.default.isEqual
        node.refresher = self
    }

    deinit {
        node.refresher = nil
    }

    func inputWillEnd() {
        weakInput = nil
    }

    /// The focus's state input: the live one, or a new one holding the current part.
    var input: Input<State> {
        if let input = weakInput { return input }
        let input = makeInput()
        input.owner = self
        weakInput = input
        return input
    }

    func makeInput() -> Input<State> {
        let value = get()
        last = value
        return graph.input(value)
    }

    func refresh() -> Bool {
        let value = get()
        if let isEqual, let last, isEqual(last, value) { return false }
        last = value
        weakInput?.write(value)
        return true
    }

    var isAbsent: Bool {
        (get() as? any OptionalPart)?.isNone ?? false
    }
}

/// The engine of a root store.
///
/// The root state lives in the root graph input itself and is mutated there in place: a
/// second copy would make every dispatch copy the whole state (copy-on-write), so a change
/// to one of 1,000 parts would cost as much as the state is big.
final class RootEngine<Root>: Engine {
    private(set) var rootInput: Input<Root>!

    init(state: Root, scheduler: any Scheduler, dependencies: Dependencies) {
        super.init(scheduler: scheduler, dependencies: dependencies)
        rootInput = graph.input(state)
        rootInput.setCutoff(.alwaysPropagate)
    }
}

/// The root focus: reads and mutates the state inside the root input, which the engine
/// keeps.
final class RootAccess<Root>: FocusAccess<Root> {
    private let rootInput: Input<Root>

    init(engine: RootEngine<Root>, node: FocusNode) {
        let input = engine.rootInput!
        rootInput = input
        super.init(
            node: node, graph: engine.graph,
            get: { input.value },
            modify: { body in input.mutateWithoutPropagating(body) })
    }

    /// The root input, which the engine owns; it does not own this access (that would be a
    /// cycle through `rootInput`): the root store and the foci inside it do.
    override var input: Input<Root> { rootInput }

    /// The root state always changes: comparing a whole app state would cost as much as it
    /// is big.
    override func refresh() -> Bool {
        rootInput.markChanged()
        return true
    }

    override var isAbsent: Bool { false }
}
