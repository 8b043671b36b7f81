import Cycle
import ReactiveCore
import Testing

@Suite("Cycle: inspection")
struct CycleInspectionTests {
    @Test("a loop's inspection shows its events, reducer, models and each driver's model, with the counters")
    func loop() {
        let screen = DriverScript<Int, String>()
        let timer = TimerDriver(scheduler: TestScheduler())
        let loop = CycleLoop(program: Stopwatch(screen: screen, timer: timer))
        screen.play("go")
        let inspection = loop.inspect()
        #expect(inspection.paradigm == "Cycle")
        let models = inspection.nodes(ofKind: "driver model")
        #expect(models.map(\.name) == ["timer", "screen"])
        #expect(inspection.statistics["processedEvents"] == loop.processedEvents)
        #expect(inspection.statistics["driverSubscriptions", default: 0] >= 2)
        #expect(inspection.statistics["disposed"] == 0)
        loop.dispose()
        #expect(loop.inspect().statistics["disposed"] == 1)
    }
}
