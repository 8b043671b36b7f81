import Foundation
import ReactiveCore
import Resin
import ResinTesting
import ShoppingListFeature
import Testing

/// Where the tests' app keeps its data: never touched, a test store keeps it in memory.
private let unusedDirectory = URL(fileURLWithPath: "/nonexistent/shopping-list")

/// A price service that answers `cents` after `delay` on the effects' clock.
private func prices(_ cents: Int, after delay: Duration = .milliseconds(100)) -> PriceService {
    PriceService { name in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: delay)
        guard !name.hasPrefix("?") else { throw PriceLookupError(name: name) }
        return cents
    }
}

private func shoppingStore(
    _ initial: ShoppingState = ShoppingState(), storage: PersistenceStorage = .inMemory()
) -> TestStore<ShoppingState, any Action> {
    var dependencies = Dependencies(context: .test)
    dependencies.prices = prices(250)
    dependencies.persistenceStorage = storage
    return TestStore(initialState: initial, dependencies: dependencies) { store in
        registerShoppingList(on: store, dataDirectory: unusedDirectory)
    }
}

@Suite("Examples: the shopping list, with the test store")
struct ShoppingListTests {
    @Test("adding an item: the sheet's save adds it, dismisses itself, and the price comes back")
    func addItem() async {
        let store = shoppingStore()
        store.send(ListAction.startAdding) { $0.sheet = .addItem(AddItemForm()) }
        store.send(FormAction.setName("Milk")) { $0.sheet = .addItem(AddItemForm(name: "Milk")) }
        store.send(FormAction.setQuantity(0))
        store.send(FormAction.save)
        await store.receive(ListAction.add(name: "Milk", quantity: 1)) {
            $0.items = [Item(id: 1, name: "Milk", quantity: 1)]
        }
        await store.receive(PresentationAction<Sheet>.dismiss()) { $0.sheet = nil }
        await store.advance(by: .milliseconds(100))
        await store.receive(ListAction.priced(itemID: 1, price: 250)) { $0.items[0].price = 250 }
        #expect(store.state.total == 250)
        await store.finish()
    }

    @Test("a price the service does not know shows an alert, which dismisses")
    func pricingFails() async {
        let store = shoppingStore()
        store.send(ListAction.add(name: "?Saffron", quantity: 1)) {
            $0.items = [Item(id: 1, name: "?Saffron", quantity: 1)]
        }
        await store.advance(by: .milliseconds(100))
        await store.receive(ListAction.pricingFailed(itemID: 1, message: "no price for ?Saffron")) {
            $0.sheet = .alert("no price for ?Saffron")
        }
        store.send(PresentationAction<Sheet>.dismiss()) { $0.sheet = nil }
        await store.finish()
    }

    @Test("an item's screen changes the item the list shows; a second refresh replaces the first")
    func itemScreen() async {
        let store = shoppingStore(ShoppingState(items: [Item(id: 1, name: "Milk", quantity: 2, price: 100)]))
        store.send(ListAction.open(itemID: 1)) { $0.path.append(.item(ItemScreen(itemID: 1))) }
        store.send(ItemAction.toggleDone) { $0.items[0].done = true }
        store.send(ItemAction.setQuantity(3)) { $0.items[0].quantity = 3 }
        store.send(ItemAction.refreshPrice) { $0.path[id: 0] = .item(ItemScreen(itemID: 1, isPricing: true)) }
        await store.advance(by: .milliseconds(50))
        store.send(ItemAction.refreshPrice)
        await store.advance(by: .milliseconds(100))
        await store.receive(ListAction.priced(itemID: 1, price: 250)) { $0.items[0].price = 250 }
        await store.receive(ItemAction.pricingEnded) { $0.path[id: 0] = .item(ItemScreen(itemID: 1)) }
        store.send(StackAction<Screen>.pop()) { $0.path.removeAll() }
        await store.finish()
    }

    @Test("deleting an item pops its screen and cancels its price lookup")
    func deleteItem() async {
        let store = shoppingStore(ShoppingState(items: [Item(id: 1, name: "Milk", quantity: 1)]))
        store.send(ListAction.open(itemID: 1)) { $0.path.append(.item(ItemScreen(itemID: 1))) }
        store.send(ItemAction.refreshPrice) { $0.path[id: 0] = .item(ItemScreen(itemID: 1, isPricing: true)) }
        store.send(ItemAction.delete) { $0.items = [] }
        await store.receive(StackAction<Screen>.popFrom(0)) { $0.path.removeAll() }
        #expect(store.store.runningEffectCount == 0)
        await store.advance(by: .seconds(1))
        await store.finish()
    }

    @Test("settings are shared: the list shows what the settings screen set")
    func settings() async {
        let store = shoppingStore(ShoppingState(items: [Item(id: 1, name: "Milk", quantity: 1, done: true)]))
        store.send(SettingsAction.setCurrency("EUR"))  // no settings screen: nobody handles it
        store.send(ListAction.openSettings) { $0.path.append(.settings) }
        store.send(SettingsAction.setCurrency("EUR")) { $0.preferences.currency = "EUR" }
        store.send(SettingsAction.toggleHidesDone) { $0.preferences.hidesDone = true }
        #expect(store.state.visibleItems.isEmpty)
        #expect(renderShoppingList(store.state).contains("Settings: currency EUR, done items hidden"))
        store.send(StackAction<Screen>.pop()) { $0.path.removeAll() }
        await store.finish()
    }

    @Test("the list and the settings outlive the app: a relaunch with the same storage loads them")
    func relaunch() async {
        let storage = PersistenceStorage.inMemory()
        do {
            let store = shoppingStore(storage: storage)
            store.send(ListAction.add(name: "Bread", quantity: 2)) {
                $0.items = [Item(id: 1, name: "Bread", quantity: 2)]
            }
            await store.advance(by: .milliseconds(100))
            await store.receive(ListAction.priced(itemID: 1, price: 250)) { $0.items[0].price = 250 }
            await store.advance(by: .seconds(1))
            await store.finish()
        }
        let store = shoppingStore(storage: storage)
        #expect(store.state.items == [Item(id: 1, name: "Bread", quantity: 2, price: 250)])
        await store.finish()
    }
}
