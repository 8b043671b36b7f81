import ReactiveCore

/// A random program over the shared scenarios' vocabulary (inputs, derived cells, observers,
/// writes), run through every paradigm's adapter and checked, step by step, against a
/// reference that computes every cell from scratch.
///
/// The rules every paradigm is held to, after each step:
///
/// 1. Every observer's last value is its cell's value, as the reference computes it from the
///    inputs: no paradigm shows a stale or wrong value once a write returns.
/// 2. An observer of a paradigm that does not document intermediate values (see
///    ``ParadigmAdapter/showsIntermediateValues``) receives, during a step, only its cell's new
///    value (or nothing, or the value repeated): never a mix of old and new inputs. In a step
///    that writes two inputs in one batch, a paradigm without batches
///    (``ParadigmAdapter/batchesWrites``) may show the value between the two writes.
/// 3. An observer receives its cell's value when it starts observing, and nothing after it
///    stops.
///
/// A cell reached from the inputs by more than ``pathLimit`` paths is not made (the step is
/// skipped in every paradigm alike): paradigms that push once per path, or recompute on each
/// read, would take exponential time on it, which is their documented cost, not a divergence.
///
/// Repeating an equal value is allowed everywhere: paradigms differ in whether a write of the
/// same value, or a change that leaves a derived value equal, reaches observers (the
/// semantics matrix's "Equality" row).
public struct DifferentialProgram: Sendable, CustomStringConvertible {
    /// A pure function of one value, from a fixed set (so programs can be printed and decoded).
    public enum Unary: UInt8, Sendable, CaseIterable {
        case increment, double, negate, quarter, square, clamp

        func callAsFunction(_ value: Int) -> Int {
            switch self {
            case .increment: value &+ 1
            case .double: value &* 2
            case .negate: 0 &- value
            case .quarter: value / 4
            case .square: (value % 1_000) &* (value % 1_000)
            case .clamp: min(max(value, -10), 10)
            }
        }
    }

    /// A pure function of two values, from a fixed set.
    public enum Binary: UInt8, Sendable, CaseIterable {
        case add, subtract, maximum, product

        func callAsFunction(_ first: Int, _ second: Int) -> Int {
            switch self {
            case .add: first &+ second
            case .subtract: first &- second
            case .maximum: max(first, second)
            case .product: (first % 1_000) &* (second % 1_000)
            }
        }
    }

    /// One step of a program. Indices refer to the cells (or observers) made so far, modulo
    /// their count, so every decoded program is valid.
    public enum Operation: Sendable {
        /// A new input holding the value.
        case input(Int)
        /// A new cell: a function of a cell.
        case map(Int, Unary)
        /// A new cell: a function of two cells.
        case combine(Int, Int, Binary)
        /// A new observer of a cell.
        case observe(Int)
        /// The observer stops.
        case stop(Int)
        /// A write to an input.
        case write(Int, Int)
        /// A new cell: the second cell's value while the first is nonzero, the third's
        /// otherwise (through the paradigm's dynamic dependencies, where it has them).
        case select(Int, Int, Int)
        /// Two writes in one batch of the paradigm (see `CellGraph.batch(_:)`).
        case batch(Int, Int, Int, Int)
    }

    /// The steps, in order.
    public var operations: [Operation]

    /// The most paths from the inputs a cell may have.
    public static let pathLimit = 64

    /// A program of `operations`.
    public init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// A program decoded from bytes (what libFuzzer hands a target): three bytes per step.
    public init(bytes: [UInt8]) {
        var operations: [Operation] = []
        var index = 0
        while index + 2 < bytes.count {
            let (kind, first, second) = (bytes[index], Int(bytes[index + 1]), Int(bytes[index + 2]))
            index += 3
            switch kind % 8 {
            case 0: operations.append(.input(first - 128))
            case 1: operations.append(.map(first, Unary.allCases[second % Unary.allCases.count]))
            case 2: operations.append(.combine(first, second, Binary.allCases[Int(kind / 8) % Binary.allCases.count]))
            case 3: operations.append(.observe(first))
            case 4: operations.append(.stop(first))
            case 5: operations.append(.select(first, second, Int(kind / 8)))
            case 6: operations.append(.batch(first, second - 128, Int(kind / 8), (first ^ second) - 128))
            default: operations.append(.write(first, second - 128))
            }
        }
        self.init(operations)
    }

