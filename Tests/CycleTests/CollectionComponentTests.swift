import Cycle
import TestSupport
import Testing

private struct Child: Equatable {
    let id: Int
    var count = 0
}

private enum ChildEvent: Equatable {
    case add(Int)
}

private struct CollectionModels: Equatable {
    var counters: [Child] = []
    var total = 0
}

private enum CollectionEvent {
    case add(id: Int)
    case remove(id: Int)
    case counter(id: Int, ChildEvent)
}

private var child: Component<ChildEvent, Child> {
    Component { event, counter in
        switch event {
        case .add(let amount): counter.count += amount
        }
    }
}

private var collectionReducer: Component<CollectionEvent, CollectionModels> {
    Component<CollectionEvent, CollectionModels>.combine(
        Component { event, models in
            switch event {
            case .add(let id): models.counters.append(Child(id: id))
            case .remove(let id): models.counters.removeAll { $0.id == id }
            case .counter: break
            }
        },
        child.forEach(
            \.counters, id: \.id,
            events: { if case .counter(let id, let event) = $0 { (id, event) } else { nil } }),
        // Runs last: sees the children's writes for this event.
        Component { _, models in models.total = models.counters.reduce(0) { $0 + $1.count } })
}

@Suite("Cycle: a component for each element of a collection")
struct CollectionComponentTests {
    @Test("events reach the child with their id only; children come and go with their state")
    func routesById() {
        var models = CollectionModels()
        for event: CollectionEvent in [.add(id: 1), .add(id: 2), .counter(id: 2, .add(5)), .counter(id: 1, .add(1))] {
            collectionReducer.reduce(event, into: &models)
        }
        #expect(models.counters == [Child(id: 1, count: 1), Child(id: 2, count: 5)])
        collectionReducer.reduce(.remove(id: 1), into: &models)
        // An event for a child that is gone is dropped; a child added again starts afresh.
        collectionReducer.reduce(.counter(id: 1, .add(9)), into: &models)
        collectionReducer.reduce(.add(id: 1), into: &models)
        #expect(models.counters == [Child(id: 2, count: 5), Child(id: 1, count: 0)])
        #expect(models.total == 5)
    }

    @Test(
        "model: random adds, removals and child events against counters kept in a plain dictionary",
        arguments: 0..<10 as Range<UInt64>)
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var models = CollectionModels()
        var order: [Int] = []
        var counts: [Int: Int] = [:]
        var nextID = 0
        for _ in 0..<300 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                collectionReducer.reduce(.add(id: nextID), into: &models)
                order.append(nextID)
                counts[nextID] = 0
                nextID += 1
            case 1 where !order.isEmpty:
                let id = order.randomElement(using: &random)!
                collectionReducer.reduce(.remove(id: id), into: &models)
                order.removeAll { $0 == id }
                counts[id] = nil
            default:
                // Sometimes an id that was removed or never added.
                let id = Int.random(in: 0...nextID, using: &random)
                let amount = Int.random(in: -3...3, using: &random)
                collectionReducer.reduce(.counter(id: id, .add(amount)), into: &models)
                if counts[id] != nil { counts[id]! += amount }
            }
            #expect(models.counters.map(\.id) == order)
            #expect(models.counters.map(\.count) == order.map { counts[$0]! })
            #expect(models.total == counts.values.reduce(0, +))
        }
    }

    @Test("two elements with the id an event is routed to is a precondition failure")
    func duplicateID() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var models = CollectionModels(counters: [Child(id: 7), Child(id: 7)])
            collectionReducer.reduce(.counter(id: 7, .add(1)), into: &models)
        }
        expectStandardError(
            of: result, contains: "Cycle: two elements of a collection have the id 7; forEach routes each event to one")
    }
}
