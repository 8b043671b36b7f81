// The shopping list app's features, built only from Resin's public API: a list of items kept
// in a JSON file, a screen per item pushed on a typed stack, an "add item" sheet that
// dismisses itself, settings shared by every screen and kept in a file too, and prices
// looked up by a service the app injects as a dependency.

import Foundation
import Resin

// MARK: State

/// One thing to buy.
public struct Item: Identifiable, Equatable, Codable, Sendable {
    /// The item's identity in the list.
    public var id: Int
    /// What to buy.
    public var name: String
    /// How many to buy.
    public var quantity: Int
    /// Whether it is in the basket.
    public var done = false
    /// The price of one, in cents, once looked up.
    public var price: Int?

    /// A value with these fields.
    public init(id: Int, name: String, quantity: Int, done: Bool = false, price: Int? = nil) {
        self.id = id
        self.name = name
        self.quantity = quantity
        self.done = done
        self.price = price
    }
}

/// What every screen shows the same way: shared by the list, the item screens and the
/// settings, and kept across launches.
public struct Preferences: Equatable, Codable, Sendable {
    /// The currency prices are shown in.
    public var currency = "USD"
    /// Whether the list hides the items in the basket.
    public var hidesDone = false

    /// A value with these fields.
    public init(currency: String = "USD", hidesDone: Bool = false) {
        self.currency = currency
        self.hidesDone = hidesDone
    }
}

/// A screen pushed over the list.
public enum Screen: Equatable, Sendable {
    case item(ItemScreen)
    case settings

    /// The item screen case, to focus on.
    public static let item = CaseKey(Screen.item) { if case .item(let value) = $0 { value } else { nil } }
}

/// An item's screen: which item, and whether its price is being looked up.
public struct ItemScreen: Equatable, Sendable {
    /// The item shown.
    public var itemID: Int
    /// Whether its price is being looked up.
    public var isPricing = false

    /// A value with these fields.
    public init(itemID: Int, isPricing: Bool = false) {
        self.itemID = itemID
        self.isPricing = isPricing
    }
}

/// What is presented over everything.
public enum Sheet: Equatable, Sendable {
    case addItem(AddItemForm)
    case alert(String)

    /// The form case, to focus on.
    public static let addItem = CaseKey(Sheet.addItem) { if case .addItem(let value) = $0 { value } else { nil } }
}

/// The "add item" form.
public struct AddItemForm: Equatable, Sendable {
    /// What to buy.
    public var name = ""
    /// How many to buy.
    public var quantity = 1

    /// A value with these fields.
    public init(name: String = "", quantity: Int = 1) {
        self.name = name
        self.quantity = quantity
    }
}

/// The whole app's state.
public struct ShoppingState: Equatable {
    /// The list, kept in `items.json`.
    public var items: [Item] = []
    /// The settings every screen shares, kept in `preferences.json`.
    public var preferences = Preferences()
    /// The screens pushed over the list.
    public var path = StackState<Screen>()
    /// What is presented over everything.
    public var sheet: Sheet?

    /// A value with these fields.
    public init(items: [Item] = [], preferences: Preferences = Preferences()) {
        self.items = items
        self.preferences = preferences
    }

    /// The items the list shows, with the preferences applied.
    public var visibleItems: [Item] {
        preferences.hidesDone ? items.filter { !$0.done } : items
    }

    /// What the items not done cost, in cents, counting those with a price.
    public var total: Int {
        items.filter { !$0.done }.reduce(0) { $0 + ($1.price ?? 0) * $1.quantity }
    }
}

// MARK: Actions

/// What the list screen does.
public enum ListAction: Action, Equatable {
    /// Opens an item's screen.
    case open(itemID: Int)
    /// Presents the "add item" sheet.
    case startAdding
    /// Pushes the settings.
    case openSettings
    /// Adds an item (the form sends it); its price is looked up.
    case add(name: String, quantity: Int)
    /// A price came back.
    case priced(itemID: Int, price: Int)
    /// A price could not be looked up.
    case pricingFailed(itemID: Int, message: String)
}

/// What the "add item" form does.
public enum FormAction: Action, Equatable {
    case setName(String)
    case setQuantity(Int)
    /// Adds the item and dismisses the form.
    case save
}

/// What an item's screen does; sent to the screen on top.
public enum ItemAction: Action, Equatable {
    case toggleDone
    case setQuantity(Int)
    /// Looks the price up again (cancelling a lookup under way).
    case refreshPrice
    /// Removes the item and closes its screen.
    case delete
    /// A refresh of the price ended (the screen stops showing it is pricing).
    case pricingEnded
}

