extension Graph {
    /// Runs `body` now, and again after each propagation that changes a value it read in
    /// its last run, until the effect is disposed.
    ///
    /// ```swift
    /// let count = graph.input(0)
    /// let effect = graph.effect {
    ///     print("count is", count.value)                    // prints "count is 0"
    ///     graph.onCleanup { print("leaving", count.value) } // runs before the next run
    /// }
    /// count.write(1)      // prints "leaving 1", then "count is 1"
    /// effect.dispose()    // prints "leaving 1"
    /// ```
    ///
    /// What `body` reads is recorded on each run, as in ``computed(_:)-9iakp``. An effect runs
    /// where observers run: after the propagation has made every value current, once per
    /// propagation at most, in the order the propagation reached it. Writes it makes
    /// propagate after it returns. Cleanups registered with ``onCleanup(_:)`` during a run
    /// run, untracked, before the next run and when the effect is disposed.
    ///
    /// Effects and ``effectScope(_:)``s made during a run belong to it: they are disposed
    /// before it runs again and when it is disposed. An effect made elsewhere belongs to the
    /// scope whose ``EffectScope/run(_:)`` is under way, or to the graph: it lives until
    /// disposed, and the graph with it.
    ///
    /// - Precondition: Not called from inside a `map`, `flatMap` or `computed` closure.
    @discardableResult
    public func effect(_ body: @escaping () -> Void) -> RunningEffect {
        precondition(
            recomputeDepth == 0,
            "Incremental: effect was called while the graph was recomputing (from inside a map, flatMap or computed closure)"
        )
        let node = EffectNode(graph: self, body: body)
        ownershipForNewMember.add(node)
        node.start()
        return RunningEffect(node: node)
    }

    /// A scope that owns the effects made while `body` runs, and later in its
    /// ``EffectScope/run(_:)``: disposing the scope disposes them.
    ///
    /// ```swift
    /// let screen = graph.effectScope {
    ///     graph.effect { title.value = "\(items.value.count) items" }
    ///     graph.effect { save(items.value) }
    /// }
    /// screen.dispose()   // both effects stop
    /// ```
    ///
    /// A scope made during an effect's run belongs to that effect, as effects do.
    @discardableResult
    public func effectScope(_ body: () -> Void = {}) -> EffectScope {
        let scope = EffectScope(graph: self)
        ownershipForNewMember.add(scope)
        scope.run(body)
        return scope
    }
}

/// A running effect (``Graph/effect(_:)``): dispose it to stop it.
///
/// The effect lives until it is disposed, or until the effect or scope it belongs to
/// re-runs or is disposed; this handle only lets you dispose it earlier. Disposing runs its
/// cleanups and disposes what it owns; a disposed effect never runs again and lets go of
/// the values it read.
public final class RunningEffect {
    let node: EffectNode

    init(node: EffectNode) {
        self.node = node
    }

    /// Stops the effect: its cleanups run, the effects and scopes made in its last run are
    /// disposed, and it never runs again. Idempotent. An effect may dispose itself while it
    /// runs: the run finishes, and nothing follows it.
    public func dispose() {
        node.dispose()
    }

    /// Whether the effect was disposed.
    public var isDisposed: Bool { node.isDisposed }
}

/// A group of effects disposed together (``Graph/effectScope(_:)``).
public final class EffectScope: EffectMember {
    /// The graph the scope's effects belong to.
    public let graph: Graph
    let ownership = EffectOwnership()
    weak var owner: EffectOwnership?
    var memberSlot = -1
    /// Whether the scope was disposed.
    public private(set) var isDisposed = false

    init(graph: Graph) {
        self.graph = graph
    }

    /// Runs `body` with the effects and scopes it makes belonging to this scope.
    ///
    /// - Precondition: The scope is not disposed.
    @discardableResult
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        precondition(!isDisposed, "Incremental: EffectScope.run was called after the scope was disposed")
        return try graph.owning(ownership) { try body() }
    }

    /// Disposes every effect and scope the scope owns, and the scope. Idempotent.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        withExtendedLifetime(self) {
            owner?.remove(self)
            ownership.disposeAll()
        }
    }
}