    /// A random program of `length` steps from `seed`: reproducible, and printed by a failing test.
    public init(seed: UInt64, length: Int) {
        var state = seed
        func next(_ bound: Int) -> Int {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var operations: [Operation] = [.input(next(20))]
        for _ in 1..<max(length, 2) {
            switch next(12) {
            case 0: operations.append(.input(next(20) - 10))
            case 1, 2: operations.append(.map(next(64), Unary.allCases[next(Unary.allCases.count)]))
            case 3, 4: operations.append(.combine(next(64), next(64), Binary.allCases[next(Binary.allCases.count)]))
            case 5: operations.append(.observe(next(64)))
            case 6: operations.append(.stop(next(64)))
            case 8: operations.append(.select(next(64), next(64), next(64)))
            case 9: operations.append(.batch(next(64), next(40) - 20, next(64), next(40) - 20))
            default: operations.append(.write(next(64), next(40) - 20))
            }
        }
        self.init(operations)
    }

    /// The steps, one per line.
    public var description: String {
        operations.enumerated().map { "\($0): \($1)" }.joined(separator: "\n")
    }
}

/// How a paradigm's run of a ``DifferentialProgram`` broke one of its rules.
public struct Divergence: Sendable, CustomStringConvertible {
    /// The paradigm.
    public var paradigm: String
    /// The step after which the rule did not hold.
    public var step: Int
    /// What was seen against what the reference computed.
    public var detail: String

    /// "`paradigm`, step `step`: `detail`".
    public var description: String { "\(paradigm), step \(step): \(detail)" }
}

extension DifferentialProgram {
    /// Runs the program through `adapter` and returns the first rule it breaks, if any.
    public func divergence(in adapter: some ParadigmAdapter) -> Divergence? {
        let graph = adapter.makeGraph()
        return run(
            on: graph, paradigm: adapter.name, allowsIntermediate: adapter.showsIntermediateValues,
            batches: adapter.batchesWrites)
    }

    /// The rules checked on one graph; generic so that the cells keep the adapter's type.
    private func run<Graph: CellGraph>(
        on graph: Graph, paradigm: String, allowsIntermediate: Bool, batches: Bool
    ) -> Divergence? {
        let reference = ReferenceCells()
        var cells: [Graph.Cell] = []
        var inputs: [Int] = []  // indices into `cells`
        var observers: [(cell: Int, log: ObserverLog, connection: Connection)] = []
        var stopped: [ObserverLog] = []
        defer { for observer in observers { observer.connection.disconnect() } }
        for (step, operation) in operations.enumerated() {
            // Writes the paradigm shows one by one may show the values between them.
            var intermediateAllowed = allowsIntermediate
            for log in observers.map(\.log) + stopped { log.startStep() }
            switch operation {
            case .input(let value):
                cells.append(graph.input(value))
                inputs.append(reference.addInput(value))
            case .map(let source, let function) where !cells.isEmpty:
                let source = source % cells.count
                guard reference.paths(to: source) <= Self.pathLimit else { continue }
                cells.append(graph.map(cells[source], { function($0) }))
                _ = reference.addMap(source, function)
            case .combine(let first, let second, let function) where !cells.isEmpty:
                let (first, second) = (first % cells.count, second % cells.count)
                guard reference.paths(to: first) + reference.paths(to: second) <= Self.pathLimit else { continue }
                cells.append(graph.combine(cells[first], cells[second], { function($0, $1) }))
                _ = reference.addCombine(first, second, function)
            case .observe(let cell) where !cells.isEmpty:
                let cell = cell % cells.count
                let log = ObserverLog()
                let connection = graph.observe(cells[cell]) { log.receive($0) }
                observers.append((cell, log, connection))
                let expected = reference.value(of: cell)
                guard log.received == [expected] || (intermediateAllowed && log.received.last == expected) else {
                    return Divergence(
                        paradigm: paradigm, step: step,
                        detail: "a new observer of cell \(cell) received \(log.received), expected [\(expected)]")
                }
                continue
            case .stop(let index) where !observers.isEmpty:
                let observer = observers.remove(at: index % observers.count)
                observer.connection.disconnect()
                stopped.append(observer.log)
            case .write(let input, let value) where !inputs.isEmpty:
                let cell = inputs[input % inputs.count]
                graph.set(cells[cell], to: value)
                reference.write(cell, value)
            case .select(let condition, let whenTrue, let whenFalse) where !cells.isEmpty:
                let (condition, whenTrue, whenFalse) = (
                    condition % cells.count, whenTrue % cells.count, whenFalse % cells.count
                )
                let paths = [condition, whenTrue, whenFalse].map(reference.paths(to:)).reduce(0, +)
                guard paths <= Self.pathLimit else { continue }
                cells.append(graph.select(cells[condition], cells[whenTrue], cells[whenFalse]) { $0 != 0 })
                _ = reference.addSelect(condition, whenTrue, whenFalse)
            case .batch(let first, let firstValue, let second, let secondValue) where !inputs.isEmpty:
                let (firstCell, secondCell) = (inputs[first % inputs.count], inputs[second % inputs.count])
                graph.batch {
                    graph.set(cells[firstCell], to: firstValue)
                    graph.set(cells[secondCell], to: secondValue)
                }
                reference.write(firstCell, firstValue)
                reference.write(secondCell, secondValue)
                intermediateAllowed = intermediateAllowed || !batches
            default:
                continue
            }
            for observer in observers {
                let expected = reference.value(of: observer.cell)
                let received = observer.log.thisStep
                let last = observer.log.received.last
                guard last == expected else {
                    return Divergence(
                        paradigm: paradigm, step: step,
                        detail:
                            "an observer of cell \(observer.cell) last received \(last.map(String.init) ?? "nothing"), "
                            + "expected \(expected) (this step: \(received))")
                }
                if !intermediateAllowed, received.contains(where: { $0 != expected }) {
                    return Divergence(
                        paradigm: paradigm, step: step,
                        detail: "an observer of cell \(observer.cell) received \(received) this step, "
                            + "a value other than \(expected): an intermediate value")
                }
            }
            if let late = stopped.first(where: { !$0.thisStep.isEmpty }) {
                return Divergence(
                    paradigm: paradigm, step: step, detail: "an observer received \(late.thisStep) after it stopped")
            }
        }
        return nil
    }
}

/// What one observer received, overall and during the current step.
private final class ObserverLog {
    var received: [Int] = []
    var thisStep: [Int] = []

