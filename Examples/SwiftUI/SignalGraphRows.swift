#if canImport(SwiftUI)
    import SignalGraph
    import SwiftUI

    /// SignalGraph in SwiftUI: a storage is edited by the view's actions; the view reads its
    /// state through an observed value, which is a registered sensor until the model goes.
    @MainActor
    final class SignalGraphRowsModel {
        let rows = EditableDictionaryStorage<Int, String>()
        let observedRows: ObservedValue<[Int: String]>

        init() {
            observedRows = rows.observed()
        }
    }

    struct SignalGraphRowsView: View {
        @State private var model = SignalGraphRowsModel()

        var body: some View {
            VStack {
                ForEach(model.observedRows.value.keys.sorted(), id: \.self) { key in
                    Text(model.observedRows.value[key] ?? "")
                }
                Button("Add row") { model.rows[model.observedRows.value.count] = "Row" }
            }
        }
    }
#endif