/// An effect or scope, as its owner holds it.
protocol EffectMember: AnyObject {
    /// The ownership that holds this member, until the member is disposed.
    var owner: EffectOwnership? { get set }
    /// The member's index in its owner's list.
    var memberSlot: Int { get set }
    func dispose()
}

/// The effects and scopes an effect's run, a scope or the graph owns: held here until each
/// is disposed, and disposed together, newest first.
final class EffectOwnership {
    private var members: [any EffectMember] = []

    var isEmpty: Bool { members.isEmpty }

    func add(_ member: any EffectMember) {
        member.owner = self
        member.memberSlot = members.count
        members.append(member)
    }

    /// Lets go of `member` (disposed): the last member takes its place.
    func remove(_ member: any EffectMember) {
        let slot = member.memberSlot
        guard member.owner === self, slot >= 0, slot < members.count, members[slot] === member else { return }
        member.owner = nil
        member.memberSlot = -1
        let last = members.removeLast()
        if slot < members.count {
            members[slot] = last
            last.memberSlot = slot
        }
    }

    /// Disposes every member, newest first; members made meanwhile are disposed too.
    func disposeAll() {
        while let member = members.popLast() {
            member.owner = nil
            member.memberSlot = -1
            member.dispose()
        }
    }
}

/// An effect's node: an observed node whose inputs are what its body read in its last
/// run. A recomputation only notes that an input changed; the body runs when the node's
/// observers would be told, after the propagation made every value current.
final class EffectNode: I<Void>, EffectMember {
    private var body: () -> Void
    /// The effects and scopes made in the last run.
    let children = EffectOwnership()
    weak var owner: EffectOwnership?
    var memberSlot = -1
    /// An input changed since the last run.
    private var needsRun = false
    private var isRunning = false
    private(set) var isDisposed = false
    /// Cleanups registered during the last run.
    private var cleanups: [() -> Void] = []

    init(graph: Graph, body: @escaping () -> Void) {
        self.body = body
        super.init(
            graph: Unmanaged.passUnretained(graph), flags: Flags.dynamic, cutoff: .alwaysPropagate, edgeCapacity: 2)
    }

    deinit {
        graph.releaseAfterDeinit(body)
        body = {}
    }

    /// Makes the node observed and runs the body the first time.
    func start() {
        graph.addObserver(to: self)
        graph.read(self, propagating: false)
        graph.deliveringOutsidePropagation { runIfNeeded() }
    }

    #if INCREMENTAL_INTERNAL_CHECKS
        override var unlistedObserversForChecks: Int32 { isDisposed ? 0 : 1 }
    #endif

    override func recompute() -> Step {
        needsRun = true
        current = ()
        return .changed
    }

    override func notifyObservers() {
        runIfNeeded()
    }

    private func runIfNeeded() {
        guard needsRun, !isDisposed else { return }
        needsRun = false
        // Held for the run: disposing it (from its body or a cleanup) lets its owner go of it.
        withExtendedLifetime(self) { run() }
    }

    private func run() {
        graph.countDelivery()
        graph.countEffectRun()
        children.disposeAll()
        runCleanups()
        guard !isDisposed else { return }
        isRunning = true
        let body = body
        let cleanupsBefore = graph.observerWillRun()
        graph.tracking(self) { graph.owning(children) { body() } }
        if let registered = graph.observerDidRun(cleanupsFrom: cleanupsBefore) { cleanups += registered }
        isRunning = false
        if isDisposed { finishDisposal() }
    }

    private func runCleanups() {
        guard !cleanups.isEmpty else { return }
        let running = cleanups
        cleanups = []
        graph.withoutTracking {
            for cleanup in running { cleanup() }
        }
    }

    func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        withExtendedLifetime(self) {
            owner?.remove(self)
            // No longer observed at once: what a run under way still reads is not linked.
            if observerCount > 0 { graph.removeObserver(from: self) }
            if !isRunning { finishDisposal() }
        }
    }

    /// Disposes what the last run made, runs the cleanups, and lets go of the inputs (when
    /// the pull walk making this node current now, if any, ends).
    private func finishDisposal() {
        children.disposeAll()
        runCleanups()
        // The body goes too: it usually holds what it reads, and what it reads may hold the
        // effect's handle (a computed closure that disposes it), which would make a cycle.
        body = {}
        graph.trimWhenOffStack(self)
    }
}
