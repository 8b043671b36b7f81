import ReactiveCore

/// Waits, by yielding (never sleeping), until `condition` holds; `false` if it still does not
/// hold once the wait has yielded `yields` times *and* lasted `limit` on the real clock (a
/// ``WaitBound``: the time covers work on other threads, the yields work on the caller's
/// actor, which other tests may hold for a long time; under ThreadSanitizer synchronous
/// main-actor tests held it for over a minute). Runs on the caller's actor, so `condition`
/// may read its state.
///
/// The bounds guard against a test that would otherwise wait forever; they are not a timing:
/// a condition that holds returns at once, however slow the machine.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool, yields: Int = 100_000,
    within limit: Duration = .seconds(60)
) async -> Bool {
    var bound = WaitBound(yields: yields, duration: limit)
    while !condition() {
        guard bound.allowsYield() else { return condition() }
        await Task.yield()
    }
    return true
}

/// Yields `count` times, letting other tasks on the caller's executor run.
public func yieldTimes(isolation: isolated (any Actor)? = #isolation, _ count: Int = 100) async {
    for _ in 0..<count { await Task.yield() }
}
