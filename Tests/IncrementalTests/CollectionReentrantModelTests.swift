import Incremental
import TestSupport
import Testing

/// Derived arrays observed and unobserved at random, read while unobserved (so they miss
/// changes and must catch up), edited in batches that undo themselves, and edited by their
/// own observers while notified; against recomputation from a plain array.
@Suite("Incremental collections: model with observers coming and going")
struct CollectionReentrantModelTests {
    final class World {
        let graph = Graph()
        let source: ArrayInput<Int>
        let evens: I<IncrementalArray<Int>>
        let labels: I<IncrementalArray<String>>
        let sorted: I<IncrementalArray<Int>>
        let total: I<Int>
        var model: [Int]
        var connections: [String: Connection] = [:]
        var last: [String: String] = [:]
        /// Edits observers may still make in this step.
        var budget = 0
        var editsByObservers = 0

        init(_ elements: [Int]) {
            model = elements
            source = graph.arrayInput(elements)
            evens = source.filterElements { $0.isMultiple(of: 2) }
            labels = evens.mapElements { "#\($0)" }
            sorted = source.sortedElements(by: <)
            total = source.sum()
        }

        var expected: [String: String] {
            let evens = model.filter { $0.isMultiple(of: 2) }
            return [
                "evens": "\(evens)", "labels": "\(evens.map { "#\($0)" })", "sorted": "\(model.sorted())",
                "total": "\(model.reduce(0, +))",
            ]
        }

        var read: [String: String] {
            [
                "evens": "\(evens.value.elements)", "labels": "\(labels.value.elements)",
                "sorted": "\(sorted.value.elements)", "total": "\(total.value)",
            ]
        }

        func insert(_ value: Int, at index: Int) {
            model.insert(value, at: index)
            source.insert(value, at: index)
        }

        func remove(at index: Int) {
            model.remove(at: index)
            source.remove(at: index)
        }

        /// The observer of the total appends the total's last digit while the budget lasts;
        /// the observer of the labels removes the first element when there are more than 30.
        func toggle(_ name: String) {
            if let connection = connections.removeValue(forKey: name) {
                connection.disconnect()
                last[name] = nil
                return
            }
            switch name {
            case "evens": connections[name] = evens.observe { [unowned self] in last[name] = "\($0.elements)" }
            case "labels":
                connections[name] = labels.observe { [unowned self] in
                    last[name] = "\($0.elements)"
                    if model.count > 30, budget > 0 { edit { remove(at: 0) } }
                }
            case "sorted": connections[name] = sorted.observe { [unowned self] in last[name] = "\($0.elements)" }
            default:
                connections[name] = total.observe { [unowned self] total in
                    last[name] = "\(total)"
                    if budget > 0 { edit { insert(total % 10, at: model.count) } }
                }
            }
        }

        private func edit(_ body: () -> Void) {
            budget -= 1
            editsByObservers += 1
            body()
        }
    }

    @Test(
        "derived arrays match recomputation through observers coming and going, unobserved reads and observer edits",
        arguments: [21, 22, 23, 24] as [UInt64])
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let world = World((0..<12).map { _ in Int.random(in: 0..<50, using: &random) })
        let names = ["evens", "labels", "sorted", "total"]
        for name in names where Bool.random(using: &random) { world.toggle(name) }
        for step in 0..<modelOperations / 2 {
            world.budget = 2
            let value = Int.random(in: 0..<50, using: &random)
            let count = world.model.count
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1: world.insert(value, at: Int.random(in: 0...count, using: &random))
            case 2 where count > 0: world.remove(at: Int.random(in: 0..<count, using: &random))
            case 3 where count > 0:
                let index = Int.random(in: 0..<count, using: &random)
                world.model[index] = value
                world.source[index] = value
            case 4:
                // A batch that undoes itself: nothing changes.
                world.graph.batch {
                    world.insert(value, at: 0)
                    world.remove(at: 0)
                }
            case 5:
                world.graph.batch {
                    world.insert(value, at: count)
                    if count > 0 { world.remove(at: Int.random(in: 0..<count, using: &random)) }
                }
            case 6: world.toggle(names.randomElement(using: &random)!)
            case 7:
                let name = names.randomElement(using: &random)!
                #expect(world.read[name] == world.expected[name], "seed \(seed), step \(step): read of \(name)")
            default:
                if count > 40 {
                    world.model.removeAll()
                    world.source.replaceAll(with: [])
                }
            }
            let expected = world.expected
            for name in world.connections.keys {
                #expect(world.last[name] == expected[name], "seed \(seed), step \(step): observer of \(name)")
            }
        }
        #expect(world.read == world.expected)
        #expect(world.editsByObservers > 0)
    }
}
