/// A non-`Sendable` closure carried through `Sendable` storage.
///
/// This is the package's one escape hatch from strict concurrency checking; it has
/// `package` access, so paradigm modules share it and users never see it. It exists because the single-threaded paradigms (Glue, Incremental,
/// SignalGraph, Resin, Cycle) keep non-`Sendable` objects in one isolation domain, yet
/// their connections and scheduled work are stored in thread-safe `ReactiveCore` types.
///
/// Why it is safe: the wrapped closure is only ever stored inside a lock (`LockedState`) and taken
/// out exactly once, so the box itself is never raced on. Calling the closure is safe
/// because every public API that accepts one (`Connection(isolated:)`,
/// `Scheduler.schedule(at:isolated:)`, Glue's `NotificationCenter.source(forName:)`)
/// documents that it must run in the isolation domain that created it, which is the same
/// rule that already governs the non-`Sendable` objects the closure captures.
package struct IsolatedClosure: @unchecked Sendable {
    let body: () -> Void

    package init(_ body: @escaping () -> Void) {
        self.body = body
    }

    package func callAsFunction() {
        body()
    }
}

/// A non-`Sendable` function carried through a `@Sendable` callback (a system API's
/// observer block, an inline Signals chain run by the scenarios), under the same contract
/// as ``IsolatedClosure``: the code that wraps it documents that the callback runs in the
/// isolation domain that created it, and it is only called there.
package struct IsolatedFunction<Input, Output>: @unchecked Sendable {
    let body: (Input) -> Output

    package init(_ body: @escaping (Input) -> Output) {
        self.body = body
    }

    package func callAsFunction(_ input: Input) -> Output {
        body(input)
    }
}

/// A non-`Sendable` sink; see ``IsolatedFunction``.
package typealias IsolatedSink<Input> = IsolatedFunction<Input, Void>
