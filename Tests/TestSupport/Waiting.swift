/// Waits, by yielding (never sleeping), until `condition` holds; `false` if it never does
/// within `yields` yields. Runs on the caller's actor, so `condition` may read its state.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool, yields: Int = 100_000
) async -> Bool {
    for _ in 0..<yields {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Yields `count` times, letting other tasks on the caller's executor run.
public func yieldTimes(isolation: isolated (any Actor)? = #isolation, _ count: Int = 100) async {
    for _ in 0..<count { await Task.yield() }
}
