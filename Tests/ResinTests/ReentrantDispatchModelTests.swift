import Resin
import TestSupport
import Testing

/// Model-based: observers of random parts that, while notified, dispatch actions, focus and
/// observe more parts, and stop other observers. Against a reference reducer applied to a
/// plain value as each action starts (seen by a first middleware): actions are processed in
/// the order dispatched (first in, first out, none dropped), an observer always sees its
/// part as the reference has it, wakes only after it changed, and ends with its newest value
/// (one not yet woken when an action another observer dispatched is processed wakes once,
/// with the newer state).
@Suite("Resin: reentrant dispatch, model-based")
struct ReentrantDispatchModelTests {
    struct Parts: Equatable {
        var values: [Int: Int] = [:]
    }

    struct Hit: RoutedAction, Equatable {
        var key: Int
        var route: Int { key }
    }

    struct Drop: Action, Equatable {
        var key: Int
    }

    struct Double: Action, Equatable {}

    static let keys = 0..<5

    /// The reducers every run registers: the reference applies the same.
    static func reduce(_ state: inout Parts, _ action: any Action, keyed: Set<Int>, doubled: Set<Int>) {
        switch action {
        case let hit as Hit:
            state.values[hit.key, default: 0] += 1
            if keyed.contains(hit.key), state.values[hit.key] != nil { state.values[hit.key]! += 10 }
        case let drop as Drop:
            state.values[drop.key] = nil
        case is Double:
            for key in doubled.sorted() where state.values[key] != nil {
                state.values[key] = state.values[key]! % 1_000 * 2
            }
        default:
            break
        }
    }

    /// What an observer does when woken.
    enum Act {
        case nothing
        case hit(Int)
        case drop(Int)
        case double
        /// Focuses and observes part `key` (keyed or through a subscript).
        case watch(key: Int, keyed: Bool)
        /// Stops the oldest other observer.
        case stopOldest
    }

    final class Watch {
        let key: Int
        let act: Act
        var seen: [Int?] = []
        var expected: [Int?]
        var connection: Connection?

        init(key: Int, act: Act, expected: Int?) {
            self.key = key
            self.act = act
            self.expected = [expected]
        }
    }

    final class World {
        let store = Store(initialState: Parts(), scheduler: TestScheduler())
        var reference = Parts()
        let keyed: Set<Int>
        let doubled: Set<Int>
        var dispatched: [String] = []
        var processed: [String] = []
        var watches: [Watch] = []
        var registrations: [Connection] = []
        var budget = 0
        var context = ""
        var random: SeededGenerator

        init(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            keyed = Set(ReentrantDispatchModelTests.keys.filter { _ in Bool.random(using: &random) })
            doubled = Set(ReentrantDispatchModelTests.keys.filter { _ in Bool.random(using: &random) })
            self.random = random
            // First: the reference applies each action as the store starts processing it.
            registrations.append(
                store.register(
                    Middleware<Parts> { [unowned self] action, _ in
                        processed.append("\(action)")
                        ReentrantDispatchModelTests.reduce(&reference, action, keyed: keyed, doubled: doubled)
                        for watch in watches where watch.expected.last != reference.values[watch.key] {
                            watch.expected.append(reference.values[watch.key])
                        }
                        return .pass
                    }))
            for key in ReentrantDispatchModelTests.keys {
                registrations.append(
                    store.register(Reducer<Parts, Hit>(route: key) { state, _ in state.values[key, default: 0] += 1 }))
            }
            for key in keyed.sorted() {
                registrations.append(
                    store.focus(\.values, key: key).register(
                        Reducer<Int?, Hit>(route: key) { value, _ in if value != nil { value! += 10 } }))
            }
            registrations.append(store.register(Reducer<Parts, Drop> { state, drop in state.values[drop.key] = nil }))
            for key in doubled.sorted() {
                registrations.append(
                    store.focus(\.values[key]).register(
                        Reducer<Int?, Double> { value, _ in if value != nil { value = value! % 1_000 * 2 } }))
            }
        }

