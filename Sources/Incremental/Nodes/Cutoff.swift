/// When a recomputed value counts as unchanged, so that propagation stops at it.
///
/// The default, decided once per node from the type of its value:
///
/// | value | unchanged when |
/// | --- | --- |
/// | `Equatable` | `==` |
/// | a class instance (not `Equatable`) | the same instance (`===`) |
/// | anything else (tuples, closures, structs that are not `Equatable`) | never: every recomputation propagates |
///
/// If a node recomputes to a value its cutoff judges unchanged, nothing downstream
/// recomputes and its observers are not told. An input's cutoff decides whether a write
/// changes anything. Change a node's cutoff with ``I/setCutoff(_:)``.
public struct Cutoff<Value> {
    /// The comparison, or nil to always propagate; Resin's foci compare with it.
    package let isEqual: ((Value, Value) -> Bool)?

    /// Every recomputation propagates, even to an equal value.
    public static var alwaysPropagate: Cutoff<Value> { Cutoff(isEqual: nil) }

    /// A recomputation that `isEqual` judges equal to the old value stops propagation.
    public static func custom(_ isEqual: @escaping (Value, Value) -> Bool) -> Cutoff<Value> {
        Cutoff(isEqual: isEqual)
    }

    /// `==` for `Equatable` types, `===` for class types, ``alwaysPropagate`` for others.
    public static var `default`: Cutoff<Value> {
        if let equatable = Value.self as? any Equatable.Type {
            return Cutoff(isEqual: equality(for: equatable))
        }
        if Value.self is AnyObject.Type, MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size {
            return identity
        }
        return .alwaysPropagate
    }

    /// A recomputation that returns the same instance stops propagation.
    ///
    /// - Precondition: `Value` is a class type.
    public static var identity: Cutoff<Value> {
        precondition(
            Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size,
            "Incremental: Cutoff.identity needs a class type; \(Value.self) is not one")
        return Cutoff(isEqual: { unsafeBitCast($0, to: AnyObject.self) === unsafeBitCast($1, to: AnyObject.self) })
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
