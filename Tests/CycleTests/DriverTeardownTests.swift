import Cycle
import Foundation
import ReactiveCore
import Testing

/// A program whose drivers and streams keep work scheduled: two ticking timers, and the
/// screen's events delayed by five seconds and debounced.
private struct SchedulingProgram: SinkSourceConverting {
    enum DriverEvent { case launched, screen(String), timers(TimersEvent) }
    struct DriverModels {
        var timers: [String: TimerModel] = [:]
        var screen = 0
    }

    let screen: DriverScript<Int, String>
    let timers: TimersDriver
    let scheduler: TestScheduler

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        .merge(
            screen.rendered(effects.map(\.screen)).delay(for: .seconds(5), scheduler: scheduler)
                .paced(.debounce, pause: .seconds(1), scheduler: scheduler).map(DriverEvent.screen),
            timers.rendered(effects.map(\.timers)).map(DriverEvent.timers))
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var new = models
            switch event {
            case .launched: new.timers = ["a": .ticking(every: .seconds(1)), "b": .ticking(every: .seconds(3))]
            case .screen: new.screen += 1
            case .timers: break
            }
            return new
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.launched, DriverModels()) }
}

@Suite("Cycle: a disposed loop leaves no work scheduled")
struct DriverTeardownTests {
    @Test("disposing cancels every timer, delay and pause its drivers and streams scheduled")
    func disposeLeavesNothingScheduled() {
        let scheduler = TestScheduler()
        let screen = DriverScript<Int, String>()
        let loop = CycleLoop(
            program: SchedulingProgram(screen: screen, timers: TimersDriver(scheduler: scheduler), scheduler: scheduler)
        )
        screen.play("key")
        scheduler.advance(by: .seconds(3))
        screen.play("key")
        scheduler.advance(by: .seconds(3))
        // Two timers ticking, a delayed key and a debounce waiting.
        #expect(scheduler.pendingCount >= 3)
        let rendered = screen.rendered
        loop.dispose()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(60))
        #expect(screen.rendered == rendered)
        #expect(!screen.isWired)
    }
}
