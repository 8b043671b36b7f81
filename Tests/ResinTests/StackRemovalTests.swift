import Foundation
import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Trail: Equatable {
    var path = StackState<Int>()
}

/// Sent to the element holding `number`.
private struct Ping: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private struct Listen: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

/// The numbers of the elements whose waiting effect ended.
private final class Stopped: Sendable {
    private let numbers = LockedState<Set<Int>>([])
    var all: Set<Int> { numbers.withLock { $0 } }
    func add(_ number: Int) { _ = numbers.withLock { $0.insert(number) } }
}

@Suite("Resin: removing any element of a stack")
struct StackRemovalTests {
    @Test("remove(id:) against a plain list of (id, element): random pushes, pops and removals")
    func modelAgainstList() {
        var random = SeededGenerator(seed: 61)
        for _ in 0..<200 {
            var stack = StackState<Int>()
            var reference: [(id: StackElementID, element: Int)] = []
            var next = 0
            for _ in 0..<40 {
                switch random.next() % 4 {
                case 0, 1:
                    let element = Int(random.next() % 1_000)
                    reference.append((StackElementID(rawValue: next), element))
                    next += 1
                    stack.append(element)
                case 2:
                    // An id the stack gave, present or not.
                    let id = StackElementID(rawValue: next == 0 ? 0 : Int(random.next() % UInt64(next)))
                    let expected = reference.first { $0.id == id }?.element
                    reference.removeAll { $0.id == id }
                    #expect(stack.remove(id: id) == expected)
                default:
                    if !reference.isEmpty { reference.removeLast() }
                    stack.popLast()
                }
                #expect(stack.ids == reference.map(\.id))
                #expect(Array(stack) == reference.map(\.element))
            }
        }
    }

    @Test("removing a middle element ends its registrations and effects alone; the others keep their ids")
    func removeMiddle() async {
        let stopped = Stopped()
        let gate = Gate()
        let store = TestStore(initialState: Trail(path: [1, 2, 3])) { store in
            store.stack(\.path) { _, element in
                guard let number = element.state.value else { return Connection() }
                return Connection(grouping: [
                    element.register(presentOnly: Reducer<Int, Ping>(route: number) { value, _ in value += 10 }),
                    element.register(
                        presentOnly: Reducer<Int, Listen>(route: number) { _, _ in
                            .run { _ in
                                await gate.wait()
                                stopped.add(number)
                            }
                        }),
                ])
            }
        }
        let ids = store.state.path.ids
        for number in 1...3 { store.send(Listen(number: number)) }
        store.send(StackAction<Int>.remove(ids[1])) { $0.path.remove(id: ids[1]) }
        #expect(store.state.path.ids == [ids[0], ids[2]])
        #expect(store.store.runningEffectCount == 2)
        #expect(await eventually { stopped.all == [2] })
        store.send(Ping(number: 3)) { $0.path[id: ids[2]] = 13 }
        withKnownIssue {
            store.send(StackAction<Int>.remove(ids[1]))
        } matching: {
            $0.description.contains("went nowhere")
        }
        await store.skipInFlightEffects()
        await store.finish()
        #expect(stopped.all == [1, 2, 3])
    }

    @Test("a remove round-trips through JSON")
    func codable() throws {
        let action = StackAction<Int>.remove(StackElementID(rawValue: 4), in: "main")
        let data = try JSONEncoder().encode(action)
        #expect(try JSONDecoder().decode(StackAction<Int>.self, from: data) == action)
    }
}
