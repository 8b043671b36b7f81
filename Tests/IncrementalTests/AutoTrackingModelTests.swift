import Incremental
import TestSupport
import Testing

/// Random graphs of computed values with branches (and explicit `map2` nodes among them),
/// observed by effects, against a from-scratch evaluation of the same formulas over plain
/// integers.
@Suite("Auto-tracking: model")
struct AutoTrackingModelTests {
    /// Node `index` of a program: `inputs + k` is the k-th derived node. A branch reads its
    /// condition first, then the operands of the side it takes; a sum (an explicit `map2`)
    /// reads both operands.
    private enum Formula {
        case branch(condition: Int, threshold: Int, then: [Int], otherwise: [Int])
        case sum(Int, Int)
    }

    private struct Program {
        var inputs: [Int]
        var formulas: [Formula]

        /// Every value, evaluated from scratch.
        func evaluate() -> [Int] {
            var values = inputs
            for formula in formulas {
                switch formula {
                case .branch(let condition, let threshold, let then, let otherwise):
                    let operands = values[condition] > threshold ? then : otherwise
                    values.append(operands.reduce(values[condition]) { ($0 + values[$1]) % 1_000 })
                case .sum(let a, let b):
                    values.append((values[a] + values[b]) % 1_000)
                }
            }
            return values
        }

        /// The nodes the values at `roots` read, directly or not, in the state `values`.
        func needed(from roots: [Int], values: [Int]) -> Set<Int> {
            var needed: Set<Int> = []
            var stack = roots
            while let index = stack.popLast() {
                guard index >= inputs.count, needed.insert(index).inserted else { continue }
                switch formulas[index - inputs.count] {
                case .branch(let condition, let threshold, let then, let otherwise):
                    stack.append(condition)
                    stack += values[condition] > threshold ? then : otherwise
                case .sum(let a, let b):
                    stack += [a, b]
                }
            }
            return needed
        }
    }

    @Test("values, effect runs and what is computed match a from-scratch evaluation", arguments: 0..<30)
    func matchesReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let inputCount = Int.random(in: 2...4, using: &random)
        var program = Program(
            inputs: (0..<inputCount).map { _ in Int.random(in: 0..<10, using: &random) }, formulas: [])
        let graph = Graph()
        var nodes: [I<Int>] = []
        let inputs = program.inputs.map { graph.input($0) }
        nodes += inputs.map(\.i)
        var runs: [Int] = []
        for index in inputCount..<(inputCount + Int.random(in: 4...14, using: &random)) {
            runs.append(0)
            let counter = runs.count - 1
            if index > inputCount + 1 && Int.random(in: 0..<4, using: &random) == 0 {
                let a = Int.random(in: 0..<index, using: &random)
                let b = Int.random(in: 0..<index, using: &random)
                program.formulas.append(.sum(a, b))
                nodes.append(
                    map2(nodes[a], nodes[b]) {
                        runs[counter] += 1
                        return ($0 + $1) % 1_000
                    })
                continue
            }
            let condition = Int.random(in: 0..<index, using: &random)
            let threshold = Int.random(in: 0..<10, using: &random)
            let then = (0..<Int.random(in: 0...2, using: &random)).map { _ in Int.random(in: 0..<index, using: &random)
            }
            let otherwise = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                Int.random(in: 0..<index, using: &random)
            }
            program.formulas.append(
                .branch(condition: condition, threshold: threshold, then: then, otherwise: otherwise))
            let known = nodes
            nodes.append(
                graph.computed {
                    runs[counter] += 1
                    let value = known[condition].value
                    return (value > threshold ? then : otherwise).reduce(value) { ($0 + known[$1].value) % 1_000 }
                })
        }
        let effectCount = Int.random(in: 1...3, using: &random)
        let observed = (0..<effectCount).map { _ in Int.random(in: inputCount..<nodes.count, using: &random) }
        var seen = Array(repeating: -1, count: effectCount)
        var effectRuns = Array(repeating: 0, count: effectCount)
        let scope = graph.effectScope {
            for (effect, index) in observed.enumerated() {
                let node = nodes[index]
                graph.effect {
                    seen[effect] = node.value
                    effectRuns[effect] += 1
                }
            }
        }
        var reference = program.evaluate()
        #expect(seen == observed.map { reference[$0] }, "seed \(seed)")
        for _ in 0..<60 {
            let before = reference
            let runsBefore = runs
            let effectRunsBefore = effectRuns
            let writes = Int.random(in: 1...3, using: &random)
            graph.batch {
                for _ in 0..<writes {
                    let input = Int.random(in: 0..<inputCount, using: &random)
                    let value = Int.random(in: 0..<10, using: &random)
                    inputs[input].write(value)
                    program.inputs[input] = value
                }
            }
            reference = program.evaluate()
            let needed = program.needed(from: observed, values: reference)
            for index in runs.indices where runs[index] != runsBefore[index] {
                #expect(runs[index] == runsBefore[index] + 1, "seed \(seed): node \(inputCount + index) ran twice")
                #expect(needed.contains(inputCount + index), "seed \(seed): node \(inputCount + index) is not needed")
            }
            for effect in observed.indices {
                #expect(seen[effect] == reference[observed[effect]], "seed \(seed)")
                let changed = before[observed[effect]] != reference[observed[effect]]
                #expect(effectRuns[effect] == effectRunsBefore[effect] + (changed ? 1 : 0), "seed \(seed)")
            }
            #expect(nodes.map(\.value) == reference, "seed \(seed)")
        }
        scope.dispose()
        #expect(!nodes.contains { $0.isNecessary }, "seed \(seed)")
    }
}
