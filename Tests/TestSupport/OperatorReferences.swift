/// The plain-array references of the stream operators whose output does not depend on how two
/// inputs interleave, for the model tests of Glue's, Signals' and Cycle's operators: what each
/// operator passes for `values` (and, for zip, `otherValues`), one row per output, by operator
/// name. Written with the standard library only, apart from every operator under test.
///
/// `count` is the prefix and dropFirst count (collect's, at least 1); `limit` the predicates'
/// bound (`$0 < limit` while, `$0 >= limit` first); `every` how many values apart the arrays
/// of `collect(count:every:)` start ("collectEvery", the full arrays only: a stream that ends
/// sends the open ones too, ``openCollectArrays(values:count:every:)``).
public func orderFreeOperatorReferences(
    values: [Int], otherValues: [Int], count: Int, limit: Int, every: Int = 1
) -> [String: [[Int]]] {
    let size = max(count, 1)
    let starts = stride(from: 0, to: values.count, by: every)
    return [
        "prefixWhileInclusive": (values.prefix(while: { $0 < limit }) + values.filter { $0 >= limit }.prefix(1)).map {
            [$0]
        },
        "collectEvery": starts.filter { $0 + size <= values.count }.map { Array(values[$0..<$0 + size]) },
        "prefix": values.prefix(count).map { [$0] },
        "dropFirst": values.dropFirst(count).map { [$0] },
        "prefixWhile": values.prefix(while: { $0 < limit }).map { [$0] },
        "dropWhile": values.drop(while: { $0 < limit }).map { [$0] },
        "firstWhere": values.first(where: { $0 >= limit }).map { [[$0]] } ?? [],
        "pairwise": zip(values, values.dropFirst()).map { [$0, $1] },
        "collect": stride(from: 0, to: values.count - values.count % size, by: size).map {
            Array(values[$0..<$0 + size])
        },
        "zip": zip(values, otherValues).map { [$0, $1] },
    ]
}

/// The arrays of `collect(count:every:)` still open when `values` end, oldest first: those
/// that start at every `every`-th value and have fewer than `count` values.
public func openCollectArrays(values: [Int], count: Int, every: Int) -> [[Int]] {
    stride(from: 0, to: values.count, by: every).filter { $0 + count > values.count }.map { Array(values[$0...]) }
}
