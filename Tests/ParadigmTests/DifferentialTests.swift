import ReactiveCore
import Scenarios
import Testing

/// Differential programs: random inputs, derived cells, observers and writes through every
/// paradigm, each checked after every step against a from-scratch reference (see
/// `DifferentialProgram` for the rules and the differences they allow).
@Suite("Differential programs")
struct DifferentialTests {
    /// How many seeded programs each paradigm runs; `.ci/differential` runs more.
    static let programs = 1000

    @Test("seeded random programs: every paradigm keeps every rule at every step", arguments: ParadigmCatalog.adapters)
    func seeded(_ adapter: AnyParadigmAdapter) {
        for seed in 0..<UInt64(Self.programs) {
            let program = DifferentialProgram(seed: seed, length: 60)
            if let divergence = program.divergence(in: adapter) {
                Issue.record("seed \(seed): \(divergence)\n\(program)")
                return
            }
        }
    }

    @Test("the checks see a divergence: an observer shown a stale value is reported with its step")
    func detects() {
        let program = DifferentialProgram([.input(1), .map(0, .double), .observe(1), .write(0, 5)])
        #expect(program.divergence(in: StaleAdapter()) != nil)
        #expect(program.divergence(in: ParadigmCatalog.adapters[0]) == nil)
    }

    @Test("a glitch is a divergence for a glitch-free paradigm, and allowed where the matrix documents it")
    func glitches() {
        // d = (a + 1) + 2a: a diamond, observed, then a written.
        let program = DifferentialProgram([
            .input(1), .map(0, .increment), .map(0, .double), .combine(1, 2, .add), .observe(3), .write(0, 2),
        ])
        for adapter in ParadigmCatalog.adapters {
            #expect(program.divergence(in: adapter) == nil, "\(adapter.name)")
        }
        #expect(program.divergence(in: GlitchingAdapter(showsIntermediateValues: false)) != nil)
        #expect(program.divergence(in: GlitchingAdapter(showsIntermediateValues: true)) == nil)
    }

    @Test("programs decoded from bytes run, and the same bytes decode to the same program")
    func bytes() {
        let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let program = DifferentialProgram(bytes: bytes)
        #expect(program.operations.count == 100)
        #expect(program.description == DifferentialProgram(bytes: bytes).description)
        for adapter in ParadigmCatalog.adapters {
            #expect(program.divergence(in: adapter) == nil, "\(adapter.name)")
        }
    }
}

/// The baseline's eager push, claiming to be glitch-free or not.
private struct GlitchingAdapter: ParadigmAdapter {
    let showsIntermediateValues: Bool
    var name: String { "glitching" }
    func makeGraph() -> any CellGraph { BaselineAdapter().makeGraph() }
    func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        BaselineAdapter().makeList(initial: initial, label: label)
    }
    func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        BaselineAdapter().makeSearchBox(in: environment)
    }
}

/// A paradigm whose writes never reach anyone: every observer goes stale.
private struct StaleAdapter: ParadigmAdapter {
    var name: String { "stale" }
    func makeGraph() -> any CellGraph { StaleGraph() }
    func makeList(initial: [ListRow], label: @escaping (ListRow) -> String) -> any ListPipeline {
        BaselineAdapter().makeList(initial: initial, label: label)
    }
    func makeSearchBox(in environment: SearchEnvironment) -> any SearchBox {
        BaselineAdapter().makeSearchBox(in: environment)
    }
}

private final class StaleGraph: CellGraph {
    final class Cell {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    func input(_ initial: Int) -> Cell { Cell(initial) }
    func set(_ input: Cell, to value: Int) {}
    func map(_ source: Cell, _ transform: @escaping (Int) -> Int) -> Cell { Cell(transform(source.value)) }
    func combine(_ first: Cell, _ second: Cell, _ combine: @escaping (Int, Int) -> Int) -> Cell {
        Cell(combine(first.value, second.value))
    }
    func observe(_ cell: Cell, _ sink: @escaping (Int) -> Void) -> Connection {
        sink(cell.value)
        return Connection()
    }
}
