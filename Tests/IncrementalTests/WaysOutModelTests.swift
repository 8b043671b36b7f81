import Incremental
import Observation
import ReactiveCore
import TestSupport
import Testing

/// Every way out of a collection node (the Observation bridge, the delta bridges, a second
/// graph driven by them, derived collections, the inspector) follows the node's whole state,
/// including its replacement by `flatMap` (a switch to another collection, a rebuilt one, an
/// error and a recovery), compared after every step with a plain `observe` of the node and
/// with a model computed from plain arrays.
@Suite("Incremental: every way out of a collection node follows switches, errors and batches")
struct WaysOutModelTests {
    struct Thrown: Error {}

    /// A plain array kept by a bridge's deltas.
    final class ArrayReplica: DeltaTarget {
        var elements: [Int] = []
        func apply(_ deltas: [ArrayDelta<Int>]) {
            for delta in deltas { delta.apply(to: &elements) }
        }
    }

    /// A plain dictionary kept by a bridge's deltas.
    final class DictionaryReplica: DeltaTarget {
        var entries: [Int: Int] = [:]
        func apply(_ deltas: [DictionaryDelta<Int, Int>]) {
            for delta in deltas { delta.apply(to: &entries) }
        }
    }

    struct Selection: Equatable {
        var mode: Int
        var threshold: Int
    }

    /// The graph under test: `node` is a `flatMap` whose value comes from another collection
    /// for each mode (a filter it makes afresh, an input itself, another input, a sorted
    /// array, an error), and the threshold's value 13 is an error upstream of it.
    final class World {
        let graph = Graph()
        let todos: ArrayInput<Int>
        let others: ArrayInput<Int>
        let mode: Input<Int>
        let threshold: Input<Int>
        let node: I<IncrementalArray<Int>>
        let people: DictionaryInput<Int, Int>
        let onlyHigh: Input<Bool>
        let chosenPeople: I<IncrementalDictionary<Int, Int>>
        let peopleRows: I<IncrementalArray<String>>

        var model = (todos: [1, 2, 3, 4], others: [7, 5], mode: 0, threshold: 2)
        var peopleModel: [Int: Int] = [1: 10, 2: 60, 3: 90]
        var onlyHighModel = false

        // The ways out.
        var plain: [Int] = []
        var plainPeople: [Int: Int] = [:]
        var observed: ObservedArray<Int>
        let observedValue: ObservedValue<IncrementalArray<Int>>
        let view: ViewEvaluation
        var shown: [Int] = []
        let replica = ArrayReplica()
        let peopleReplica = DictionaryReplica()
        let mirrorGraph = Graph()
        let mirror: ArrayInput<Int>
        var mirrorSum = 0
        var tens: [Int] = []
        var descending: [Int] = []
        var total = 0
        var observedRows: ObservedArray<String>
        /// Whether `observed` was made while the node held an error (it is empty until the
        /// node has a value).
        var observedMadeInError = false
        var connections: [Connection] = []

        init() {
            todos = graph.arrayInput(model.todos)
            others = graph.arrayInput(model.others)
            mode = graph.input(model.mode)
            threshold = graph.input(model.threshold)
            let selection = map2(mode, threshold) { mode, threshold throws -> Selection in
                if threshold == 13 { throw Thrown() }
                return Selection(mode: mode, threshold: threshold)
            }
            let (todos, others) = (todos, others)
            node = selection.flatMap { selection in
                switch selection.mode {
                case 0: todos.filterElements { $0 >= selection.threshold }
                case 1: todos
                case 2: others
                case 3: others.sortedElements(by: <)
                default: throw Thrown()
                }
            }
            people = graph.dictionaryInput(peopleModel)
            onlyHigh = graph.input(false)
            let people = people
            chosenPeople = onlyHigh.flatMap { onlyHigh in
                onlyHigh ? people.filterEntries { _, score in score >= 50 } : people
            }
            peopleRows = chosenPeople.sortedEntries { $0.key < $1.key }.mapElements { "\($0.key):\($0.value)" }
            mirror = mirrorGraph.arrayInput([Int]())

            observed = node.observedElements()
            observedValue = node.observed()
            observedRows = peopleRows.observedElements()
            let observed = observed
            var shown: [Int] = []
            view = ViewEvaluation { shown = Array(observed) }
            self.shown = shown
            connections.append(node.observe { [unowned self] in plain = $0.elements })
            connections.append(chosenPeople.observe { [unowned self] in plainPeople = $0.entries })
            connections.append(node.elementDeltas().drive(replica))
            connections.append(chosenPeople.entryDeltas().drive(peopleReplica))
            connections.append(node.elementDeltas().drive(mirror))
            connections.append(mirror.sum().observe { [unowned self] in mirrorSum = $0 })
            connections.append(node.mapElements { $0 * 10 }.observe { [unowned self] in tens = $0.elements })
            connections.append(node.sortedElements(by: >).observe { [unowned self] in descending = $0.elements })
            connections.append(node.sum().observe { [unowned self] in total = $0 })
        }

