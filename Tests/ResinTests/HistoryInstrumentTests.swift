import Foundation
import ReactiveCore
import Resin
import TestSupport
import Testing

private struct AppendNumber: Action, Codable, Equatable { var value: Int }
private struct EchoNumber: Action, Codable, Equatable { var value: Int }

/// A store of a list that `AppendNumber` appends to: an order-sensitive reducer, so a reorder or a
/// skip shows in every state after it.
@MainActor
private func listStore(_ initial: [Int] = []) -> (Store<[Int]>, Connection) {
    let store = Store(initialState: initial, scheduler: TestScheduler())
    let reducer = store.register(Reducer<[Int], AppendNumber> { list, append in list.append(append.value) })
    return (store, reducer)
}

/// redux-devtools' lifted state, kept as plain values: the reference the history is compared
/// with. States are recomputed here from scratch, by appending, never by the store.
private struct Model {
    struct Entry: Equatable {
        var id: Int
        var value: Int
        var skipped = false
        var state: [Int]
    }
    var initial: [Int]
    var start: [Int]
    var entries: [Entry] = []
    var current = 0  // index into [start] + entries' states
    var storeState: [Int]
    var locked = false
    var paused = false
    var nextID = 1

    init(initial: [Int]) {
        self.initial = initial
        start = initial
        storeState = initial
    }

    func stateBefore(_ index: Int) -> [Int] { index == 0 ? start : entries[index - 1].state }

    mutating func recompute(from index: Int) {
        for position in index..<entries.count {
            var state = stateBefore(position)
            if !entries[position].skipped { state.append(entries[position].value) }
            entries[position].state = state
        }
        storeState = current == 0 ? start : entries[current - 1].state
    }

    mutating func dispatch(_ value: Int) {
        if locked { return }
        storeState.append(value)
        if paused { return }
        entries.append(Entry(id: nextID, value: value, state: storeState))
        nextID += 1
        current = entries.count
    }

    mutating func clear() {
        entries = []
        current = 0
    }
}

@Suite("Resin: history instrument operations")
@MainActor
struct HistoryInstrumentTests {
    @Test(
        "toggle skips an action and recomputes the states after it, observers seeing each; toggling again brings it back"
    )
    func toggle() {
        let (store, reducer) = listStore()
        let history = store.recordHistory()
        for value in 1...4 { store.dispatch(AppendNumber(value: value)) }
        var seen: [[Int]] = []
        let observer = store.state.observe { seen.append($0) }
        seen = []
        let second = history.entries[1].id
        history.perform(.toggle(id: second))
        #expect(store.state.value == [1, 3, 4])
        #expect(history.entries.map(\.state) == [[1], [1], [1, 3], [1, 3, 4]])
        #expect(history.entries.map(\.isSkipped) == [false, true, false, false])
        // The states recomputed, each in turn, from the one before the skipped action.
        #expect(seen == [[1], [1, 3], [1, 3, 4]])
        #expect(history.log.actions.compactMap { ($0 as? AppendNumber)?.value } == [1, 3, 4])
        history.perform(.toggle(id: second))
        #expect(store.state.value == [1, 2, 3, 4])
        #expect(history.operations == [.toggle(id: second), .toggle(id: second)])
        _ = (reducer, observer)
    }

    @Test("commit makes the state shown the start; rollback returns to it; reset returns to the first state")
    func commitRollbackReset() {
        let (store, reducer) = listStore([0])
        let history = store.recordHistory()
        store.dispatch(AppendNumber(value: 1))
        store.dispatch(AppendNumber(value: 2))
        history.perform(.commit)
        #expect(history.entries.isEmpty)
        #expect(history.startState == [0, 1, 2])
        #expect(store.state.value == [0, 1, 2])
        store.dispatch(AppendNumber(value: 3))
        history.perform(.rollback)
        #expect(store.state.value == [0, 1, 2])
        #expect(history.entries.isEmpty)
        store.dispatch(AppendNumber(value: 4))
        history.perform(.reset)
        #expect(store.state.value == [0])
        #expect(history.startState == [0])
        // Positions are not reused: the start moved past every entry recorded.
        #expect(history.startPosition == 4)
        _ = reducer
    }

    @Test("sweep forgets the skipped entries and numbers the others again; their states stay")
    func sweep() {
        let (store, reducer) = listStore()
        let history = store.recordHistory()
        for value in 1...5 { store.dispatch(AppendNumber(value: value)) }
        let ids = history.entries.map(\.id)
        history.perform(.toggle(id: ids[1]))
        history.perform(.toggle(id: ids[3]))
        history.jump(to: 4)
        history.perform(.sweep)
        #expect(history.entries.map(\.id) == [ids[0], ids[2], ids[4]])
        #expect(history.entries.map(\.position) == [1, 2, 3])
        #expect(history.entries.map(\.state) == [[1], [1, 3], [1, 3, 5]])
        // Position 4 showed [1, 3]; after the sweep that state is at position 2.
        #expect(history.currentPosition == 2)
        #expect(store.state.value == [1, 3])
        _ = reducer
    }

