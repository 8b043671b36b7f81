import Incremental

/// A program of graph operations decoded from bytes: inputs, `map`, `map2`, `flatMap`
/// choices and auto-tracked `computed` ones, observers and effects (made and disposed),
/// writes, batches, reads and dropped handles. After every operation
/// outside a batch, each observer's last value, and each value read, must equal the value
/// evaluated from scratch from the inputs' values by the formulas below, which share no code
/// with the engine; no observer may be told the same value twice in a row; and once the
/// program drops everything, the graph must be freed. Any difference stops the process.
enum IncrementalProgram {
    /// How a node's value follows from others: the reference's whole model of the graph.
    enum Formula {
        case input(Int)
        case map(Int, operation: UInt8, operand: Int)
        case map2(Int, Int, operation: UInt8)
        /// `flatMap` (or a `computed` value) on the first: the second when it is even, the
        /// third otherwise.
        case choose(Int, Int, Int)
    }

    /// The values an observer was told, in order.
    final class Seen {
        var values: [Int] = []
    }

    static let maxNodes = 48
    static let maxObservers = 16

    static func apply(_ operation: UInt8, _ value: Int, _ operand: Int) -> Int {
        switch operation % 4 {
        case 0: value &+ operand
        case 1: value &* operand
        case 2: value / (operand + 1)
        default: value % (operand + 1)
        }
    }

    static func combine(_ operation: UInt8, _ a: Int, _ b: Int) -> Int {
        switch operation % 4 {
        case 0: a &+ b
        case 1: a &- b
        case 2: Swift.max(a, b)
        default: a &* 3 &+ b
        }
    }

    /// The value of node `index` from the inputs' values, from scratch.
    static func evaluate(_ index: Int, _ formulas: [Formula], _ inputs: [Int], _ memo: inout [Int?]) -> Int {
        if let known = memo[index] { return known }
        let value: Int
        switch formulas[index] {
        case .input(let input): value = inputs[input]
        case .map(let a, let operation, let operand):
            value = apply(operation, evaluate(a, formulas, inputs, &memo), operand)
        case .map2(let a, let b, let operation):
            value = combine(operation, evaluate(a, formulas, inputs, &memo), evaluate(b, formulas, inputs, &memo))
        case .choose(let c, let a, let b):
            value =
                evaluate(c, formulas, inputs, &memo) % 2 == 0
                ? evaluate(a, formulas, inputs, &memo) : evaluate(b, formulas, inputs, &memo)
        }
        memo[index] = value
        return value
    }

