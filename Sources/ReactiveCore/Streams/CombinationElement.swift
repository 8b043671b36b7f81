/// A value of one input of a combination (`zip`, `combineLatest`) whose inputs have up to three
/// different types: each input's values are tagged with its place, so that one
/// `ZipStateMachine` or `CombineLatestStateMachine` holds them all. Combinations of a
/// collection of inputs, all of one type, tag every value `first`. Package access: Glue's and
/// Cycle's combining operators share it, and build their rows with ``pair(_:)``,
/// ``triple(_:)`` and ``array(_:)``.
@usableFromInline
package enum CombinationElement<First, Second, Third> {
    case first(First)
    case second(Second)
    case third(Third)

    /// The row `visit` walks, as the tuple of a two-input combination.
    @inlinable
    package static func pair(_ visit: ((Int, Self) -> Void) -> Void) -> (First, Second) where Third == Void {
        var first: First?
        var second: Second?
        visit { _, element in
            if case .first(let value) = element { first = value }
            if case .second(let value) = element { second = value }
        }
        return (first!, second!)
    }

    /// The row `visit` walks, as the tuple of a three-input combination.
    @inlinable
    package static func triple(_ visit: ((Int, Self) -> Void) -> Void) -> (First, Second, Third) {
        var first: First?
        var second: Second?
        var third: Third?
        visit { _, element in
            switch element {
            case .first(let value): first = value
            case .second(let value): second = value
            case .third(let value): third = value
            }
        }
        return (first!, second!, third!)
    }

    /// The row `visit` walks, as the array of a combination of a collection of inputs.
    @inlinable
    package static func array(_ visit: ((Int, Self) -> Void) -> Void) -> [First] where Second == Void, Third == Void {
        var values: [First] = []
        visit { _, element in
            if case .first(let value) = element { values.append(value) }
        }
        return values
    }
}