/// What the settings screen does.
public enum SettingsAction: Action, Equatable {
    case setCurrency(String)
    case toggleHidesDone
}

// MARK: Dependencies

/// Looks prices up: a server in a real app.
public struct PriceService: Sendable {
    /// The price of one, in cents, of the item named.
    public var price: @Sendable (_ name: String) async throws -> Int

    /// A value with these fields.
    public init(price: @escaping @Sendable (_ name: String) async throws -> Int) {
        self.price = price
    }
}

/// The price service's key: a made-up catalogue that answers after 100 ms on the effects'
/// clock, and knows nothing of names starting with "?".
public enum PriceServiceKey: DependencyKey {
    /// The made-up catalogue.
    public static let liveValue = PriceService { name in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: .milliseconds(100))
        guard !name.hasPrefix("?") else { throw PriceLookupError(name: name) }
        return 50 + name.unicodeScalars.reduce(0) { ($0 * 31 + Int($1.value)) % 950 }
    }
}

/// A price the service does not know.
public struct PriceLookupError: Error, CustomStringConvertible {
    /// The name the service did not know.
    public var name: String

    /// A value with these fields.
    public init(name: String) {
        self.name = name
    }

    /// Which name had no price.
    public var description: String { "no price for \(name)" }
}

extension Dependencies {
    /// Where effects look prices up.
    public var prices: PriceService {
        get { self[PriceServiceKey.self] }
        set { self[PriceServiceKey.self] = newValue }
    }
}

// MARK: Reducers

/// The list's reducer: it works on the items and the navigation, and looks prices up.
var listReducer: Reducer<ShoppingState, ListAction> {
    Reducer { state, action in
        switch action {
        case .open(let itemID):
            guard state.items[id: itemID] != nil else { return .none }
            state.path.append(.item(ItemScreen(itemID: itemID, isPricing: false)))
            return .none
        case .startAdding:
            state.sheet = .addItem(AddItemForm())
            return .none
        case .openSettings:
            state.path.append(.settings)
            return .none
        case .add(let name, let quantity):
            let id = (state.items.map(\.id).max() ?? 0) + 1
            state.items.append(Item(id: id, name: name, quantity: quantity))
            return lookUpPrice(itemID: id, name: name)
        case .priced(let itemID, let price):
            state.items[id: itemID]?.price = price
            return .none
        case .pricingFailed(_, let message):
            state.sheet = .alert(message)
            return .none
        }
    }
}

/// Looks the price of `name` up, under the item's own id, so a new lookup replaces one under
/// way and deleting the item cancels it.
func lookUpPrice(itemID: Int, name: String) -> Effect<ListAction> {
    Effect<ListAction>.run { send in
        @Dependency(\.prices) var prices
        send(.priced(itemID: itemID, price: try await prices.price(name)))
    } catch: { error, send in
        send(.pricingFailed(itemID: itemID, message: "\(error)"))
    }
    .cancellable(id: PriceLookup(itemID: itemID), cancelInFlight: true)
}

/// The id of an item's price lookup.
struct PriceLookup: Hashable, Sendable {
    var itemID: Int
}

/// The form's reducer, on the form's own state: saving sends the new item to the list, then
/// dismisses the sheet, one after the other.
var formReducer: Reducer<AddItemForm, FormAction> {
    Reducer { form, action in
        switch action {
        case .setName(let name):
            form.name = name
            return .none
        case .setQuantity(let quantity):
            form.quantity = max(1, quantity)
            return .none
        case .save:
            guard !form.name.isEmpty else { return .none }
            let item = ListAction.add(name: form.name, quantity: form.quantity)
            return .run { send in
                @Dependency(\.dismiss) var dismiss
                send(item)
                dismiss()
            }
        }
    }
}

