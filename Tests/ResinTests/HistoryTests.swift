import Foundation
import ReactiveCore
import Resin
import TestSupport
import Testing

private struct Ledger: Equatable {
    var balance = 0
    var notes: [String] = []
    var audits = 0
}

private struct Deposit: Action, Codable, Equatable { var amount: Int }
private struct Withdraw: Action, Codable, Equatable { var amount: Int }
private struct Memo: Action, Codable, Equatable { var text: String }
private struct Audit: Action, Codable, Equatable {}
private struct Watch: Action, Codable, Equatable {}
private struct Unregistered: Action, Equatable {}

/// A value an observer keeps between deliveries.
private final class Box {
    var value: Int
    init(_ value: Int) { self.value = value }
}

/// Counts effects that started, from any thread.
private final class Starts: Sendable {
    private let count = LockedState(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// Sets up a ledger store as the app would: reducers, a middleware that rejects overdrafts
/// with a follow-up note, an observer that notes multiples of seven, an effect that audits.
@MainActor
private func ledgerStore(_ initial: Ledger = Ledger(), starts: Starts = Starts()) -> (Store<Ledger>, Connection) {
    let store = Store(initialState: initial, scheduler: TestScheduler())
    let connections = Connection(grouping: [
        store.register(
            Reducer<Ledger, Deposit> { ledger, deposit in
                ledger.balance += deposit.amount
                return ledger.balance > 100 ? .send(Audit()) : .none
            }),
        store.register(Reducer<Ledger, Withdraw> { ledger, withdraw in ledger.balance -= withdraw.amount }),
        store.register(Reducer<Ledger, Memo> { ledger, note in ledger.notes.append(note.text) }),
        store.register(Reducer<Ledger, Audit> { ledger, _ in ledger.audits += 1 }),
        store.register(
            Reducer<Ledger, Watch> { _, _ in
                .run { _ in
                    starts.add()
                    let (never, _) = AsyncStream.makeStream(of: Void.self)
                    for await _ in never {}
                }
                .cancellable(id: "watch")
            }),
        store.register(
            Middleware { action, context in
                guard let withdraw = action as? Withdraw, withdraw.amount > context.state.balance else { return .pass }
                context.dispatch(Memo(text: "rejected \(withdraw.amount)"))
                return .swallow
            }),
        // Reacts to changes, not to the balance the store starts with.
        store.state.map(\.balance).observe { [previous = Box(initial.balance)] balance in
            defer { previous.value = balance }
            if balance != previous.value, balance != 0, balance % 7 == 0 { store.dispatch(Memo(text: "seven")) }
        },
    ])
    return (store, connections)
}

private var ledgerCoder: ActionCoder {
    var coder = ActionCoder()
    coder.register(Deposit.self)
    coder.register(Withdraw.self)
    coder.register(Memo.self)
    coder.register(Audit.self)
    coder.register(Watch.self, as: "watch")
    return coder
}

@MainActor
@Suite("Resin: history, time travel and replay")
struct HistoryTests {
    @Test("a history keeps the newest entries up to its capacity, with the state after each")
    func boundedEntries() {
        let (store, connections) = ledgerStore()
        let history = store.recordHistory(capacity: 3)
        var states: [Ledger] = [store.state.value]
        for amount in [1, 2, 3, 4, 5] {
            store.dispatch(Deposit(amount: amount))
            states.append(store.state.value)
        }
        #expect(history.entries.map(\.position) == [3, 4, 5])
        #expect(history.entries.map(\.state) == Array(states[3...]))
        #expect(history.startPosition == 2)
        #expect(history.startState == states[2])
        #expect(history.endPosition == 5)
        #expect(history.state(at: 1) == nil)
        #expect(history.state(at: 2) == states[2])
        #expect(history.state(at: 4) == states[4])
        #expect(history.state(at: 6) == nil)
        _ = connections
    }

    @Test("the ring of entries matches a plain list under random capacities and lengths")
    func ringModel() {
        var generator = SeededGenerator(seed: 77)
        for _ in 0..<30 {
            let (store, connections) = ledgerStore()
            let capacity = Int.random(in: 0..<6, using: &generator)
            let history = store.recordHistory(capacity: capacity)
            // Every action here changes the state, so the root's deliveries are one per action.
            var all: [Ledger] = []
            let reference = store.state.observe { all.append($0) }
            for _ in 0..<Int.random(in: 0..<15, using: &generator) {
                store.dispatch(Deposit(amount: Int.random(in: 1..<4, using: &generator)))
            }
            reference.disconnect()
            #expect(history.endPosition == all.count - 1)
            #expect(history.entries.count == min(capacity, all.count - 1))
            #expect(history.startState == all[history.startPosition])
            for entry in history.entries { #expect(entry.state == all[entry.position]) }
            #expect(history.entries.last?.state ?? history.startState == store.state.value)
            _ = connections
        }
    }

    @Test("jump sets the recorded state without running effects, waking observers once, recording nothing")
    func jump() {
        let starts = Starts()
        let (store, connections) = ledgerStore(starts: starts)
        let history = store.recordHistory()
        store.dispatch(Deposit(amount: 50))
        store.dispatch(Deposit(amount: 60))
        #expect(store.state.value.audits == 1)
        var seen: [Int] = []
        let watch = store.state.map(\.balance).observe { seen.append($0) }
        history.jump(to: 1)
        #expect(store.state.value == Ledger(balance: 50))
        #expect(seen == [110, 50])
        #expect(history.endPosition == 3)
        #expect(starts.value == 0)
        history.jump(to: history.startPosition)
        #expect(store.state.value == Ledger())
        // Recording goes on from the state jumped to.
        store.dispatch(Deposit(amount: 5))
        #expect(history.entries.last?.state == Ledger(balance: 5))
        _ = (connections, watch)
    }

    @Test("a jump asked for during an action waits for it, then applies")
    func reentrantJump() {
        let (store, connections) = ledgerStore()
        let history = store.recordHistory()
        store.dispatch(Deposit(amount: 1))
        let jumper = store.state.map(\.balance).observe { balance in
            if balance == 3 { history.jump(to: 1) }
        }
        store.dispatch(Deposit(amount: 2))
        #expect(store.state.value.balance == 1)
        _ = (connections, jumper)
    }

    @Test("replaying a recorded log into a fresh store reaches the same state, through JSON too")
    func replayModel() throws {
        var generator = SeededGenerator(seed: 4242)
        for round in 0..<40 {
            let (store, connections) = ledgerStore()
            let history = store.recordHistory(capacity: round % 2 == 0 ? 1_000 : 7)
            for _ in 0..<Int.random(in: 1..<40, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0, 1: store.dispatch(Deposit(amount: Int.random(in: 1..<30, using: &generator)))
                case 2: store.dispatch(Withdraw(amount: Int.random(in: 1..<60, using: &generator)))
                default: store.dispatch(Memo(text: "n"))
                }
            }
            let starts = Starts()
            let (fresh, freshConnections) = ledgerStore(history.startState, starts: starts)
            fresh.replay(history.log)
            #expect(fresh.state.value == store.state.value)
            let decoded = try ledgerCoder.decode(try ledgerCoder.encode(history.log))
            let (again, againConnections) = ledgerStore(history.startState)
            again.replay(decoded)
            #expect(again.state.value == store.state.value)
            #expect(history.log.actions.count <= history.entries.count)
            _ = (connections, freshConnections, againConnections)
        }
    }

    @Test("a replay starts no effect; effects of the replayed actions do not run again")
    func replayStartsNoEffects() {
        let starts = Starts()
        let (store, connections) = ledgerStore(starts: starts)
        store.replay(ActionLog([Watch(), Deposit(amount: 200)]))
        #expect(store.runningEffectCount == 0)
        #expect(store.state.value.audits == 0)
        #expect(store.state.value.balance == 200)
        store.dispatch(Watch())
        #expect(store.runningEffectCount == 1)
        store.replay(ActionLog([Watch()]))
        #expect(store.runningEffectCount == 1)
        _ = connections
    }

    @Test("a log's actions round-trip as readable JSON; unknown types and bad data are errors that say so")
    func coding() throws {
        let log = ActionLog([Deposit(amount: 3), Watch(), Memo(text: "x")])
        let data = try ledgerCoder.encode(log)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"{"action":{"amount":3},"type":"#))
        #expect(text.contains(#""type":"watch""#))
        let decoded = try ledgerCoder.decode(data)
        #expect(decoded.actions.count == 3)
        #expect(decoded.actions[0] as? Deposit == Deposit(amount: 3))
        #expect(decoded.actions[2] as? Memo == Memo(text: "x"))
        #expect {
            try ledgerCoder.encode(ActionLog([Unregistered()]))
        } throws: { error in
            "\(error)".contains("is not registered with this ActionCoder")
        }
        #expect(throws: DecodingError.self) {
            try ledgerCoder.decode(Data(#"[{"type":"nope","action":{}}]"#.utf8))
        }
        #expect(throws: DecodingError.self) { try ledgerCoder.decode(Data(#"{"type":"watch"}"#.utf8)) }
        #expect(throws: (any Error).self) { try ledgerCoder.decode(Data("not json".utf8)) }
    }

    @Test("a history released or disconnected unregisters what it registered")
    func release() {
        let (store, connections) = ledgerStore()
        let before = store.registrationCountsForTesting.reducers
        var history: History<Ledger>? = store.recordHistory()
        #expect(store.registrationCountsForTesting.reducers == before + 1)
        history = nil
        #expect(store.registrationCountsForTesting.reducers == before)
        let kept = store.recordHistory()
        kept.disconnect()
        store.dispatch(Deposit(amount: 1))
        #expect(kept.entries.isEmpty)
        #expect(store.registrationCountsForTesting.reducers == before)
        _ = (connections, history)
    }

    @Test("jumping to a position the history does not hold is a precondition failure")
    func jumpOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store(initialState: 0)
            let history = store.recordHistory(capacity: 2)
            history.jump(to: 1)
        }
        expectStandardError(of: result, contains: "Resin: a history can jump only to a position it holds")
    }

    @Test("a negative capacity is a precondition failure")
    func negativeCapacity() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Store(initialState: 0).recordHistory(capacity: -1)
        }
        expectStandardError(of: result, contains: "Resin: a history's capacity must be zero or more")
    }

    @Test("replaying from inside the store's own action is a precondition failure")
    func replayWhileProcessing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store(initialState: 0)
            let replayer = store.register(
                Reducer<Int, Deposit> { _, _ in store.replay(ActionLog([])) })
            store.dispatch(Deposit(amount: 1))
            _ = replayer
        }
        expectStandardError(of: result, contains: "Resin: replay(_:) cannot run while the store processes an action")
    }
}
