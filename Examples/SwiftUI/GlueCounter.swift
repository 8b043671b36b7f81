#if canImport(SwiftUI)
    import Glue
    import SwiftUI

    /// Glue in SwiftUI: the model keeps variables; the view reads them through observed
    /// values and edits them through a binding.
    @MainActor
    final class GlueCounterModel {
        let count = Variable(0)
        let title = Variable("Clicks")
        let observedCount: ObservedValue<Int>
        let observedTitle: ObservedValue<String>

        init() {
            observedCount = count.observed()
            observedTitle = title.observed()
        }
    }

    struct GlueCounterView: View {
        @State private var model = GlueCounterModel()

        var body: some View {
            VStack {
                Text("\(model.observedTitle.value): \(model.observedCount.value)")
                TextField("Title", text: model.observedTitle.binding(to: model.title))
                Button("Click") { model.count.value += 1 }
            }
        }
    }
#endif