/// An item screen's reducer, on the screen and the items it shares with the list. Only the
/// screen on top (`isTop`) takes item actions.
func itemReducer(isTop: @escaping () -> Bool) -> Reducer<Sharing<ItemScreen?, [Item]>, ItemAction> {
    Reducer { state, action in
        guard isTop(), let itemID = state.local?.itemID else { return .none }
        switch action {
        case .toggleDone:
            state.shared[id: itemID]?.done.toggle()
            return .none
        case .setQuantity(let quantity):
            state.shared[id: itemID]?.quantity = max(1, quantity)
            return .none
        case .refreshPrice:
            guard let name = state.shared[id: itemID]?.name else { return .none }
            state.local?.isPricing = true
            // A refresh replaces one under way, whole: the old one never reports its end.
            return Effect<ItemAction>(lookUpPrice(itemID: itemID, name: name))
                .concatenate(with: .send(.pricingEnded))
                .cancellable(id: PriceRefresh(itemID: itemID), cancelInFlight: true)
        case .pricingEnded:
            state.local?.isPricing = false
            return .none
        case .delete:
            state.shared[id: itemID] = nil
            return .merge(
                .cancel(ids: [PriceRefresh(itemID: itemID), PriceLookup(itemID: itemID)]),
                .run { _ in
                    @Dependency(\.dismiss) var dismiss
                    dismiss()
                })
        }
    }
}

/// The id of an item screen's price refresh.
struct PriceRefresh: Hashable, Sendable {
    var itemID: Int
}

/// The settings' reducer, on the shared preferences.
var settingsReducer: Reducer<Preferences, SettingsAction> {
    Reducer { preferences, action in
        switch action {
        case .setCurrency(let currency): preferences.currency = currency
        case .toggleHidesDone: preferences.hidesDone.toggle()
        }
    }
}

// MARK: The app

/// Sets the app up on `store`: its reducers, its navigation, and its data kept in
/// `dataDirectory` (`items.json`, `preferences.json`). The returned connection ends it all,
/// saving what is pending.
public func registerShoppingList(on store: Store<ShoppingState>, dataDirectory: URL) -> Connection {
    let items = store.focus(\.items).persist(.jsonFile(dataDirectory.appendingPathComponent("items.json")))
    let preferences = store.focus(\.preferences).persist(
        .jsonFile(dataDirectory.appendingPathComponent("preferences.json")))
    let registrations = Connection(grouping: [
        store.register(listReducer),
        store.presentation(\.sheet) { sheet in
            sheet.focus(\.self, case: Sheet.addItem).whilePresent { form in
                form.register(presentOnly: formReducer)
            }
        },
        store.stack(\.path) { id, screen in
            switch screen.state.value {
            case .item:
                let isTop = { store.state.value.path.ids.last == id }
                return screen.focus(\.self, case: Screen.item).sharing(store.focus(\.items))
                    .register(itemReducer(isTop: isTop))
            case .settings:
                return store.focus(\.preferences).register(settingsReducer)
            case nil:
                return Connection()
            }
        },
    ])
    return Connection(isolated: {
        registrations.disconnect()
        items.disconnect()
        preferences.disconnect()
    })
}

/// `cents` as money in `currency`: `3.20 EUR`.
public func formatPrice(_ cents: Int, _ currency: String) -> String {
    "\(cents / 100).\(String(format: "%02d", cents % 100)) \(currency)"
}

/// The app's screens as text, bottom first: the list, each pushed screen, the sheet.
public func renderShoppingList(_ state: ShoppingState) -> String {
    var lines: [String] = []
    let currency = state.preferences.currency
    let onTop = state.path.isEmpty && state.sheet == nil
    lines.append("\(onTop ? "▶" : "·") Shopping list (total \(formatPrice(state.total, currency)))")
    for item in state.visibleItems {
        let price = item.price.map { formatPrice($0, currency) } ?? "…"
        lines.append("    [\(item.done ? "x" : " ")] \(item.name) ×\(item.quantity)  \(price)")
    }
    for (depth, screen) in state.path.enumerated() {
        let marker = depth == state.path.count - 1 && state.sheet == nil ? "▶" : "·"
        let indent = String(repeating: "  ", count: depth + 1)
        switch screen {
        case .item(let itemScreen):
            let item = state.items[id: itemScreen.itemID]
            let price = item?.price.map { formatPrice($0, currency) } ?? "no price"
            let pricing = itemScreen.isPricing ? " (looking up the price)" : ""
            lines.append(
                "\(indent)\(marker) \(item?.name ?? "(deleted)") ×\(item?.quantity ?? 0), \(price)\(pricing)")
        case .settings:
            lines.append(
                "\(indent)\(marker) Settings: currency \(currency), done items \(state.preferences.hidesDone ? "hidden" : "shown")"
            )
        }
    }
    switch state.sheet {
    case .addItem(let form): lines.append("▣ Add item: \"\(form.name)\" ×\(form.quantity)")
    case .alert(let message): lines.append("▣ Alert: \(message)")
    case nil: break
    }
    return lines.joined(separator: "\n")
}
