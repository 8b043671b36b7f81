import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

// Actions that name something absent (a dismissed child, a popped element, another case, a
// missing stack id) change nothing; a test store fails the test, naming the action.

private struct Memo: Equatable, Sendable {
    var text = ""
}

private enum Panel: Equatable, Sendable {
    case memo(Memo)
    case help
}

extension Panel {
    static let memo = CaseKey(Panel.memo) { if case .memo(let value) = $0 { value } else { nil } }
}

private struct Board: Equatable {
    var note: Memo?
    var panel: Panel?
    var path = StackState<Int>()
    var log: [String] = []
}

private struct Edit: Action, Equatable { var text: String }
private struct Logged: Action, Equatable {}

/// Sent to the stack element holding `number`.
private struct Bump: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private func boardStore(_ state: Board = Board()) -> TestStore<Board, any Action> {
    TestStore(initialState: state) { store in
        [
            store.presentation(\.note) { note in
                note.register(presentOnly: Reducer<Memo, Edit> { note, edit in note.text = edit.text })
            },
            store.presentation(\.panel) { panel in
                panel.focus(\.self, case: Panel.memo).register(
                    presentOnly: Reducer<Memo, Logged> { note, _ in note.text += "!" })
            },
            store.stack(\.path) { _, element in
                guard let number = element.state.value else { return Connection() }
                return element.register(
                    presentOnly: Reducer<Int, Bump>(route: number) { value, _ in value += 100 })
            },
        ]
    }
}

/// Records whether `body` recorded an issue saying that `action` went nowhere.
private func expectWentNowhere(_ action: String, _ body: () -> Void) {
    withKnownIssue {
        body()
    } matching: { issue in
        issue.description.contains(action) && issue.description.contains("went nowhere")
    }
}

@Suite("Resin: actions that go nowhere are reported")
struct WentNowhereTests {
    @Test("an action for a dismissed child, or for another case of an enum child, fails the test")
    func absentChild() {
        let store = boardStore()
        store.send(PresentationAction<Memo>.present(Memo())) { $0.note = Memo() }
        store.send(Edit(text: "x")) { $0.note?.text = "x" }
        store.send(PresentationAction<Memo>.dismiss()) { $0.note = nil }
        expectWentNowhere("Edit(text: \"y\")") { store.send(Edit(text: "y")) }
        store.send(PresentationAction<Panel>.present(.help)) { $0.panel = .help }
        expectWentNowhere("Logged()") { store.send(Logged()) }
        store.send(PresentationAction<Panel>.present(.memo(Memo()))) { $0.panel = .memo(Memo()) }
        store.send(Logged()) { $0.panel = .memo(Memo(text: "!")) }
    }

    @Test("an action for a popped element, and a pop of a missing id, fail the test")
    func missingElement() {
        let store = boardStore(Board(path: [1, 2]))
        let ids = store.state.path.ids
        store.send(Bump(number: 2)) { $0.path[id: ids[1]] = 102 }
        store.send(StackAction<Int>.popFrom(ids[1])) { $0.path.pop(from: ids[1]) }
        expectWentNowhere("Bump(number: 2)") { store.send(Bump(number: 2)) }
        expectWentNowhere("popFrom(#1)") { store.send(StackAction<Int>.popFrom(ids[1])) }
        expectWentNowhere("popTo(#1)") { store.send(StackAction<Int>.popTo(ids[1])) }
        store.send(StackAction<Int>.popTo(ids[0]))
    }

    @Test("a dismissal of nothing fails the test; a dismissal of a presented child does not")
    func dismissNothing() {
        let store = boardStore()
        expectWentNowhere("dismiss") { store.send(PresentationAction<Memo>.dismiss()) }
        store.send(PresentationAction<Memo>.present(Memo())) { $0.note = Memo() }
        store.send(PresentationAction<Memo>.dismiss()) { $0.note = nil }
    }

    @Test("reentrant: an action the dismissing action's effect sends to the child it dismissed goes nowhere")
    func effectSendsToDismissedChild() async {
        let store = TestStore(initialState: Board()) { store in
            [
                store.presentation(\.note) { note in
                    note.register(presentOnly: Reducer<Memo, Edit> { note, edit in note.text = edit.text })
                },
                store.register(
                    Reducer<Board, Logged> { board, _ in
                        board.note = nil
                        return .send(Edit(text: "late"))
                    }),
            ]
        }
        store.send(PresentationAction<Memo>.present(Memo())) { $0.note = Memo() }
        store.send(Logged()) { $0.note = nil }
        await withKnownIssue {
            await store.receive(Edit(text: "late"))
        } matching: {
            $0.description.contains("Edit(text: \"late\")") && $0.description.contains("went nowhere")
        }
        await store.finish()
    }

    @Test("an action another reducer takes does not go nowhere, though one for an absent child skipped it")
    func takenElsewhere() {
        let store = TestStore(initialState: Board()) { store in
            [
                store.presentation(\.note) { note in
                    note.register(presentOnly: Reducer<Memo, Edit> { note, edit in note.text = edit.text })
                },
                store.register(Reducer<Board, Edit> { board, edit in board.log.append(edit.text) }),
            ]
        }
        store.send(Edit(text: "x")) { $0.log = ["x"] }
    }

    @Test("in a live store an action that goes nowhere changes nothing and goes to the handler once per dispatch")
    @MainActor
    func liveStore() {
        let store = Store(initialState: Board())
        let reported = LockedState<[String]>([])
        store.setActionWentNowhereHandler { action, _ in reported.withLock { $0.append("\(action)") } }
        let presentation = store.presentation(\.note) { note in
            note.register(presentOnly: Reducer<Memo, Edit> { note, edit in note.text = edit.text })
        }
        store.dispatch(PresentationAction<Memo>.present(Memo()))
        store.dispatch(PresentationAction<Memo>.dismiss())
        store.dispatch(Edit(text: "x"))
        store.dispatch(Edit(text: "y"))
        #expect(store.state.value == Board())
        #expect(reported.withLock { $0 } == ["Edit(text: \"x\")", "Edit(text: \"y\")"])
        presentation.disconnect()
    }
}
