/// The rule of the limiting operators (`prefix`, `dropFirst`, `first` and their relatives),
/// apart from any paradigm's delivery.
///
/// The machine is told each value and, for the operators that watch another stream, when
/// that trigger sends; it answers what to do. It never calls anything: its owner passes a
/// value on, drops it, or ends the stream (and releases its input) as the action says.
///
/// ```swift
/// var machine = LimitStateMachine<Int>(.prefix(2))
/// _ = machine.receive(1)   // .pass(1)
/// _ = machine.receive(2)   // .passAndFinish(2): pass it, then end
/// _ = machine.receive(3)   // .drop: the machine has finished
/// ```
///
/// Once ``isFinished`` is true, every value is dropped: an owner that ended its stream on a
/// `.finish` or `.passAndFinish` action may still be sent values it was already delivering.
public struct LimitStateMachine<Value> {
    /// Which values pass.
    public enum Rule {
        /// The first `count` values pass, then the stream ends (`prefix(_:)`, `take(first:)`;
        /// `first()` is `.prefix(1)`).
        case prefix(Int)
        /// Values pass while `predicate` holds; the first that fails it ends the stream. That
        /// value does not pass, unless `inclusive` is true: then it passes, and the stream
        /// ends after it (RxJS's `takeWhile(predicate, true)`).
        case prefixWhile((Value) -> Bool, inclusive: Bool = false)
        /// Values pass until the trigger sends, which ends the stream
        /// (`prefix(untilOutputFrom:)`, `take(until:)`).
        case prefixUntilTrigger
        /// The first value that satisfies `predicate` passes and ends the stream; the values
        /// before it are dropped (`first(where:)`).
        case first(where: (Value) -> Bool)
        /// The first `count` values are dropped, the rest pass (`dropFirst(_:)`).
        case dropFirst(Int)
        /// Values are dropped while `predicate` holds; from the first that fails it, every
        /// value passes (`drop(while:)`).
        case dropWhile((Value) -> Bool)
        /// Values are dropped until the trigger sends; from then on every value passes
        /// (`drop(untilOutputFrom:)`).
        case dropUntilTrigger
    }

    /// What to do with a value.
    public enum Action {
        /// Pass the value on.
        case pass(Value)
        /// Pass the value on, then end the stream.
        case passAndFinish(Value)
        /// Drop the value.
        case drop
        /// Drop the value and end the stream.
        case finish
    }

    /// What to do when the trigger sent.
    public enum TriggerAction: Equatable, Sendable {
        /// End the stream (and stop watching the trigger).
        case finish
        /// Stop watching the trigger: it has done its work.
        case releaseTrigger
        /// Nothing.
        case none
    }

    @usableFromInline
    enum State {
        /// A prefix: passing values, `left` of them still to pass.
        case taking(left: Int)
        /// Dropping values, `left` of them still to drop.
        case skipping(left: Int)
        /// Passing values while they satisfy the predicate (`prefix(while:)`); the first that
        /// fails it passes too if `inclusive`.
        case takingWhile((Value) -> Bool, inclusive: Bool)
        /// Dropping values until one satisfies the predicate, which passes and ends
        /// (`first(where:)`).
        case seeking((Value) -> Bool)
        /// Dropping values while they satisfy the predicate (`drop(while:)`).
        case skippingWhile((Value) -> Bool)
        /// Passing every value until the trigger sends.
        case passingUntilTrigger
        /// Dropping every value until the trigger sends.
        case waitingForTrigger
        /// Every value passes.
        case passing
        /// The stream has ended: every value is dropped.
        case finished
    }

    @usableFromInline
    var state: State

    /// A machine that limits values by `rule`.
    ///
    /// - Precondition: the count of `.prefix` and `.dropFirst` is not negative.
    @inlinable
    public init(_ rule: Rule) {
        switch rule {
        case .prefix(let count):
            precondition(count >= 0, "prefix(_:) needs a count of zero or more, got \(count)")
            state = count == 0 ? .finished : .taking(left: count)
        case .dropFirst(let count):
            precondition(count >= 0, "dropFirst(_:) needs a count of zero or more, got \(count)")
            state = count == 0 ? .passing : .skipping(left: count)
        case .prefixWhile(let predicate, let inclusive):
            state = .takingWhile(predicate, inclusive: inclusive)
        case .first(let predicate):
            state = .seeking(predicate)
        case .dropWhile(let predicate):
            state = .skippingWhile(predicate)
        case .prefixUntilTrigger:
            state = .passingUntilTrigger
        case .dropUntilTrigger:
            state = .waitingForTrigger
        }
    }

    /// Whether the stream has ended (a `prefix(0)` has ended before its first value).
    @inlinable
    public var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    /// Whether the rule still watches its trigger.
    @inlinable
    public var watchesTrigger: Bool {
        switch state {
        case .passingUntilTrigger, .waitingForTrigger: true
        default: false
        }
    }

    /// Takes in `value` and says what to do with it.
    @inlinable
    public mutating func receive(_ value: Value) -> Action {
        switch state {
        case .finished, .waitingForTrigger:
            return .drop
        case .passing, .passingUntilTrigger:
            return .pass(value)
        case .taking(let left):
            if left == 1 {
                state = .finished
                return .passAndFinish(value)
            }
            state = .taking(left: left - 1)
            return .pass(value)
        case .skipping(let left):
            state = left == 1 ? .passing : .skipping(left: left - 1)
            return .drop
        case .takingWhile(let predicate, let inclusive):
            if predicate(value) { return .pass(value) }
            state = .finished
            return inclusive ? .passAndFinish(value) : .finish
        case .seeking(let predicate):
            guard predicate(value) else { return .drop }
            state = .finished
            return .passAndFinish(value)
        case .skippingWhile(let predicate):
            if predicate(value) { return .drop }
            state = .passing
            return .pass(value)
        }
    }

    /// Takes in that the trigger sent, and says what to do.
    @inlinable
    public mutating func triggerFired() -> TriggerAction {
        switch state {
        case .passingUntilTrigger:
            state = .finished
            return .finish
        case .waitingForTrigger:
            state = .passing
            return .releaseTrigger
        default:
            return .none
        }
    }

    /// Takes in that the input ended: the machine ends too.
    @inlinable
    public mutating func finish() {
        state = .finished
    }
}
