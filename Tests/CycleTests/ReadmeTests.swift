import Cycle
import Testing

// The README's Cycle snippet, kept here so that it compiles and does what the README says.
private struct Ticker: SinkSourceConverting {
    enum DriverEvent { case started, timer(TimerEvent) }
    struct DriverModels {
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
            if models.count == 3 { models.timer = .stopped }
            return models
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
}

@Suite("Cycle: the README's snippet")
struct ReadmeTests {
    @Test("the counter ticks three times on virtual time, then its reducer stops the timer")
    func counter() {
        let scheduler = TestScheduler()
        let loop = CycleLoop(program: Ticker(timer: TimerDriver(scheduler: scheduler)))
        scheduler.advance(by: .seconds(5))
        #expect(loop.currentModels.count == 3)
        #expect(scheduler.pendingCount == 0)
        loop.dispose()
    }
}