    func startStep() { thisStep = [] }

    func receive(_ value: Int) {
        received.append(value)
        thisStep.append(value)
    }
}

/// The reference: every cell's value computed from scratch, from the inputs, with plain
/// functions; written apart from every adapter.
private final class ReferenceCells {
    private enum Definition {
        case input
        case map(Int, DifferentialProgram.Unary)
        case combine(Int, Int, DifferentialProgram.Binary)
        case select(Int, Int, Int)
    }

    private var definitions: [Definition] = []
    private var inputValues: [Int: Int] = [:]
    private var pathCounts: [Int] = []

    /// How many paths lead from the inputs to the cell.
    func paths(to cell: Int) -> Int { pathCounts[cell] }

    func addInput(_ value: Int) -> Int {
        pathCounts.append(1)
        definitions.append(.input)
        inputValues[definitions.count - 1] = value
        return definitions.count - 1
    }

    func addMap(_ source: Int, _ function: DifferentialProgram.Unary) -> Int {
        pathCounts.append(pathCounts[source])
        definitions.append(.map(source, function))
        return definitions.count - 1
    }

    func addCombine(_ first: Int, _ second: Int, _ function: DifferentialProgram.Binary) -> Int {
        pathCounts.append(pathCounts[first] + pathCounts[second])
        definitions.append(.combine(first, second, function))
        return definitions.count - 1
    }

    func addSelect(_ condition: Int, _ whenTrue: Int, _ whenFalse: Int) -> Int {
        pathCounts.append(pathCounts[condition] + pathCounts[whenTrue] + pathCounts[whenFalse])
        definitions.append(.select(condition, whenTrue, whenFalse))
        return definitions.count - 1
    }

    func write(_ cell: Int, _ value: Int) { inputValues[cell] = value }

    /// The cell's value, computed from the inputs (memoized for this call only: a cell may be
    /// reached by many paths).
    func value(of cell: Int) -> Int {
        var memo: [Int: Int] = [:]
        func evaluate(_ cell: Int) -> Int {
            if let known = memo[cell] { return known }
            let value: Int
            switch definitions[cell] {
            case .input: value = inputValues[cell] ?? 0
            case .map(let source, let function): value = function(evaluate(source))
            case .combine(let first, let second, let function): value = function(evaluate(first), evaluate(second))
            case .select(let condition, let whenTrue, let whenFalse):
                value = evaluate(condition) != 0 ? evaluate(whenTrue) : evaluate(whenFalse)
            }
            memo[cell] = value
            return value
        }
        return evaluate(cell)
    }
}