        func dispatch(_ action: any Action) {
            dispatched.append("\(action)")
            store.dispatch(action)
        }

        func randomAct() -> Act {
            let key = ReentrantDispatchModelTests.keys.randomElement(using: &random)!
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: return .hit(key)
            case 2: return .drop(key)
            case 3: return .double
            case 4: return .watch(key: key, keyed: Bool.random(using: &random))
            case 5: return .stopOldest
            default: return .nothing
            }
        }

        func watch(key: Int, keyed: Bool) {
            let watch = Watch(key: key, act: randomAct(), expected: reference.values[key])
            watches.append(watch)
            let focus = keyed ? store.focus(\.values, key: key) : store.focus(\.values[key])
            watch.connection = focus.state.observe { [unowned self, unowned watch] value in
                woke(watch, value)
            }
        }

        private func woke(_ watch: Watch, _ value: Int?) {
            watch.seen.append(value)
            #expect(value == reference.values[watch.key], "\(context): part \(watch.key) woke with \(value as Any)")
            guard budget > 0 else { return }
            budget -= 1
            switch watch.act {
            case .nothing: break
            case .hit(let key): dispatch(Hit(key: key))
            case .drop(let key): dispatch(Drop(key: key))
            case .double: dispatch(Double())
            case .watch(let key, let keyed): if watches.count < 12 { self.watch(key: key, keyed: keyed) }
            case .stopOldest:
                if let index = watches.firstIndex(where: { $0 !== watch }) {
                    watches.remove(at: index).connection?.disconnect()
                }
            }
        }
    }

    /// Whether an observer that saw `seen` followed a part whose values went `states` (each
    /// different from the one before): it saw some of them, in order, and ends with the
    /// newest. One not yet woken when an action another observer dispatched was processed
    /// wakes once, with the newer state; if the two actions undid each other, that is the
    /// value it saw last, which the test allows only where the part went away and back.
    static func follows(_ seen: [Int?], _ states: [Int?]) -> Bool {
        guard seen.last == states.last, seen.first == states.first else { return false }
        var rest = states[...]
        for value in seen {
            guard let index = rest.firstIndex(where: { $0 == value }) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    @Test(
        "observers that dispatch, focus and stop others while woken: FIFO, nothing dropped, each sees its part as it is",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func reentrantDispatch(seed: UInt64) {
        let world = World(seed: seed)
        for _ in 0..<4 {
            world.watch(
                key: Self.keys.randomElement(using: &world.random)!, keyed: Bool.random(using: &world.random))
        }
        for step in 0..<1_000 {
            world.context = "seed \(seed), step \(step)"
            world.budget = 6
            let key = Self.keys.randomElement(using: &world.random)!
            switch Int.random(in: 0..<10, using: &world.random) {
            case 0..<6: world.dispatch(Hit(key: key))
            case 6: world.dispatch(Drop(key: key))
            case 7: world.dispatch(Double())
            case 8: world.watch(key: key, keyed: Bool.random(using: &world.random))
            default:
                if !world.watches.isEmpty {
                    world.watches.remove(at: Int.random(in: world.watches.indices, using: &world.random)).connection?
                        .disconnect()
                }
            }
            #expect(world.store.state.value == world.reference, "\(world.context)")
            #expect(world.processed == world.dispatched, "\(world.context): processed out of order or dropped")
            for watch in world.watches where !Self.follows(watch.seen, watch.expected) {
                Issue.record("\(world.context): part \(watch.key) saw \(watch.seen), the part went \(watch.expected)")
                return
            }
            if world.processed != world.dispatched { return }
        }
        #expect(world.dispatched.count > 1_000, "observers dispatched nothing")
        for watch in world.watches { watch.connection?.disconnect() }
        world.watches.removeAll()
        for registration in world.registrations { registration.disconnect() }
        #expect(world.store.focusChildCountForTesting == 0)
    }
}
