#if canImport(SwiftUI)
    import Resin
    import SwiftUI

    struct ResinSearchState: Equatable {
        var query = ""
        var favorites: [String] = []
    }

    struct SetQuery: Action {
        var query: String
    }

    struct AddFavorite: Action {}

    /// Resin in SwiftUI: the view reads the store's observed state, tracking only the
    /// members it reads; the text field's binding sends an action.
    @MainActor
    final class ResinSearchModel {
        let store: Store<ResinSearchState>
        let state: ObservedValue<ResinSearchState>
        /// The reducers stay registered while the model lives.
        private let reducers: Connection

        init() {
            let store = Store(initialState: ResinSearchState())
            reducers = Connection(grouping: [
                store.register(Reducer<ResinSearchState, SetQuery> { state, action in state.query = action.query }),
                store.register(
                    Reducer<ResinSearchState, AddFavorite> { state, _ in state.favorites.append(state.query) }),
            ])
            self.store = store
            state = store.observed()
        }
    }

    struct ResinSearchView: View {
        @State private var model = ResinSearchModel()

        var body: some View {
            VStack {
                TextField("Search", text: model.state.binding(\.query, to: model.store, send: SetQuery.init))
                Button("Favorite") { model.store.dispatch(AddFavorite()) }
                ForEach(model.state.favorites, id: \.self) { Text($0) }
            }
        }
    }
#endif
