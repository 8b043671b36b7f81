import Resin
import TestSupport
import Testing

/// Model-based: random registrations that come and go (routed and unrouted reducers and
/// middleware, on the root, on keyed foci and on subscript foci), random observers and random
/// dispatches, against a reference that keeps the live registrations in a plain array and
/// applies the matching ones in order to a plain value.

private struct Parts: Equatable {
    var values: [Int: Int] = [:]
    var log: [Int] = []
}

private struct Hit: RoutedAction {
    var key: Int
    var route: Int { key }
}

private struct Double: Action {}

private struct Drop: Action { var key: Int }

private let keys = 0..<5

/// One registration as the reference sees it.
private struct Registered {
    enum Kind {
        /// On the root, for every `Hit`: logs its number.
        case rootLogger
        /// On the root, for `Hit` with route `key`: adds 1 to the part.
        case rootRouted(key: Int)
        /// On the keyed focus of `key`, for `Hit` with route `key`: adds 10 if present.
        case keyedRouted(key: Int)
        /// On the subscript focus of `key`, for every `Double`: doubles the part (mod 1,000) if present.
        case subscriptDoubler(key: Int)
        /// On the root, for `Drop`: removes the part.
        case dropper
        /// Middleware for `Hit` with route `key`: logs minus its number (it runs first).
        case routedMiddleware(key: Int)
    }

    let number: Int
    let kind: Kind
    let connection: Connection
}

/// Registers `kind` on `store`; the reducers' effects on the state are the reference's too.
private func register(_ kind: Registered.Kind, number: Int, on store: Store<Parts>, middlewareLog: MiddlewareLog)
    -> Connection
{
    switch kind {
    case .rootLogger:
        return store.register(Reducer<Parts, Hit> { state, _ in state.log.append(number) })
    case .rootRouted(let key):
        return store.register(Reducer<Parts, Hit>(route: key) { state, _ in state.values[key, default: 0] += 1 })
    case .keyedRouted(let key):
        return store.focus(\.values, key: key).register(
            Reducer<Int?, Hit>(route: key) { value, _ in if value != nil { value! += 10 } })
    case .subscriptDoubler(let key):
        return store.focus(\.values[key]).register(
            Reducer<Int?, Double> { value, _ in if value != nil { value = value! % 1_000 * 2 } })
    case .dropper:
        return store.register(Reducer<Parts, Drop> { state, drop in state.values[drop.key] = nil })
    case .routedMiddleware(let key):
        return store.register(
            Middleware<Parts>.on(Hit.self, route: key) { _, _ in middlewareLog.entries.append(-number) })
    }
}

/// What the reference does for `action` with the live registrations, in registration order.
private func reduce(_ state: inout Parts, _ action: any Action, _ live: [Registered], middleware log: inout [Int]) {
    for registration in live {
        switch (registration.kind, action) {
        case (.routedMiddleware(let key), let hit as Hit) where hit.key == key: log.append(-registration.number)
        default: break
        }
    }
    for registration in live {
        switch (registration.kind, action) {
        case (.rootLogger, is Hit): state.log.append(registration.number)
        case (.rootRouted(let key), let hit as Hit) where hit.key == key: state.values[key, default: 0] += 1
        case (.keyedRouted(let key), let hit as Hit) where hit.key == key:
            if state.values[key] != nil { state.values[key]! += 10 }
        case (.subscriptDoubler(let key), is Double):
            if state.values[key] != nil { state.values[key] = state.values[key]! % 1_000 * 2 }
        case (.dropper, let drop as Drop): state.values[drop.key] = nil
        default: break
        }
    }
}

private final class MiddlewareLog {
    var entries: [Int] = []
}

/// An observer of one part: what it saw and should have seen.
private final class PartWatch {
    let key: Int
    var seen: [Int?] = []
    var expected: [Int?]
    var connection: Connection?

    init(key: Int, keyed: Bool, store: Store<Parts>, reference: Parts) {
        self.key = key
        expected = [reference.values[key]]
        let focus = keyed ? store.focus(\.values, key: key) : store.focus(\.values[key])
        connection = focus.state.observe { [unowned self] in seen.append($0) }
    }

    func expect(_ reference: Parts) {
        if reference.values[key] != expected.last { expected.append(reference.values[key]) }
    }
}

@Suite("Resin: dispatch, model-based")
struct DispatchModelTests {
    @Test(
        "random registrations, observers and dispatches match a reference reducer; observers wake exactly when their part changes",
        arguments: [1, 2, 3, 4, 0xD15] as [UInt64])
    func matchesReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let store = Store(initialState: Parts(), scheduler: TestScheduler())
        let middlewareLog = MiddlewareLog()
        var reference = Parts()
        var referenceMiddleware: [Int] = []
        var live: [Registered] = []
        var watches: [PartWatch] = []
        for step in 0..<1_500 {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<4:
                let key = keys.randomElement(using: &random)!
                let kinds: [Registered.Kind] = [
                    .rootLogger, .rootRouted(key: key), .keyedRouted(key: key), .subscriptDoubler(key: key), .dropper,
                    .routedMiddleware(key: key),
                ]
                let kind = kinds.randomElement(using: &random)!
                live.append(
                    Registered(
                        number: step, kind: kind,
                        connection: register(kind, number: step, on: store, middlewareLog: middlewareLog)))
            case 4..<6 where !live.isEmpty:
                live.remove(at: .random(in: live.indices, using: &random)).connection.disconnect()
            case 6..<8 where watches.count < 8:
                watches.append(
                    PartWatch(
                        key: keys.randomElement(using: &random)!, keyed: .random(using: &random), store: store,
                        reference: reference))
            case 8 where !watches.isEmpty:
                watches.remove(at: .random(in: watches.indices, using: &random)).connection?.disconnect()
            default:
                let key = keys.randomElement(using: &random)!
                let action: any Action =
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0..<4: Hit(key: key)
                    case 4: Double()
                    default: Drop(key: key)
                    }
                store.dispatch(action)
                reduce(&reference, action, live, middleware: &referenceMiddleware)
                for watch in watches { watch.expect(reference) }
            }
            #expect(store.state.value == reference, "seed \(seed), step \(step)")
            #expect(middlewareLog.entries == referenceMiddleware, "seed \(seed), step \(step)")
            #expect(
                store.registrationCountsForTesting.reducers + store.registrationCountsForTesting.middleware
                    == live.count)
            for watch in watches where watch.seen != watch.expected {
                Issue.record(
                    "seed \(seed), step \(step): part \(watch.key) saw \(watch.seen), expected \(watch.expected)")
                return
            }
            if store.state.value != reference { return }
        }
        for registration in live { registration.connection.disconnect() }
        #expect(store.registrationCountsForTesting == (0, 0, 0))
        watches.removeAll()
        #expect(store.focusChildCountForTesting == 0)
    }
}
