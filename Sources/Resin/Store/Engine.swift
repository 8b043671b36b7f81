/// The machinery shared by a root store and every store focused from it: the graph, the
/// action queue, the registries, the focus tree and the running effects.
class Engine {
    let graph = Graph()
    private var reducers: [ObjectIdentifier: [(node: FocusNode, apply: (any Action) -> Void)]] = [:]
    private var middlewares: [(any Action) -> MiddlewareDecision] = []
    /// What runs once an action has been processed, before the next one (logging).
    private var afterAction: [(any Action) -> Void] = []
    /// Actions dispatched while one is being processed wait here, in order.
    private let actions = SerialQueue<any Action>()
    var unhandledActionHandler: (any Action) -> Void = { _ in }
    var routes: [String: Any] = [:]
    /// The root of the focus tree; set by the root store.
    var rootNode: FocusNode?

    // Focus bookkeeping: nodes whose state a reducer changed in the current action.
    private var stamp = 0
    private var dirty: [FocusNode] = []
    /// How many foci the last action refreshed; for tests of the cost.
    private(set) var lastRefreshCount = 0

    // Effects.
    let inbox = EffectInbox()
    private var running: [Int: (id: AnyHashable?, task: Task<Void, Never>)] = [:]
    private var runningByID: [AnyHashable: Int] = [:]
    private var nextEffect = 0

    init() {}

    /// The number of effects started and not yet finished or cancelled.
    var runningEffectCount: Int { running.count }

    // MARK: Registration

    func register(_ reducer: @escaping (any Action) -> Void, for actionType: ObjectIdentifier, at node: FocusNode) {
        reducers[actionType, default: []].append((node, reducer))
    }

    func register(_ middleware: @escaping (any Action) -> MiddlewareDecision) {
        middlewares.append(middleware)
    }

    func registerAfterAction(_ body: @escaping (any Action) -> Void) {
        afterAction.append(body)
    }

    // MARK: Dispatch

    /// Queues `action`; if no action is being processed, processes the queue in order.
    func dispatch(_ action: any Action) {
        actions.submit(action) { process($0) }
    }

    private func process(_ action: any Action) {
        var action = action
        defer {
            if !afterAction.isEmpty {
                for body in afterAction { body(action) }
            }
        }
        var handled = false
        for middleware in middlewares {
            switch middleware(action) {
            case .pass: break
            case .handled: handled = true
            case .replace(let replacement):
                action = replacement
                handled = true
            case .swallow: return
            }
        }
        guard let handlers = reducers[ObjectIdentifier(type(of: action))], !handlers.isEmpty else {
            if !handled { unhandledActionHandler(action) }
            return
        }
        graph.batch {
            stamp += 1
            for handler in handlers {
                handler.apply(action)
                markDirty(handler.node)
            }
            commit()
        }
    }

    private func markDirty(_ node: FocusNode) {
        guard node.dirtyStamp != stamp else { return }
        node.dirtyStamp = stamp
        dirty.append(node)
    }

    /// Writes the changed state into every focus it can have changed: the dirty foci, their
    /// ancestors and their descendants. Siblings are untouched, so the cost follows the
    /// foci that can have changed, not how many exist.
    ///
    /// Siblings whose parts may overlap are refreshed too: at every level on the way up, the
    /// foci beside the path whose part may share state with it (see ``FocusRegion``), with
    /// their descendants.
    private func commit() {
        var toRefresh: [FocusNode] = []
        let stamp = stamp
        func add(_ node: FocusNode) {
            guard node.refreshStamp != stamp else { return }
            node.refreshStamp = stamp
            toRefresh.append(node)
        }
        func addSubtree(_ root: FocusNode) {
            guard root.subtreeStamp != stamp else { return }
            root.subtreeStamp = stamp
            add(root)
            for child in root.children { addSubtree(child) }
        }
        for node in dirty {
            addSubtree(node)
            var current = node
            while let parent = current.parent {
                add(parent)
                parent.forEachChild(overlapping: current, addSubtree)
                current = parent
            }
        }
        dirty.removeAll(keepingCapacity: true)
        lastRefreshCount = toRefresh.count
        for node in toRefresh { node.access.refresh() }
    }

    // MARK: Effects

