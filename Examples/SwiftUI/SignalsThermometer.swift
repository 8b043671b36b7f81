#if canImport(SwiftUI)
    import Signals
    import SwiftUI

    /// Signals in SwiftUI: the property may change on any thread; the view reads an
    /// observed value that takes the changes on the main queue.
    @MainActor
    final class SignalsThermometerModel {
        let celsius = Property(value: 20)
        let observedCelsius: ObservedValue<Int>

        init() {
            observedCelsius = celsius.observed(on: .main)
        }
    }

    struct SignalsThermometerView: View {
        @State private var model = SignalsThermometerModel()

        var body: some View {
            VStack {
                Text("\(model.observedCelsius.value) °C")
                Button("Warmer") {
                    let celsius = model.celsius
                    Task.detached { celsius.value += 1 }  // from any thread
                }
            }
        }
    }
#endif
