import Foundation
import Glue
import TestSupport
import Testing

/// Applies every change an observable collection reports to a replica, so a test can check
/// that the reported changes rebuild the collection exactly.
final class Replica<Change: ChangeType> {
    private(set) var value: Change.Value
    private(set) var transactions = 0
    private var connection: Connection?

    init<Observed: ObservableType>(of observed: Observed) where Observed.Change == Change {
        value = observed.value
        connection = observed.changes.subscribe { [unowned self] change in
            change.apply(on: &value)
            transactions += 1
        }
    }
}

/// The number of operations per model-based run; GLUE_MODEL_OPERATIONS raises it.
let modelOperations = Int(ProcessInfo.processInfo.environment["GLUE_MODEL_OPERATIONS"] ?? "") ?? 3_000

@Suite("Observable collections, model-based")
struct CollectionModelTests {
    @Test(
        "array map, filter, sorted and sum match recomputation through random edits", arguments: [1, 2, 3] as [UInt64])
    func arrayPipeline(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let source = ArrayVariable((0..<20).map { _ in Int.random(in: 0..<50, using: &random) })
        let isEven: (Int) -> Bool = { $0.isMultiple(of: 2) }
        let filtered = source.filter(isEven)
        let mapped = filtered.map { "#\($0)" }
        let sorted = source.sorted(by: <)
        let sum = source.sum()
        let filteredReplica = Replica(of: filtered)
        let mappedReplica = Replica(of: mapped)
        let sortedReplica = Replica(of: sorted)
        var model = source.value
        for step in 0..<modelOperations {
            let operation = Int.random(in: 0..<6, using: &random)
            let element = Int.random(in: 0..<50, using: &random)
            switch operation {
            case 0:
                let index = Int.random(in: 0...model.count, using: &random)
                source.insert(element, at: index)
                model.insert(element, at: index)
            case 1 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                source.remove(at: index)
                model.remove(at: index)
            case 2 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                source[index] = element
                model[index] = element
            case 3:
                let lower = Int.random(in: 0...model.count, using: &random)
                let upper = Int.random(in: lower...min(model.count, lower + 4), using: &random)
                let replacement = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    Int.random(in: 0..<50, using: &random)
                }
                source.replaceSubrange(lower..<upper, with: replacement)
                model.replaceSubrange(lower..<upper, with: replacement)
            case 4:
                source.withTransaction {
                    source.append(element)
                    if model.count > 1 { source.remove(at: 0) }
                }
                model.append(element)
                if model.count > 2 { model.remove(at: 0) }
            default:
                source.append(element)
                model.append(element)
            }
            guard source.value == model, filtered.value == model.filter(isEven),
                mapped.value == model.filter(isEven).map({ "#\($0)" }), sorted.value == model.sorted(),
                sum.value == model.reduce(0, +), filteredReplica.value == filtered.value,
                mappedReplica.value == mapped.value, sortedReplica.value == sorted.value
            else {
                Issue.record("array model diverged at step \(step); reproduce with seed \(seed)")
                return
            }
        }
    }

    @Test(
        "set filter, map, sorted and sum match recomputation through random changes", arguments: [1, 2, 3] as [UInt64])
    func setPipeline(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let source = SetVariable(Set((0..<30).map { _ in Int.random(in: 0..<100, using: &random) }))
        let filtered = source.filter { $0 % 3 != 0 }
        let tens = source.map { $0 / 10 }
        let sorted = filtered.sorted { ($0 % 10, $0) < ($1 % 10, $1) }
        let sum = filtered.sum()
        let tensReplica = Replica(of: tens)
        let sortedReplica = Replica(of: sorted)
        var model = source.value
        for step in 0..<modelOperations {
            let element = Int.random(in: 0..<100, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                source.insert(element)
                model.insert(element)
            case 2:
                source.remove(element)
                model.remove(element)
            case 3 where !model.isEmpty:
                let old = model.randomElement(using: &random)!
                source.replace(old, with: element)
                model.remove(old)
                model.insert(element)
            default:
                let other = Int.random(in: 0..<100, using: &random)
                source.withTransaction {
                    source.insert(element)
                    source.remove(other)
                }
                model.insert(element)
                model.remove(other)
            }
            let expectedFiltered = model.filter { $0 % 3 != 0 }
            guard source.value == model, filtered.value == expectedFiltered,
                tens.value == Set(model.map { $0 / 10 }),
                sorted.value == expectedFiltered.sorted(by: { ($0 % 10, $0) < ($1 % 10, $1) }),
                sum.value == expectedFiltered.reduce(0, +), tensReplica.value == tens.value,
                sortedReplica.value == sorted.value
            else {
                Issue.record("set model diverged at step \(step); reproduce with seed \(seed)")
                return
            }
        }
    }
}
