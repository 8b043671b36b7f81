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
