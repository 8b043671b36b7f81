import ReactiveCore

/// The vocabulary the shared scenarios are written in: writable inputs, derived cells, and
/// observers.
///
/// Each paradigm's adapter implements it with the paradigm's own types (a Glue `Variable`,
/// an Incremental input, a Signals `Property`, ...), so one scenario runs unchanged
/// through every paradigm. Cells are objects so that the teardown scenario can check that
/// they are freed.
public protocol CellGraph: AnyObject {
    /// The paradigm's handle on one value in the graph.
    associatedtype Cell: AnyObject

    /// A writable input holding `initial`.
    func input(_ initial: Int) -> Cell

    /// Writes `value` into `input`; observers see the consequences before this returns.
    func set(_ input: Cell, to value: Int)

    /// A cell derived from `source` by `transform`.
    func map(_ source: Cell, _ transform: @escaping (Int) -> Int) -> Cell

    /// A cell derived from two cells by `combine`.
    func combine(_ first: Cell, _ second: Cell, _ combine: @escaping (Int, Int) -> Int) -> Cell

    /// Delivers the cell's current value to `sink`, then every later value, until the
    /// connection disconnects.
    func observe(_ cell: Cell, _ sink: @escaping (Int) -> Void) -> Connection

    /// A cell that is `whenTrue`'s value while `condition` is nonzero, and `whenFalse`'s
    /// otherwise; `choose` is called each time the cell decides which to show (the
    /// conformance table counts the calls). A paradigm with dynamic dependencies reads only the
    /// branch chosen; the default reads both, through `combine`.
    func select(
        _ condition: Cell, _ whenTrue: Cell, _ whenFalse: Cell, choose: @escaping (Int) -> Bool
    ) -> Cell

    /// Runs `body`, whose writes the paradigm shows together if it can (a batch, a
    /// transaction, one action); the default runs it as it is.
    func batch(_ body: () -> Void)

    /// What the paradigm's inspector shows of the graph these cells belong to (the cells
    /// listed are the scenario's inputs, then its observed cells): one inspection, or one per
    /// separate structure (a Signals chain per input). Empty where the paradigm has no engine
    /// to inspect (the baseline).
    func inspect(_ cells: [Cell]) -> [Inspection]

    /// Where the paradigm keeps a history of its state (Resin's store), starts recording it
    /// and returns what makes the history's trace: a step per action with its state diff.
    /// `nil` elsewhere: the scenario's trace is then made by inspecting after each write.
    func recordHistory() -> (() -> Trace)?
}

extension CellGraph {
    /// Nothing to inspect.
    public func inspect(_ cells: [Cell]) -> [Inspection] { [] }

    /// No history.
    public func recordHistory() -> (() -> Trace)? { nil }

    /// A static selection: both branches are read, packed into one value (each is an `Int32`
    /// in the scenarios), and the choice is made from the condition and the pair.
    public func select(
        _ condition: Cell, _ whenTrue: Cell, _ whenFalse: Cell, choose: @escaping (Int) -> Bool
    ) -> Cell {
        let pair = combine(whenTrue, whenFalse) { first, second in
            Int(Int32(truncatingIfNeeded: first)) << 32 | Int(UInt32(truncatingIfNeeded: second))
        }
        // The closure keeps the pair's cell: in paradigms where a cell's own work lives as
        // long as the cell (Signals' chains), the pair would stop following its inputs.
        return combine(condition, pair) { [pair] condition, packed in
            withExtendedLifetime(pair) { choose(condition) ? packed >> 32 : Int(Int32(truncatingIfNeeded: packed)) }
        }
    }

    /// No batches: each write is shown on its own.
    public func batch(_ body: () -> Void) { body() }
}
