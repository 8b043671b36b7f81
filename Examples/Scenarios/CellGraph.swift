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

    /// What the paradigm's inspector shows of the graph these cells belong to (the cells
    /// listed are the scenario's inputs, then its observed cells): one inspection, or one per
    /// separate structure (a Signals chain per input). Empty where the paradigm has no engine
    /// to inspect (the baseline).
    func inspect(_ cells: [Cell]) -> [Inspection]
}

extension CellGraph {
    /// Nothing to inspect.
    public func inspect(_ cells: [Cell]) -> [Inspection] { [] }
}