    /// Makes what effects post reach the store through `scheduler`, in the domain that
    /// created the store.
    func deliverEffects(on scheduler: some Scheduler) {
        let drain = IsolatedClosure { [weak self] in self?.drainInbox() }
        // Weak: the inbox holds this closure, so a strong capture would be a cycle that
        // leaks the inbox and the scheduler with every store (found by LeakSanitizer).
        inbox.setWake { [weak inbox] in
            inbox?.keep(scheduler.schedule(after: .zero) { drain() })
        }
    }

    func startEffect(id: AnyHashable?, _ operation: @escaping @Sendable (Send) async -> Void) {
        if let id { cancelEffect(id: id) }
        let effect = nextEffect
        nextEffect += 1
        let send = Send(inbox: inbox, effect: effect)
        let inbox = inbox
        let task = Task {
            await operation(send)
            inbox.post(.finished(effect: effect))
        }
        running[effect] = (id, task)
        if let id { runningByID[id] = effect }
    }

    func cancelEffect(id: AnyHashable) {
        guard let effect = runningByID.removeValue(forKey: id) else { return }
        inbox.cancel(effect)
        running.removeValue(forKey: effect)?.task.cancel()
    }

    /// Dispatches what effects sent, in order, and forgets the effects that finished.
    /// Returns the actions it dispatched.
    @discardableResult
    func drainInbox(limit: Int = .max) -> [any Action] {
        var dispatched: [any Action] = []
        for message in inbox.take() {
            switch message {
            case .action(let action, let effect):
                guard !inbox.isCancelled(effect) else { continue }
                dispatched.append(action)
                dispatch(action)
            case .finished(let effect):
                forgetEffect(effect)
            }
        }
        return dispatched
    }

    /// Whether an effect's action waits to be taken.
    var hasWaitingActions: Bool { inbox.hasWaitingActions }

    /// Forgets the effects that finished.
    func takeFinished() {
        for effect in inbox.takeFinished() { forgetEffect(effect) }
    }

    /// Takes the next waiting action from an effect that was not cancelled, without
    /// dispatching it; forgets finished effects on the way.
    func takeNextAction() -> (any Action)? {
        while let message = inbox.popFirst() {
            switch message {
            case .action(let action, let effect):
                if !inbox.isCancelled(effect) { return action }
            case .finished(let effect):
                forgetEffect(effect)
            }
        }
        return nil
    }

    private func forgetEffect(_ effect: Int) {
        if let entry = running.removeValue(forKey: effect), let id = entry.id, runningByID[id] == effect {
            runningByID[id] = nil
        }
    }

    deinit {
        for entry in running.values { entry.task.cancel() }
    }
}

/// Writes a focus's current state into its graph input.
protocol FocusRefreshing: AnyObject {
    func refresh()
}

/// Reads and writes one focus's state in the root state, and holds its graph input.
class FocusAccess<State>: FocusRefreshing {
    let get: () -> State
    let modify: ((inout State) -> Void) -> Void
    let input: Input<State>

    convenience init(graph: Graph, get: @escaping () -> State, modify: @escaping ((inout State) -> Void) -> Void) {
        self.init(input: graph.input(get()), get: get, modify: modify)
    }

    init(input: Input<State>, get: @escaping () -> State, modify: @escaping ((inout State) -> Void) -> Void) {
        self.get = get
        self.modify = modify
        self.input = input
    }

    func refresh() {
        input.write(get())
    }
}

/// The engine of a root store.
///
/// The root state lives in the root graph input itself and is mutated there in place: a
/// second copy would make every dispatch copy the whole state (copy-on-write), so a change
/// to one of 1,000 parts would cost as much as the state is big.
final class RootEngine<Root>: Engine {
    private(set) var rootInput: Input<Root>!

    init(state: Root) {
        super.init()
        rootInput = graph.input(state)
        rootInput.setCutoff(.alwaysPropagate)
    }
}

/// The root focus: reads and mutates the state inside the root input.
final class RootAccess<Root>: FocusAccess<Root> {
    init(engine: RootEngine<Root>) {
        let input = engine.rootInput!
        super.init(
            input: input,
            get: { input.value },
            modify: { body in input.mutateWithoutPropagating(body) })
    }

    override func refresh() {
        input.markChanged()
    }
}
