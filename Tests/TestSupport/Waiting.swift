/// Waits, by yielding (never sleeping), until `condition` holds; `false` if it still does not
/// hold after `limit`. Runs on the caller's actor, so `condition` may read its state.
///
/// The limit is a guard against a test that would otherwise wait forever, not a timing: a
/// condition that holds returns at once, however slow the machine. It is measured on the real
/// clock, not in yields, because what the tests wait for (a Dispatch queue draining, a thread
/// finishing, a server receiving) runs on other threads, which a loaded machine may keep from
/// running for longer than any fixed number of yields takes.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool, within limit: Duration = .seconds(60)
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        guard clock.now < deadline else { return condition() }
        await Task.yield()
    }
    return true
}

/// Yields `count` times, letting other tasks on the caller's executor run.
public func yieldTimes(isolation: isolated (any Actor)? = #isolation, _ count: Int = 100) async {
    for _ in 0..<count { await Task.yield() }
}
