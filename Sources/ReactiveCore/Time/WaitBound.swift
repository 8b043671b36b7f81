/// The bound of a wait that yields until something happens: it gives up only once the wait
/// has yielded `yields` times *and* `duration` has passed on the real clock.
///
/// A loaded machine starves such a wait in two ways, and each bound covers one. What it waits
/// for may run on another thread, which the machine may keep from running for longer than
/// any number of yields takes: the bound in time covers it. Or it may run on the waiter's own
/// actor, which other work may hold for longer than any duration: then each yield is one
/// turn for it, and the bound in yields covers it. With a duration of zero the bound is in
/// yields only. Used by ``TestScheduler/advanceTasks(by:maximumYields:)``, ResinTesting's
/// test store and the package's tests.
package struct WaitBound {
    private let deadline: ContinuousClock.Instant
    private let yields: Int
    /// How many yields the wait has made so far.
    package private(set) var yielded = 0

    /// A bound of at least `yields` yields and `duration` on the real clock, from now.
    package init(yields: Int, duration: Duration) {
        self.yields = yields
        deadline = ContinuousClock.now.advanced(by: duration)
    }

    /// Whether the wait may yield once more; counts the yield when it may.
    package mutating func allowsYield() -> Bool {
        guard yielded < yields || ContinuousClock.now < deadline else { return false }
        yielded += 1
        return true
    }
}