    @Test("reorder moves an action and recomputes from the first entry moved; the ids stay")
    func reorder() {
        let (store, reducer) = listStore()
        let history = store.recordHistory()
        for value in 1...4 { store.dispatch(AppendNumber(value: value)) }
        let ids = history.entries.map(\.id)
        history.perform(.reorder(id: ids[3], before: ids[0]))
        #expect(store.state.value == [4, 1, 2, 3])
        #expect(history.entries.map(\.id) == [ids[3], ids[0], ids[1], ids[2]])
        history.perform(.reorder(id: ids[3], before: nil))
        #expect(store.state.value == [1, 2, 3, 4])
        #expect(history.entries.map(\.state) == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]])
        _ = reducer
    }

    @Test("locked, the store's actions are swallowed and jumps still apply; paused, actions apply unrecorded")
    func lockAndPause() {
        let (store, reducer) = listStore()
        let history = store.recordHistory()
        store.dispatch(AppendNumber(value: 1))
        history.perform(.lock(true))
        store.dispatch(AppendNumber(value: 2))
        #expect(store.state.value == [1])
        #expect(history.entries.count == 1)
        history.jump(to: 0)
        #expect(store.state.value == [])
        history.perform(.lock(false))
        history.jump(to: 1)
        history.perform(.pause(true))
        store.dispatch(AppendNumber(value: 3))
        #expect(store.state.value == [1, 3])
        #expect(history.entries.count == 1)
        history.perform(.pause(false))
        #expect(history.startState == [1, 3])
        #expect(history.entries.isEmpty)
        _ = reducer
    }

    @Test("reentrant: a follow-up an observer dispatches is made again by a recompute, not run twice")
    func followUpsRecomputed() {
        let (store, reducer) = listStore()
        // Every odd number is echoed by an observer, as a follow-up.
        let echo = store.register(Reducer<[Int], EchoNumber> { list, echo in list.append(echo.value * 10) })
        let echoer = store.state.observe { list in
            if let last = list.last, last % 2 == 1, last < 10 { store.dispatch(EchoNumber(value: last)) }
        }
        let history = store.recordHistory()
        store.dispatch(AppendNumber(value: 2))
        store.dispatch(AppendNumber(value: 1))
        store.dispatch(AppendNumber(value: 4))
        #expect(store.state.value == [2, 1, 10, 4])
        #expect(history.entries.map(\.isFollowUp) == [false, false, true, false])
        history.perform(.toggle(id: history.entries[0].id))
        #expect(store.state.value == [1, 10, 4])
        #expect(history.entries.map(\.state) == [[], [1, 10], [1, 10], [1, 10, 4]])
        _ = (reducer, echo, echoer)
    }

    @Test("export and import a session: the skips and the position shown come back, states recomputed")
    func exportImport() throws {
        var coder = ActionCoder()
        coder.register(AppendNumber.self)
        let (store, reducer) = listStore([9])
        let history = store.recordHistory()
        for value in 1...3 { store.dispatch(AppendNumber(value: value)) }
        history.perform(.toggle(id: history.entries[1].id))
        history.jump(to: 2)
        let data = try history.export(using: coder)

        let (other, otherReducer) = listStore([0])
        let imported = other.recordHistory()
        other.dispatch(AppendNumber(value: 7))
        try imported.importing(data, using: coder)
        #expect(imported.startState == [9])
        #expect(imported.entries.map(\.state) == [[9, 1], [9, 1], [9, 1, 3]])
        #expect(imported.entries.map(\.isSkipped) == [false, true, false])
        #expect(imported.currentPosition == imported.startPosition + 2)
        #expect(other.state.value == [9, 1])
        _ = (reducer, otherReducer)
    }

