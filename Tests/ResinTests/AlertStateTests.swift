import Resin
import ResinTesting
import Testing

private struct Item: Equatable, Sendable {
    var id: Int
    var name: String
}

private enum ListAction: Action, Equatable {
    case deleteTapped(Int)
    case confirmDelete(Int)
    case share(Int)
}

private struct ItemList: Equatable {
    var items: [Item] = [Item(id: 1, name: "Milk"), Item(id: 2, name: "Eggs")]
    var alert: AlertState<ListAction>?
    var dialog: ConfirmationDialogState<ListAction>?
}

private var listReducer: Reducer<ItemList, ListAction> {
    Reducer { state, action in
        switch action {
        case .deleteTapped(let id):
            guard let item = state.items.first(where: { $0.id == id }) else { return }
            state.alert = deleteAlert(item)
        case .confirmDelete(let id):
            state.items.removeAll { $0.id == id }
        case .share(let id):
            state.dialog = ConfirmationDialogState(titleVisibility: .visible, title: "Share") {
                ButtonState(action: ListAction.confirmDelete(id), label: "Share and remove")
                ButtonState(role: .cancel, label: "Cancel")
            }
        }
    }
}

private func deleteAlert(_ item: Item) -> AlertState<ListAction> {
    AlertState(title: "Delete \(item.name)?", message: "This cannot be undone.") {
        ButtonState(role: .destructive, action: ListAction.confirmDelete(item.id), label: "Delete")
        ButtonState(role: .cancel, label: "Cancel")
    }
}

private func listStore() -> TestStore<ItemList, ListAction> {
    TestStore(initialState: ItemList(), sending: ListAction.self) { store in
        Connection(grouping: [store.register(listReducer), store.alert(\.alert), store.alert(\.dialog)])
    }
}

@Suite("Resin: alerts and confirmation dialogs")
struct AlertStateTests {
    @Test("a tapped button dismisses the alert, then its action arrives and is reduced")
    func tapSendsAction() async {
        let store = listStore()
        store.send(.deleteTapped(1)) { $0.alert = deleteAlert(Item(id: 1, name: "Milk")) }
        store.send(DialogAction.tap(ListAction.confirmDelete(1))) { $0.alert = nil }
        await store.receive(.confirmDelete(1)) { $0.items = [Item(id: 2, name: "Eggs")] }
        await store.finish()
    }

    @Test("a cancel button, or a dismissal without a button, only dismisses")
    func cancelOnlyDismisses() async {
        let store = listStore()
        store.send(.deleteTapped(2)) { $0.alert = deleteAlert(Item(id: 2, name: "Eggs")) }
        store.send(DialogAction<ListAction>.tap(nil)) { $0.alert = nil }
        store.send(.share(2)) {
            $0.dialog = ConfirmationDialogState(titleVisibility: .visible, title: "Share") {
                ButtonState(action: ListAction.confirmDelete(2), label: "Share and remove")
                ButtonState(role: .cancel, label: "Cancel")
            }
        }
        // Both dialogs take the same DialogAction type: the alert is gone, so only the
        // dialog's reducer changes anything.
        store.send(DialogAction<ListAction>.dismiss()) { $0.dialog = nil }
        await store.finish()
    }

    @Test("a tap while no dialog is shown goes nowhere")
    func tapWithoutDialog() {
        let store = TestStore(initialState: ItemList(), sending: ListAction.self) { store in
            Connection(grouping: [store.register(listReducer), store.alert(\.alert)])
        }
        withKnownIssue {
            store.send(DialogAction.tap(ListAction.confirmDelete(1)))
        } matching: {
            $0.description.contains("went nowhere")
        }
    }

    @Test("alerts compare by what they show, not their ids; each one made is a new one")
    func equalityAndIdentity() {
        let first = deleteAlert(Item(id: 1, name: "Milk"))
        let second = deleteAlert(Item(id: 1, name: "Milk"))
        #expect(first == second)
        #expect(first.id != second.id)
        #expect(first != deleteAlert(Item(id: 2, name: "Eggs")))
        let showing = true
        let conditional = AlertState<ListAction>(title: "t") {
            if showing { ButtonState(label: "Shown") }
            for index in 0..<2 { ButtonState(label: "Button \(index)") }
        }
        #expect(conditional.buttons.map(\.label) == ["Shown", "Button 0", "Button 1"])
        #expect(AlertState<ListAction>(title: "Done").buttons.isEmpty)
    }
}
