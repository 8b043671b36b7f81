import Observation
import Synchronization

/// What a SwiftUI view does with Observation, for tests on platforms without SwiftUI: its
/// body is evaluated under `withObservationTracking`, a tracked change marks it dirty, and
/// it is evaluated again when asked (SwiftUI's next frame).
public final class ViewEvaluation: @unchecked Sendable {
    // `body` and `count` are used by the test's thread only; `dirty` is atomic, since
    // Observation calls onChange on whichever thread changes a tracked value.
    private let body: () -> Void
    /// How many times the body was evaluated.
    public private(set) var count = 0
    private let dirty = Atomic(false)

    /// Evaluates `body` once, tracking what it reads.
    public init(_ body: @escaping () -> Void) {
        self.body = body
        evaluate()
    }

    /// Whether a tracked change happened since the last evaluation.
    public var isDirty: Bool { dirty.load(ordering: .acquiring) }

    private func evaluate() {
        count += 1
        dirty.store(false, ordering: .releasing)
        // Weak, as SwiftUI's: the observed value keeps onChange until it fires.
        weak let weakSelf = self
        withObservationTracking(body) { weakSelf?.dirty.store(true, ordering: .releasing) }
    }

    /// Evaluates again if a tracked change happened; `true` if it did.
    @discardableResult
    public func renderIfNeeded() -> Bool {
        guard isDirty else { return false }
        evaluate()
        return true
    }
}
