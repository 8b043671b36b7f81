/// The rule of `collect(_:)`: values go out in arrays of `count`; when the stream ends, the
/// values still gathered go out as a last, shorter array (none if nothing is gathered).
///
/// ```swift
/// var machine = CollectStateMachine<Int>(count: 2)
/// _ = machine.receive(1)   // nil
/// _ = machine.receive(2)   // [1, 2]
/// _ = machine.receive(3)   // nil
/// _ = machine.finish()     // [3]
/// ```
public struct CollectStateMachine<Value> {
    @usableFromInline
    var gathered: [Value] = []
    /// How many values make an array.
    public let count: Int

    /// A machine gathering arrays of `count`.
    ///
    /// - Precondition: `count` is at least 1.
    @inlinable
    public init(count: Int) {
        precondition(count >= 1, "collect(_:) needs a count of at least 1, got \(count)")
        self.count = count
        gathered.reserveCapacity(Self.reserved(for: count))
    }

    /// The capacity to reserve for an array of `count`: a large count (up to `Int.max`) is
    /// gathered as values come, not allocated up front.
    @usableFromInline
    static func reserved(for count: Int) -> Int { Swift.min(count, 1_024) }

    /// The values gathered so far.
    @inlinable
    public var pending: [Value] { gathered }

    /// Takes in `value`; returns the full array to pass on, if this value completed one.
    @inlinable
    public mutating func receive(_ value: Value) -> [Value]? {
        gathered.append(value)
        guard gathered.count == count else { return nil }
        return take()
    }

    /// Takes out what is gathered (a time window ended, or the stream ended); `nil` if nothing.
    @inlinable
    public mutating func flush() -> [Value]? {
        gathered.isEmpty ? nil : take()
    }

    /// The same as ``flush()``: the last array when the stream ends.
    @inlinable
    public mutating func finish() -> [Value]? {
        flush()
    }

    @usableFromInline
    mutating func take() -> [Value] {
        defer {
            gathered = []
            gathered.reserveCapacity(Self.reserved(for: count))
        }
        return gathered
    }
}

/// The rule of `pairwise` (`combinePrevious`): each value goes out with the one before it;
/// the first value only sets the first "before" (or, with an initial value, pairs with it).
///
/// ```swift
/// var machine = PairwiseStateMachine<Int>()
/// _ = machine.receive(1)   // nil
/// _ = machine.receive(2)   // (1, 2)
/// ```
public struct PairwiseStateMachine<Value> {
    @usableFromInline
    var previous: Value?

    /// A machine whose first value pairs with `initial`, or, if `nil`, with nothing.
    @inlinable
    public init(initial: Value? = nil) {
        previous = initial
    }

    /// Takes in `value`; returns the pair it makes with the previous value, if any.
    @inlinable
    public mutating func receive(_ value: Value) -> (Value, Value)? {
        defer { previous = value }
        return previous.map { ($0, value) }
    }
}