    /// Runs the program `bytes` decodes.
    static func run(_ bytes: [UInt8]) {
        var reader = bytes.makeIterator()
        weak var weakGraph: Graph?
        do {
            let graph = Graph()
            weakGraph = graph
            var inputValues: [Int] = []
            var inputs: [Input<Int>] = []
            var formulas: [Formula] = []
            var nodes: [I<Int>?] = []
            var observers: [(node: Int, seen: Seen, connection: Connection)] = []
            var effects: [(node: Int, seen: Seen, effect: RunningEffect)] = []

            func add(_ node: I<Int>, _ formula: Formula) {
                nodes.append(node)
                formulas.append(formula)
            }
            func live(_ byte: UInt8?) -> (Int, I<Int>)? {
                guard let byte, !nodes.isEmpty else { return nil }
                let index = Int(byte) % nodes.count
                return nodes[index].map { (index, $0) }
            }
            func write(_ inputByte: UInt8?, _ valueByte: UInt8?) {
                guard let inputByte, let valueByte, !inputs.isEmpty else { return }
                let index = Int(inputByte) % inputs.count
                inputValues[index] = Int(valueByte % 16)
                inputs[index].write(inputValues[index])
            }
            func check() {
                var memo = [Int?](repeating: nil, count: formulas.count)
                for observer in observers.map({ ($0.node, $0.seen) }) + effects.map({ ($0.node, $0.seen) }) {
                    let expected = evaluate(observer.0, formulas, inputValues, &memo)
                    precondition(
                        observer.1.values.last == expected,
                        "IncrementalFuzz: an observer or effect of node \(observer.0) last saw \(String(describing: observer.1.values.last)), the reference says \(expected)"
                    )
                }
            }

            while let opcode = reader.next() {
                switch opcode % 12 {
                case 0 where nodes.count < maxNodes:
                    let value = Int((reader.next() ?? 0) % 16)
                    inputs.append(graph.input(value))
                    inputValues.append(value)
                    add(inputs[inputs.count - 1], .input(inputs.count - 1))
                case 1 where nodes.count < maxNodes:
                    guard let (a, node) = live(reader.next()), let operation = reader.next() else { break }
                    let operand = Int((reader.next() ?? 1) % 8)
                    add(node.map { apply(operation, $0, operand) }, .map(a, operation: operation, operand: operand))
                case 2 where nodes.count < maxNodes:
                    guard let (a, first) = live(reader.next()), let (b, second) = live(reader.next()),
                        let operation = reader.next()
                    else { break }
                    add(map2(first, second) { combine(operation, $0, $1) }, .map2(a, b, operation: operation))
                case 3 where nodes.count < maxNodes:
                    guard let (c, condition) = live(reader.next()), let (a, even) = live(reader.next()),
                        let (b, odd) = live(reader.next())
                    else { break }
                    add(condition.flatMap { $0 % 2 == 0 ? even : odd }, .choose(c, a, b))
                case 4 where observers.count < maxObservers:
                    guard let (index, node) = live(reader.next()) else { break }
                    let seen = Seen()
                    let connection = node.observe { value in
                        precondition(
                            seen.values.last != value,
                            "IncrementalFuzz: an observer of node \(index) was told \(value) twice in a row")
                        seen.values.append(value)
                    }
                    observers.append((index, seen, connection))
                case 5:
                    guard let byte = reader.next(), !observers.isEmpty else { break }
                    observers.remove(at: Int(byte) % observers.count).connection.disconnect()
                case 6:
                    write(reader.next(), reader.next())
                case 7:
                    let count = Int((reader.next() ?? 0) % 4) + 1
                    graph.batch {
                        for _ in 0..<count { write(reader.next(), reader.next()) }
                    }
                case 8:
                    guard let (index, node) = live(reader.next()) else { break }
                    var memo = [Int?](repeating: nil, count: formulas.count)
                    let expected = evaluate(index, formulas, inputValues, &memo)
                    precondition(
                        node.value == expected,
                        "IncrementalFuzz: node \(index) reads \(node.value), the reference says \(expected)")
                case 9:
                    guard let byte = reader.next(), !nodes.isEmpty else { break }
                    let index = Int(byte) % nodes.count
                    // Inputs stay: the program writes them by index.
                    if case .input = formulas[index] { break }
                    nodes[index] = nil
                case 10 where nodes.count < maxNodes:
                    guard let (c, condition) = live(reader.next()), let (a, even) = live(reader.next()),
                        let (b, odd) = live(reader.next())
                    else { break }
                    add(graph.computed { condition.value % 2 == 0 ? even.value : odd.value }, .choose(c, a, b))
                case 11:
                    guard let byte = reader.next() else { break }
                    if byte % 2 == 1, !effects.isEmpty {
                        effects.remove(at: Int(byte / 2) % effects.count).effect.dispose()
                    } else if effects.count < maxObservers, let (index, node) = live(reader.next()) {
                        let seen = Seen()
                        let effect = graph.effect {
                            let value = node.value
                            precondition(
                                seen.values.last != value,
                                "IncrementalFuzz: an effect of node \(index) ran twice for \(value)")
                            seen.values.append(value)
                        }
                        effects.append((index, seen, effect))
                    }
                default:
                    break
                }
                check()
            }
            for observer in observers { observer.connection.disconnect() }
            for effect in effects { effect.effect.dispose() }
        }
        precondition(weakGraph == nil, "IncrementalFuzz: the graph outlived every node and connection")
    }
}
