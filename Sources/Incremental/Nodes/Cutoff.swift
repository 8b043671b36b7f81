/// When a recomputed value counts as unchanged, so that propagation stops at it.
///
/// By default, a node of an `Equatable` type cuts off with `==`: if it recomputes to a value
/// equal to the one it had, nothing downstream recomputes and its observers are not told.
/// Other types always propagate. Change a node's cutoff with ``I/setCutoff(_:)``.
public struct Cutoff<Value> {
    let isEqual: ((Value, Value) -> Bool)?

    /// Every recomputation propagates, even to an equal value.
    public static var alwaysPropagate: Cutoff<Value> { Cutoff(isEqual: nil) }

    /// A recomputation that `isEqual` judges equal to the old value stops propagation.
    public static func custom(_ isEqual: @escaping (Value, Value) -> Bool) -> Cutoff<Value> {
        Cutoff(isEqual: isEqual)
    }

    /// `==` for `Equatable` types, ``alwaysPropagate`` for others. Decided once per node.
    static var `default`: Cutoff<Value> {
        guard let equatable = Value.self as? any Equatable.Type else { return .alwaysPropagate }
        return Cutoff(isEqual: equality(for: equatable))
    }

    private static func equality<E: Equatable>(for _: E.Type) -> (Value, Value) -> Bool {
        // `Value` is `E` here (the cast above succeeded), so the bit casts are identities.
        { unsafeBitCast($0, to: E.self) == unsafeBitCast($1, to: E.self) }
    }
}

extension Cutoff where Value: Equatable {
    /// A recomputation equal (`==`) to the old value stops propagation.
    public static var equal: Cutoff<Value> { Cutoff(isEqual: ==) }
}
