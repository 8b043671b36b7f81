extension History {
    /// The history as a `Trace`, to show on a devtools page (`DevToolsPage` in the `DevTools`
    /// module) or to read in a test: the graph is `store`'s inspection now (its foci and
    /// routes), and each entry kept is a step, oldest first.
    ///
    /// A step's channel is its action's type, its input the action, its diff the changes
    /// between the state before the action and the state after it (``StateDiff``, the diff
    /// `TestStore` prints), and, when the state changed, the store's root node changed with
    /// the new state as its value (`Trace.initial` holds ``startState``). A skipped action
    /// changes nothing. Entries have no time: every step is at zero, and the page spaces them
    /// evenly. Entries the history no longer holds are counted in `Trace.dropped`.
    ///
    /// ```swift
    /// let history = store.recordHistory()
    /// store.dispatch(Counter.increment)
    /// let trace = history.trace(of: store)   // DevToolsPage(trace: trace) draws it
    /// ```
    public func trace(of store: some Inspectable) -> Trace {
        let graph = store.inspect()
        let root = graph.nodes.first { $0.kind == "root" }?.id
        var before = startState
        let steps = entries.map { entry in
            let changes = StateDiff(from: before, to: entry.state).changes
            before = entry.state
            var step = Trace.Step(
                time: .zero, channel: String(describing: type(of: entry.action)),
                input: Trace.describe(entry.action),
                diff: changes.map { Trace.Change(path: $0.path, old: $0.old, new: $0.new) })
            if let root, !changes.isEmpty {
                step.changed = [root]
                step.values = [Trace.NodeValue(id: root, value: Trace.describe(entry.state))]
            }
            return step
        }
        let initial = root.map { [Trace.NodeValue(id: $0, value: Trace.describe(startState))] } ?? []
        return Trace(
            paradigm: graph.paradigm, graph: graph, initial: initial, steps: steps, dropped: startPosition)
    }
}

extension Store {
    /// A function that returns the changes to this store's state since it was last called
    /// (at its first call, since this function was made), as a trace's diff rows: the diff
    /// `TestStore` prints (``StateDiff``). For a devtools page served live, which calls it
    /// after each input while a page watches (`DevToolsServer`'s `diff`), so that each step
    /// shows the state diff its input made.
    ///
    /// ```swift
    /// let server = try DevToolsServer(following: recorder, paradigm: "Resin", diff: store.stateChanges()) {
    ///     store.inspect()
    /// }
    /// ```
    ///
    /// Call the function in the store's isolation domain, as an input is applied there. It
    /// holds the state it last saw, and the store weakly: once the store is gone it returns
    /// no changes.
    public func stateChanges() -> () -> [Trace.Change] {
        var last = state.value
        return { [weak self] in
            guard let self else { return [] }
            let now = state.value
            defer { last = now }
            return StateDiff(from: last, to: now).changes.map { Trace.Change(path: $0.path, old: $0.old, new: $0.new) }
        }
    }
}
