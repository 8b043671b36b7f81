#if canImport(SwiftUI)
    import Cycle
    import SwiftUI

    /// A Cycle program: a timer driver ticks while the models ask it to.
    struct SwiftUITicker: SinkSourceConverting {
        enum DriverEvent { case started, timer(TimerEvent) }
        struct DriverModels: Equatable {
            var timer = TimerModel.ticking(every: .seconds(1))
            var count = 0
        }
        let timer: TimerDriver

        func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
            timer.rendered(effects.map(\.timer)).map(DriverEvent.timer)
        }

        func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
            events.map { event, models in
                var models = models
                if case .timer = event { models.count += 1 }
                return models
            }
        }

        func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
    }

    /// Cycle in SwiftUI: the view reads the loop's observed models; the loop runs on the
    /// main queue, where the view reads.
    @MainActor
    final class CycleTickerModel {
        let loop = CycleLoop(program: SwiftUITicker(timer: TimerDriver(scheduler: DispatchScheduler(queue: .main))))
        let models: ObservedValue<SwiftUITicker.DriverModels>

        init() {
            models = loop.observedModels()
        }
    }

    struct CycleTickerView: View {
        @State private var model = CycleTickerModel()

        var body: some View {
            Text("Ticks: \(model.models.count)")
        }
    }
#endif
