#if canImport(SwiftUI)
    import Incremental
    import SwiftUI

    /// Incremental in SwiftUI: inputs are written by the view's actions; the view reads a
    /// derived value through its observed value, which keeps it computed.
    @MainActor
    final class IncrementalCartModel {
        let graph = Graph()
        let prices: Input<[Int]>
        let total: ObservedValue<Int>

        init() {
            prices = graph.input([Int]())
            total = prices.map { $0.reduce(0, +) }.observed()
        }
    }

    struct IncrementalCartView: View {
        @State private var model = IncrementalCartModel()

        var body: some View {
            VStack {
                Text("Total: \(model.total.value)")
                Button("Add 5") { model.prices.value.append(5) }
            }
        }
    }
#endif
