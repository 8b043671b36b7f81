// Arithmetic, comparison and boolean operators on observable values. Each combines its
// operands (see `combined(_:_:)`) and so reports one change per coordinated transaction.

/// The sum of two observable numbers.
public func + <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Lhs.Value> where Lhs.Value: Numeric, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, +)
}

/// The difference of two observable numbers.
public func - <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Lhs.Value> where Lhs.Value: Numeric, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, -)
}

/// The product of two observable numbers.
public func * <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Lhs.Value> where Lhs.Value: Numeric, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, *)
}

/// The quotient of two observable floating-point numbers.
public func / <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Lhs.Value>
where Lhs.Value: FloatingPoint, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, /)
}

/// Whether two observable values are equal.
public func == <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value: Equatable, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, ==)
}

/// Whether two observable values differ.
public func != <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value: Equatable, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, !=)
}

/// Whether the left observable value is less than the right.
public func < <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value: Comparable, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, <)
}

/// Whether the left observable value is greater than the right.
public func > <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value: Comparable, Rhs.Value == Lhs.Value {
    lhs.combined(rhs, >)
}

/// Whether both observable booleans are true.
public func && <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value == Bool, Rhs.Value == Bool {
    lhs.combined(rhs) { $0 && $1 }
}

/// Whether either observable boolean is true.
public func || <Lhs: ObservableValueType, Rhs: ObservableValueType>(
    lhs: Lhs, rhs: Rhs
) -> MappedObservable<CombinedObservable2<Lhs, Rhs>, Bool> where Lhs.Value == Bool, Rhs.Value == Bool {
    lhs.combined(rhs) { $0 || $1 }
}

/// The negation of an observable boolean.
public prefix func ! <Operand: ObservableValueType>(
    operand: Operand
) -> MappedObservable<Operand, Bool> where Operand.Value == Bool {
    operand.map { !$0 }
}