        /// The node's elements by the model, or `nil` for an error.
        var expected: [Int]? {
            if model.threshold == 13 { return nil }
            switch model.mode {
            case 0: return model.todos.filter { $0 >= model.threshold }
            case 1: return model.todos
            case 2: return model.others
            case 3: return model.others.sorted()
            default: return nil
            }
        }

        var expectedPeople: [Int: Int] {
            onlyHighModel ? peopleModel.filter { $0.value >= 50 } : peopleModel
        }

        /// What the node's inspection shows as its value.
        var inspected: String? {
            node.inspect().nodes.first { $0.kind.hasPrefix("Bind<Selection") }?.value
        }

        func check(_ context: String) {
            if let expected {
                #expect(plain == expected, "\(context): plain observe")
            }
            if observedMadeInError && expected == nil {
                #expect(observed.isEmpty, "\(context): observedElements made while the node held an error")
            } else {
                observedMadeInError = false
                #expect(Array(observed) == plain, "\(context): observedElements")
            }
            #expect(observedValue.value.elements == plain, "\(context): observed()")
            #expect(replica.elements == plain, "\(context): elementDeltas")
            #expect(mirror.value.elements == plain, "\(context): a graph driven by elementDeltas")
            #expect(mirrorSum == plain.reduce(0, +), "\(context): a sum of the driven graph")
            if expected != nil {
                #expect(tens == plain.map { $0 * 10 }, "\(context): mapElements")
                #expect(descending == plain.sorted(by: >), "\(context): sortedElements")
                #expect(total == plain.reduce(0, +), "\(context): sum")
                // The inspector shortens long values, ending them with "…".
                let shown = inspected ?? ""
                let isWhole = shown == "\(plain)"
                let isPrefix = shown.hasSuffix("…") && "\(plain)".hasPrefix(shown.dropLast())
                #expect(isWhole || isPrefix, "\(context): the inspector shows \(shown), not \(plain)")
            } else {
                #expect(inspected?.hasPrefix("error(") == true, "\(context): the inspector shows the error")
            }
            #expect(plainPeople == expectedPeople, "\(context): plain observe of the dictionary")
            #expect(peopleReplica.entries == plainPeople, "\(context): entryDeltas")
            let rows = plainPeople.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            #expect(Array(observedRows) == rows, "\(context): dictionary → sortedEntries → mapElements, observed")
            view.renderIfNeeded()
        }

