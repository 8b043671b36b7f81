/// The rule of `collect(_:)` and `collect(count:every:)`: values go out in arrays of
/// `count`, a new array starting with every `every`-th value (every `count`-th by default,
/// so that arrays follow each other). When the stream ends, the arrays still open go out,
/// oldest first, shorter than `count` (none if nothing is open).
///
/// With `every` below `count` the arrays overlap: each value is in up to
/// `ceil(count / every)` of them (RxJS's `bufferCount(count, every)`). With `every` above
/// `count`, the values between one array's end and the next one's start are in none.
///
/// ```swift
/// var machine = CollectStateMachine<Int>(count: 2)
/// _ = machine.receive(1)   // nil
/// _ = machine.receive(2)   // [1, 2]
/// _ = machine.receive(3)   // nil
/// _ = machine.finish()     // [[3]]
///
/// var sliding = CollectStateMachine<Int>(count: 3, every: 1)
/// _ = sliding.receive(1)   // nil
/// _ = sliding.receive(2)   // nil
/// _ = sliding.receive(3)   // [1, 2, 3]
/// _ = sliding.receive(4)   // [2, 3, 4]
/// _ = sliding.finish()     // [[3, 4], [4]]
/// ```
///
/// A value fills at most one array (arrays start at different values and each is full
/// after `count` of them), so ``receive(_:)`` returns one array or none. It costs
/// O(`count / every`) per value: the value is appended to each open array.
public struct CollectStateMachine<Value> {
    /// The open arrays, oldest first: each started at a value `every` after the one before.
    @usableFromInline
    var open: [[Value]] = []
    /// How many values are still to come before the next array starts (0: the next value
    /// starts one).
    @usableFromInline
    var untilNextStart = 0
    /// How many values make an array.
    public let count: Int
    /// How many values apart arrays start.
    public let every: Int

    /// A machine gathering arrays of `count`, one after another.
    ///
    /// - Precondition: `count` is at least 1.
    @inlinable
    public init(count: Int) {
        precondition(count >= 1, "collect(_:) needs a count of at least 1, got \(count)")
        self.count = count
        self.every = count
    }

    /// A machine gathering arrays of `count`, one starting at every `every`-th value.
    ///
    /// - Precondition: `count` and `every` are at least 1.
    @inlinable
    public init(count: Int, every: Int) {
        precondition(count >= 1, "collect(count:every:) needs a count of at least 1, got \(count)")
        precondition(every >= 1, "collect(count:every:) needs an every of at least 1, got \(every)")
        self.count = count
        self.every = every
    }

    /// The capacity to reserve for an array of `count`: a large count (up to `Int.max`) is
    /// gathered as values come, not allocated up front.
    @usableFromInline
    static func reserved(for count: Int) -> Int { Swift.min(count, 1_024) }

    /// The values of the oldest open array (empty if none is open).
    @inlinable
    public var pending: [Value] { open.first ?? [] }

    /// Takes in `value`; returns the full array to pass on, if this value completed one.
    @inlinable
    public mutating func receive(_ value: Value) -> [Value]? {
        if untilNextStart == 0 {
            var array: [Value] = []
            array.reserveCapacity(Self.reserved(for: count))
            open.append(array)
            untilNextStart = every
        }
        untilNextStart -= 1
        // Between arrays (`every` above `count`) none is open, and the value is in none.
        for index in open.indices { open[index].append(value) }
        guard let oldest = open.first, oldest.count == count else { return nil }
        return open.removeFirst()
    }

    /// Takes out the oldest open array early (a time window ended); `nil` if none is open.
    /// The arrays after it stay open.
    @inlinable
    public mutating func flush() -> [Value]? {
        open.isEmpty ? nil : open.removeFirst()
    }

    /// The stream ends: the arrays still open, oldest first, to pass on before the end.
    @inlinable
    public mutating func finish() -> [[Value]] {
        defer {
            open = []
            untilNextStart = 0
        }
        return open
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
