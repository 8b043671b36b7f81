import Glue

/// Glue in the shared scenarios: inputs are `Variable`s, derived cells are mapped and
/// combined observables, observers subscribe for the current value and every change.
public struct GlueAdapter: ParadigmAdapter {
    /// The lines of code of this file.
    public var linesOfCode: Int? { Scenarios.linesOfCode(inFile: #filePath) }

    /// Creates the adapter.
    public init() {}

    /// "Glue".
    public var name: String { "Glue" }

    /// A new graph of Glue observables.
    public func makeGraph() -> any CellGraph { GlueGraph() }
}

/// A cell: any Glue observable integer, held by reference so the teardown scenario can
/// watch it.
final class GlueCell {
    let observable: AnyObservableValue<Int>
    /// The variable behind an input cell.
    let variable: Variable<Int>?

    init(_ observable: AnyObservableValue<Int>, variable: Variable<Int>? = nil) {
        self.observable = observable
        self.variable = variable
    }
}

final class GlueGraph: CellGraph {
    func input(_ initial: Int) -> GlueCell {
        let variable = Variable(initial)
        return GlueCell(variable.anyObservableValue, variable: variable)
    }

    func set(_ input: GlueCell, to value: Int) {
        input.variable?.value = value
    }

    func map(_ source: GlueCell, _ transform: @escaping (Int) -> Int) -> GlueCell {
        GlueCell(source.observable.map(transform).anyObservableValue)
    }

    func combine(_ first: GlueCell, _ second: GlueCell, _ combine: @escaping (Int, Int) -> Int) -> GlueCell {
        GlueCell(first.observable.combined(second.observable, combine).anyObservableValue)
    }

    func observe(_ cell: GlueCell, _ sink: @escaping (Int) -> Void) -> Connection {
        cell.observable.subscribe(sink)
    }
}
