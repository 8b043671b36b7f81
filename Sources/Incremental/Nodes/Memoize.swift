extension Graph {
    /// A function that runs `body` once per distinct argument and afterwards returns what it
    /// returned then (Jane Street's `memoize_fun`).
    ///
    /// ```swift
    /// let row = graph.memoize { (id: Int) in items.map { $0[id] } }   // one node per id
    /// let shown = selected.flatMap { row($0) }                        // reused when selected comes back
    /// ```
    ///
    /// `body` runs in the `flatMap` scope that was current where `memoize` was called, not
    /// where the function is called: a node it makes belongs to that scope (it is invalidated
    /// with it, as every node made there), so calling the function from inside a later
    /// `flatMap` run never hands out a node that run's end invalidates. The table keeps every
    /// result as long as the function lives; see ``weakMemoize(_:)`` for one that lets results
    /// go.
    public func memoize<Key: Hashable, Value>(_ body: @escaping (Key) -> Value) -> (Key) -> Value {
        let table = MemoTable<Key, Value>(graph: self, scope: scopeNow, body: body)
        return { table.value(for: $0) }
    }

    /// A function that runs `body` once per distinct argument and afterwards returns what it
    /// returned then, while that result is alive elsewhere (Jane Street's
    /// `weak_memoize_fun`).
    ///
    /// ```swift
    /// let row = graph.weakMemoize { (id: Int) in items.map { $0[id] } }
    /// ```
    ///
    /// The table holds its results weakly: a result nothing else holds is freed, its entry is
    /// dropped, and a later call with its argument runs `body` again. `body` runs in the scope
    /// where `weakMemoize` was called, as for ``memoize(_:)``.
    public func weakMemoize<Key: Hashable, Value: AnyObject>(_ body: @escaping (Key) -> Value) -> (Key) -> Value {
        let table = WeakMemoTable<Key, Value>(graph: self, scope: scopeNow, body: body)
        return { table.value(for: $0) }
    }
}

/// Where a memo table runs its body: the `flatMap` scope it was made in. The scope is held
/// weakly, so that a table its transform captures makes no cycle through it; a table made in
/// a run that has since been freed runs its body in no scope (whatever it made then would
/// have been invalidated with that run).
private struct MemoScope {
    unowned let graph: Graph
    weak var scope: IncrementalNode?
    let hadScope: Bool

    init(graph: Graph, scope: IncrementalNode?) {
        self.graph = graph
        self.scope = scope
        hadScope = scope != nil
    }

    func run<Result>(_ body: () -> Result) -> Result {
        if hadScope, let scope { return graph.withScope(restoring: scope, body) }
        return graph.withScope(restoring: nil, body)
    }
}

/// The table of ``Graph/memoize(_:)``.
private final class MemoTable<Key: Hashable, Value> {
    let scope: MemoScope
    let body: (Key) -> Value
    var results: [Key: Value] = [:]

    init(graph: Graph, scope: IncrementalNode?, body: @escaping (Key) -> Value) {
        self.scope = MemoScope(graph: graph, scope: scope)
        self.body = body
    }

    func value(for key: Key) -> Value {
        if let result = results[key] { return result }
        let result = scope.run { body(key) }
        results[key] = result
        return result
    }
}

/// The table of ``Graph/weakMemoize(_:)``.
private final class WeakMemoTable<Key: Hashable, Value: AnyObject> {
    let scope: MemoScope
    let body: (Key) -> Value
    var results: [Key: Weak<Value>] = [:]
    /// The number of entries after the last sweep of freed results: the next sweep comes
    /// when the table has doubled, so sweeping costs O(1) per insertion.
    var sweptCount = 0

    init(graph: Graph, scope: IncrementalNode?, body: @escaping (Key) -> Value) {
        self.scope = MemoScope(graph: graph, scope: scope)
        self.body = body
    }

    func value(for key: Key) -> Value {
        if let result = results[key]?.value { return result }
        let result = scope.run { body(key) }
        results[key] = Weak(value: result)
        if results.count > 2 * Swift.max(sweptCount, 8) {
            results = results.filter { $0.value.value != nil }
            sweptCount = results.count
        }
        return result
    }
}

private struct Weak<Value: AnyObject> {
    weak var value: Value?
}