        func randomStep(using random: inout SeededGenerator) {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<3:
                let index = Int.random(in: 0...model.todos.count, using: &random)
                let value = Int.random(in: 0..<10, using: &random)
                model.todos.insert(value, at: index)
                todos.insert(value, at: index)
            case 3..<5 where !model.todos.isEmpty:
                let index = Int.random(in: 0..<model.todos.count, using: &random)
                model.todos.remove(at: index)
                todos.remove(at: index)
            case 5 where !model.todos.isEmpty:
                let index = Int.random(in: 0..<model.todos.count, using: &random)
                let value = Int.random(in: 0..<10, using: &random)
                model.todos[index] = value
                todos[index] = value
            case 6..<8:
                let index = Int.random(in: 0...model.others.count, using: &random)
                let value = Int.random(in: 0..<10, using: &random)
                model.others.insert(value, at: index)
                others.insert(value, at: index)
            case 8 where !model.others.isEmpty:
                let index = Int.random(in: 0..<model.others.count, using: &random)
                model.others.remove(at: index)
                others.remove(at: index)
            case 9..<12:
                model.mode = Int.random(in: 0...4, using: &random)
                mode.write(model.mode)
            case 12..<14:
                model.threshold = [0, 2, 3, 5, 13].randomElement(using: &random)!
                threshold.write(model.threshold)
            case 14:
                let elements = (0..<Int.random(in: 0..<6, using: &random)).map { _ in
                    Int.random(in: 0..<10, using: &random)
                }
                model.todos = elements
                todos.replaceAll(with: elements)
            case 15:
                // A batch of edits and switches; sometimes it reverts what it did.
                let reverts = Bool.random(using: &random)
                let (modeBefore, count) = (model.mode, model.todos.count)
                graph.batch {
                    todos.append(8)
                    mode.write(Int.random(in: 0...3, using: &random))
                    others.append(1)
                    if reverts {
                        todos.remove(at: count)
                        mode.write(modeBefore)
                        others.remove(at: others.count - 1)
                    }
                }
                if !reverts {
                    model.todos.append(8)
                    model.mode = mode.value
                    model.others.append(1)
                }
            case 16:
                let key = Int.random(in: 0..<6, using: &random)
                let score: Int? = Bool.random(using: &random) ? Int.random(in: 0..<100, using: &random) : nil
                peopleModel[key] = score
                people[key] = score
            case 17:
                onlyHighModel.toggle()
                onlyHigh.write(onlyHighModel)
            case 18:
                // An observed array made again while the node may hold an error: it starts
                // from the node's last value.
                observed.disconnect()
                observed = node.observedElements()
                observedMadeInError = expected == nil
            default:
                observedRows.disconnect()
                observedRows = peopleRows.observedElements()
            }
        }
    }

    @Test(
        "random edits, switches, errors and batches: each way out equals a plain observe after every step",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func modelBased(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let world = World()
        world.check("seed \(seed), start")
        for step in 0..<500 {
            world.randomStep(using: &random)
            world.check("seed \(seed), step \(step)")
        }
    }

    @Test("steady edits through filter, sort and map are applied edit by edit: no reader rebuilds")
    func noRebuildInSteadyState() {
        let graph = Graph()
        let input = graph.arrayInput(Array(0..<1_000))
        var predicateCalls = 0
        var transformCalls = 0
        let view = input.filterElements {
            predicateCalls += 1
            return $0 % 3 != 0
        }
        .sortedElements(by: <)
        .mapElements {
            transformCalls += 1
            return $0 * 2
        }
        let observed = view.observedElements()
        let counts = (predicateCalls, transformCalls)
        for value in 1_000..<1_100 {
            input.append(value)
            input.remove(at: 0)
        }
        #expect(predicateCalls - counts.0 == 100, "one predicate call per inserted element")
        #expect(transformCalls - counts.1 <= 100, "one transform per inserted element that passes")
        #expect(Array(observed) == (100..<1_100).filter { $0 % 3 != 0 }.map { $0 * 2 })
    }

    @Test("a filter switched by flatMap as the first change: the observed array and derived arrays follow it")
    func switchAsFirstChange() {
        let graph = Graph()
        let todos = graph.arrayInput([1, 2, 3, 4])
        let selection = graph.input(false)
        let node = selection.flatMap { strict in todos.filterElements { $0 >= (strict ? 3 : 2) } }
        let observed = node.observedElements()
        var tens: [Int] = []
        let connection = node.mapElements { $0 * 10 }.observe { tens = $0.elements }
        #expect(Array(observed) == [2, 3, 4])
        selection.write(true)
        #expect(node.value.elements == [3, 4])
        #expect(Array(observed) == [3, 4])
        #expect(tens == [30, 40])
        todos.append(5)
        selection.write(false)
        #expect(Array(observed) == [2, 3, 4, 5])
        #expect(tens == [20, 30, 40, 50])
        todos.insert(6, at: 0)
        #expect(Array(observed) == [6, 2, 3, 4, 5])
        #expect(tens == [60, 20, 30, 40, 50])
        connection.disconnect()
    }

    @Test(
        "a flatMap that throws and recovers: the observed array follows the recovered collection, and later edits apply"
    )
    func throwAndRecover() {
        let graph = Graph()
        let todos = graph.arrayInput([1, 2, 3, 4])
        let selection = graph.input(0)
        let node = selection.flatMap { mode -> I<IncrementalArray<Int>> in
            if mode == 1 { throw Thrown() }
            return todos.filterElements { $0 >= mode }
        }
        let observed = node.observedElements()
        selection.write(1)
        #expect(Array(observed) == [1, 2, 3, 4])
        selection.write(3)
        #expect(Array(observed) == [3, 4])
        todos.append(5)
        todos.insert(9, at: 0)
        #expect(Array(observed) == [9, 3, 4, 5])
    }

    @Test("a dictionary switched by flatMap, sorted and mapped: the observed rows follow the switch and later edits")
    func dictionaryPipeline() {
        let graph = Graph()
        let scores = graph.dictionaryInput([1: 10, 2: 60, 3: 90])
        let onlyHigh = graph.input(false)
        let rows = onlyHigh.flatMap { high in high ? scores.filterEntries { $1 >= 50 } : scores }
            .sortedEntries { $0.key < $1.key }
            .mapElements { "\($0.key):\($0.value)" }
        let observed = rows.observedElements()
        onlyHigh.write(true)
        #expect(Array(observed) == ["2:60", "3:90"])
        scores[4] = 70
        onlyHigh.write(false)
        #expect(Array(observed) == ["1:10", "2:60", "3:90", "4:70"])
        scores[0] = 5
        #expect(Array(observed) == ["0:5", "1:10", "2:60", "3:90", "4:70"])
    }
}
