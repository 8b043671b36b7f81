/// The rule of the flattening operators: `flatMap` (merge, with an optional maximum of inner
/// streams at once), `concatMap` (one at a time, the rest queued) and `switchToLatest` /
/// `flatMapLatest` (a new inner stream replaces the one before it at once).
///
/// The machine tracks the inner streams by ``InnerID``; its owner subscribes to an inner
/// stream when told to, tags that subscription's values and end with its id, and asks the
/// machine before passing a value on: a value of a replaced inner stream is dropped even if
/// it was already on its way.
///
/// ```swift
/// var machine = FlattenStateMachine<String>(.latest)
/// guard case .subscribe(_, let first, _) = machine.outerSent("sw"),
///     case .subscribe(_, let second, let releasing) = machine.outerSent("swift")
/// else { return }
/// // releasing == first: disconnect it. A value of it still on its way is dropped:
/// let stale = machine.innerMaySend(first)    // false
/// let fresh = machine.innerMaySend(second)   // true
/// ```
///
/// The flattened stream ends when the outer stream has ended, no inner stream runs and none
/// waits in the queue.
public struct FlattenStateMachine<Outer> {
    /// How inner streams run.
    public enum Policy: Equatable, Sendable {
        /// Every inner stream runs, at most `maximum` at once (`nil`: no limit); an outer value
        /// that arrives at the limit waits, in order, until one ends.
        case merge(maximum: Int?)
        /// One inner stream at a time: `.merge(maximum: 1)`.
        public static var concat: Policy { .merge(maximum: 1) }
        /// A new outer value replaces the running inner stream at once.
        case latest
    }

    /// Identifies one inner stream (not generic, so that the ids cost no generic metadata).
    public typealias InnerID = FlattenInnerID

    /// What to do after an event.
    public enum Action {
        /// Nothing now.
        case none
        /// Release the inner stream `releasing` (replaced, with the `latest` policy), then
        /// subscribe to the inner stream made from `value`, tagged `id`.
        case subscribe(Outer, id: InnerID, releasing: InnerID?)
        /// End the flattened stream.
        case finish
    }

    /// The policy the machine follows.
    public let policy: Policy
    @usableFromInline
    var running: [InnerID] = []
    @usableFromInline
    var waiting = FIFOBuffer<Outer>()
    @usableFromInline
    var nextID: UInt64 = 0
    @usableFromInline
    var outerEnded = false
    /// Whether the flattened stream has ended.
    @usableFromInline var _isFinished = false
    /// Whether the stream has ended.
    @inlinable public var isFinished: Bool { _isFinished }

    /// A machine that flattens by `policy`.
    ///
    /// - Precondition: a merge's maximum, if any, is at least 1.
    @inlinable
    public init(_ policy: Policy) {
        if case .merge(let maximum?) = policy {
            precondition(maximum >= 1, "flatMap needs a maximum of at least 1 inner stream, got \(maximum)")
        }
        self.policy = policy
    }

    /// The inner streams running, oldest first.
    @inlinable
    public var runningInners: [InnerID] { running }

    /// The number of outer values waiting for a free place (merge with a maximum).
    @inlinable
    public var waitingCount: Int { waiting.count }

    /// Takes in a value of the outer stream.
    @inlinable
    public mutating func outerSent(_ value: Outer) -> Action {
        guard !isFinished else { return .none }
        switch policy {
        case .latest:
            let replaced = running.first
            running.removeAll(keepingCapacity: true)
            return start(value, releasing: replaced)
        case .merge(let maximum):
            if let maximum, running.count >= maximum {
                waiting.append(value)
                return .none
            }
            return start(value, releasing: nil)
        }
    }

    /// Whether a value of inner stream `id` may pass: false once it was replaced, ended or
    /// the whole stream ended.
    @inlinable
    public func innerMaySend(_ id: InnerID) -> Bool {
        !isFinished && running.contains(id)
    }

    /// Takes in that inner stream `id` ended.
    @inlinable
    public mutating func innerFinished(_ id: InnerID) -> Action {
        guard !isFinished, let index = running.firstIndex(of: id) else { return .none }
        running.remove(at: index)
        if let next = waiting.popFirst() { return start(next, releasing: nil) }
        return finishIfDone()
    }

    /// Takes in that the outer stream ended.
    @inlinable
    public mutating func outerFinished() -> Action {
        guard !isFinished else { return .none }
        outerEnded = true
        return finishIfDone()
    }

    /// Ends at once, returning the inner streams to release: the owner's stream was
    /// disconnected, or an inner stream failed.
    @inlinable
    public mutating func cancel() -> [InnerID] {
        _isFinished = true
        waiting.removeAll()
        let cancelled = running
        running.removeAll()
        checkInvariantsAfterOperation()
        return cancelled
    }

    @inlinable
    mutating func start(_ value: Outer, releasing: InnerID?) -> Action {
        nextID += 1
        let id = FlattenInnerID(rawValue: nextID)
        running.append(id)
        checkInvariantsAfterOperation()
        return .subscribe(value, id: id, releasing: releasing)
    }

    @inlinable
    mutating func finishIfDone() -> Action {
        defer { checkInvariantsAfterOperation() }
        guard outerEnded, running.isEmpty, waiting.isEmpty else { return .none }
        _isFinished = true
        return .finish
    }

    @inlinable @inline(__always)
    func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks S3, stopping with a message that names it when broken. Does nothing unless the
    /// module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    @usableFromInline
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            switch policy {
            case .latest:
                reactiveCoreCheck(
                    running.count <= 1, "S3", "a switch to the latest runs \(running.count) inner streams")
                reactiveCoreCheck(waiting.isEmpty, "S3", "a switch to the latest holds outer values waiting")
            case .merge(let maximum):
                if let maximum {
                    reactiveCoreCheck(
                        running.count <= maximum, "S3", "\(running.count) inner streams run, the maximum is \(maximum)")
                    reactiveCoreCheck(
                        waiting.isEmpty || running.count == maximum, "S3",
                        "outer values wait while only \(running.count) of \(maximum) inner streams run")
                } else {
                    reactiveCoreCheck(waiting.isEmpty, "S3", "a merge with no maximum holds outer values waiting")
                }
            }
            reactiveCoreCheck(Set(running).count == running.count, "S3", "an inner stream is running twice")
            reactiveCoreCheck(
                !isFinished || (running.isEmpty && waiting.isEmpty), "S3",
                "a finished flattening still runs or holds inner streams")
        #endif
    }
}

/// Identifies one inner stream of a ``FlattenStateMachine``.
public struct FlattenInnerID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let rawValue: UInt64

    @inlinable init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `inner` and its number.
    public var description: String { "inner \(rawValue)" }

    /// The number, for owners that key their inner streams' connections by number.
    @inlinable package var number: UInt64 { rawValue }

    /// The identifier numbered `number` (what ``number`` returned).
    @inlinable package init(number: UInt64) {
        self.rawValue = number
    }
}
