/// Waits, by yielding (never sleeping), until `condition` holds; `false` if it still does not
/// hold once the wait has yielded `yields` times *and* lasted `limit` on the real clock.
/// Runs on the caller's actor, so `condition` may read its state.
///
/// The bounds guard against a test that would otherwise wait forever; they are not a timing:
/// a condition that holds returns at once, however slow the machine. There are two because a
/// loaded machine starves a wait in two ways:
/// - What the test waits for runs on another thread (a Dispatch queue draining, a thread
///   finishing, a server receiving), which the machine may keep from running for longer
///   than any number of yields takes: the bound in time covers it.
/// - What it waits for runs on the caller's actor, which other tests may hold for a long
///   time (under ThreadSanitizer, synchronous main-actor tests held it for over a minute):
///   then each yield is one turn for it, and the bound in yields covers it.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool, yields: Int = 100_000,
    within limit: Duration = .seconds(60)
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var yielded = 0
    while !condition() {
        guard yielded < yields || clock.now < deadline else { return condition() }
        await Task.yield()
        yielded += 1
    }
    return true
}

/// Yields `count` times, letting other tasks on the caller's executor run.
public func yieldTimes(isolation: isolated (any Actor)? = #isolation, _ count: Int = 100) async {
    for _ in 0..<count { await Task.yield() }
}
