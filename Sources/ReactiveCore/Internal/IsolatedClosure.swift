/// A non-`Sendable` closure carried through `Sendable` storage.
///
/// This is the package's one escape hatch from strict concurrency checking, and it is
/// internal. It exists because the single-threaded paradigms (Glue, Incremental,
/// SignalGraph, Resin, Cycle) keep non-`Sendable` objects in one isolation domain, yet
/// their connections and scheduled work are stored in thread-safe `ReactiveCore` types.
///
/// Why it is safe: the wrapped closure is only ever stored inside a lock (`LockedState`) and taken
/// out exactly once, so the box itself is never raced on. Calling the closure is safe
/// because every public API that accepts one (`Connection(isolated:)`,
/// `Scheduler.schedule(at:isolated:)`) documents that it must run in the isolation
/// domain that created it, which is the same rule that already governs the
/// non-`Sendable` objects the closure captures.
struct IsolatedClosure: @unchecked Sendable {
    let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
    }

    func callAsFunction() {
        body()
    }
}