    @Test("a session that does not decode is refused, saying what is wrong, and changes nothing")
    func badImport() throws {
        var coder = ActionCoder()
        coder.register(AppendNumber.self)
        let (store, reducer) = listStore()
        let history = store.recordHistory()
        store.dispatch(AppendNumber(value: 1))
        for (data, reason) in [
            ("[]", "is a JSON object"),
            (#"{"actions": [], "current": 0}"#, "needs a start state"),
            (#"{"start": [], "actions": [], "current": 5}"#, "needs the position shown"),
            (#"{"start": [], "actions": [{"type": "Nope", "action": {}}], "current": 0}"#, "Nope"),
        ] {
            #expect {
                try history.importing(Data(data.utf8), using: coder)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
        #expect(store.state.value == [1])
        #expect(history.entries.count == 1)
        _ = reducer
    }

    @Test(
        "model: random operations give the entries, skips and states of a plain list recomputed from scratch",
        arguments: 0..<12)
    func model(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let (store, reducer) = listStore([100])
        let history = store.recordHistory(capacity: 10_000)
        var model = Model(initial: [100])
        var trace: [Int] = []
        for _ in 0..<120 {
            let choice = Int.random(in: 0..<20, using: &generator)
            trace.append(choice)
            switch choice {
            case 0..<8:
                let value = Int.random(in: 0..<50, using: &generator)
                store.dispatch(AppendNumber(value: value))
                model.dispatch(value)
            case 8, 9:
                let position = Int.random(in: 0...model.entries.count, using: &generator)
                history.jump(to: history.startPosition + position)
                model.current = position
                model.storeState = model.stateBefore(position)
            case 10, 11:
                guard !model.entries.isEmpty else { continue }
                let index = Int.random(in: 0..<model.entries.count, using: &generator)
                history.perform(.toggle(id: history.entries[index].id))
                model.entries[index].skipped.toggle()
                model.recompute(from: index)
            case 12:
                history.perform(.sweep)
                let before = model.entries.prefix(model.current).filter { !$0.skipped }.count
                model.entries.removeAll { $0.skipped }
                // The store is not touched: the state shown is the newest kept one at or
                // before it (a skipped entry's state is the one before it).
                model.current = before
            case 13, 14:
                guard model.entries.count > 1 else { continue }
                let from = Int.random(in: 0..<model.entries.count, using: &generator)
                let target = Int.random(in: 0...model.entries.count, using: &generator)
                let ids = history.entries.map(\.id)
                let before = target == model.entries.count || target == from ? nil : ids[target]
                history.perform(.reorder(id: ids[from], before: before))
                let moved = model.entries.remove(at: from)
                let to = before.flatMap { id in model.entries.firstIndex { $0.id == id } } ?? model.entries.count
                model.entries.insert(moved, at: to)
                model.recompute(from: min(from, to))
            case 15:
                history.perform(.commit)
                model.start = model.storeState
                model.clear()
            case 16:
                history.perform(.rollback)
                model.clear()
                model.storeState = model.start
            case 17:
                if Bool.random(using: &generator) {
                    history.perform(.reset)
                    model.start = model.initial
                    model.clear()
                    model.storeState = model.initial
                } else {
                    history.perform(.lock(!model.locked))
                    model.locked.toggle()
                }
            default:
                history.perform(.pause(!model.paused))
                if model.paused {
                    model.start = model.storeState
                    model.clear()
                }
                model.paused.toggle()
            }
            #expect(
                store.state.value == model.storeState,
                "after the operations \(trace.suffix(4)) (paused: \(model.paused), locked: \(model.locked))")
            #expect(history.startState == model.start)
            #expect(history.entries.map(\.state) == model.entries.map(\.state))
            #expect(history.entries.map(\.isSkipped) == model.entries.map(\.skipped))
            #expect(history.entries.compactMap { ($0.action as? AppendNumber)?.value } == model.entries.map(\.value))
            #expect(history.currentPosition - history.startPosition == model.current)
            #expect(
                history.entries.map(\.position)
                    == Array(stride(from: history.startPosition + 1, through: history.endPosition, by: 1)))
        }
        _ = reducer
    }

    @Test("an operation performed while the store processes an action is a precondition failure")
    func operationWhileProcessing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let (store, reducer) = listStore()
                let history = store.recordHistory()
                let observer = store.state.observe { list in if !list.isEmpty { history.perform(.commit) } }
                store.dispatch(AppendNumber(value: 1))
                _ = (reducer, observer)
            }
        }
        expectStandardError(
            of: result, contains: "Resin: a history operation cannot run while the store processes an action")
    }

    @Test("an import while the store processes an action is a precondition failure")
    func importWhileProcessing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                var coder = ActionCoder()
                coder.register(AppendNumber.self)
                let (store, reducer) = listStore()
                let history = store.recordHistory()
                let session = Data(#"{"start": [], "actions": [], "current": 0}"#.utf8)
                let observer = store.state.observe { list in
                    if !list.isEmpty { try? history.importing(session, using: coder) }
                }
                store.dispatch(AppendNumber(value: 1))
                _ = (reducer, observer)
            }
        }
        expectStandardError(of: result, contains: "Resin: a history cannot import while the store processes an action")
    }

    @Test("an operation naming an id the history does not hold is a precondition failure")
    func unknownID() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let (store, reducer) = listStore()
                let history = store.recordHistory()
                store.dispatch(AppendNumber(value: 1))
                history.perform(.toggle(id: 99))
                _ = reducer
            }
        }
        expectStandardError(of: result, contains: "Resin: this history holds no entry with id 99")
    }
}
