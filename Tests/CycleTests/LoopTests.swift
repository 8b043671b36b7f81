import Cycle
import Foundation
import Testing

/// A driver the test controls: it records models and reports what the test tells it to,
/// even while being wired or while rendering.
final class ScriptedDriver: Driver {
    var rendered: [Int] = []
    var reportOnWire: [String] = []
    var reportWhileRendering: [Int: String] = [:]
    private var sink: ((String) -> Void)?
    var isWired: Bool { sink != nil }

    func rendered(_ models: EventStream<Int>) -> EventStream<String> {
        EventStream { sink in
            self.sink = sink
            for event in self.reportOnWire { sink(event) }
            let connection = models.subscribe { model in
                self.rendered.append(model)
                if let event = self.reportWhileRendering[model] { sink(event) }
            }
            return Connection(isolated: {
                connection.disconnect()
                self.sink = nil
            })
        }
    }

    func report(_ event: String) { sink?(event) }
}

/// A counter program: each event adds its length to the model; reducers are counted.
struct CounterProgram: SinkSourceConverting {
    let driver: ScriptedDriver
    let reductions: Counter

    func eventsFrom(effects: EventStream<Int>) -> EventStream<String> {
        driver.rendered(effects)
    }

    func effectsFrom(events: EventStream<(String, Int)>) -> EventStream<Int> {
        events.map { event, model in
            reductions.log.append(event)
            return model + event.count
        }
    }

    func start() -> (String, Int) { ("start", 0) }
}

final class Counter {
    var log: [String] = []
}

@Suite("Cycle loop")
struct LoopTests {
    @Test("events reported while the drivers are wired are kept and processed after the start event")
    func bufferedBeforeWiring() {
        let driver = ScriptedDriver()
        driver.reportOnWire = ["early", "earlier"]
        let reductions = Counter()
        let loop = CycleLoop(program: CounterProgram(driver: driver, reductions: reductions))
        #expect(reductions.log == ["start", "early", "earlier"])
        #expect(loop.currentModels == 5 + 5 + 7)
        #expect(driver.rendered == [0, 5, 10, 17])
        loop.dispose()
    }

    @Test("an event reported while rendering is queued, not fed recursively; reducers run once per event")
    func queuedWhileRendering() {
        let driver = ScriptedDriver()
        driver.reportWhileRendering = [5: "ab"]
        let reductions = Counter()
        let loop = CycleLoop(program: CounterProgram(driver: driver, reductions: reductions))
        driver.report("x")
        #expect(reductions.log == ["start", "ab", "x"])
        #expect(driver.rendered == [0, 5, 7, 8])
        #expect(loop.processedEvents == 3)
        loop.dispose()
        #expect(!driver.isWired)
    }

    @Test("dispose tears every driver down and frees the loop and the program")
    func disposeFrees() {
        weak var weakDriver: ScriptedDriver?
        weak var weakLoop: CycleLoop<CounterProgram>?
        do {
            let driver = ScriptedDriver()
            let loop = CycleLoop(program: CounterProgram(driver: driver, reductions: Counter()))
            (weakDriver, weakLoop) = (driver, loop)
            loop.dispose()
            #expect(loop.isDisposed)
        }
        #expect(weakDriver == nil)
        #expect(weakLoop == nil)
    }

    @Test("an inbox brings events from many threads into the domain, each thread's in order")
    func inboxFromThreads() {
        let scheduler = TestScheduler()
        var received: [Int] = []
        let inbox = Inbox<Int>(scheduler: scheduler) { received.append($0) }
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in 0..<1_000 { inbox.post(lane * 10_000 + index) }
        }
        scheduler.advance()
        #expect(received.count == 4_000)
        for lane in 0..<4 {
            let mine = received.filter { $0 / 10_000 == lane }
            #expect(mine == mine.sorted())
        }
        inbox.close()
        inbox.post(1)
        scheduler.advance()
        #expect(received.count == 4_000)
    }

    @Test("an inbox drained while eight threads post: nothing lost or duplicated, each thread's in order")
    func inboxUnderLoad() async {
        let lanes = 8
        let perLane = 20_000
        let scheduler = TestScheduler()
        var received: [[Int]] = Array(repeating: [], count: lanes)
        let inbox = Inbox<Int>(scheduler: scheduler) { received[$0 / 1_000_000].append($0 % 1_000_000) }
        let producers = Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for lane in 0..<lanes {
                    group.addTask { for index in 0..<perLane { inbox.post(lane * 1_000_000 + index) } }
                }
            }
        }
        // Drain in this domain while the producers post (bounded by rounds, not by time).
        var rounds = 0
        while received.map(\.count).reduce(0, +) < lanes * perLane && rounds < 1_000_000 {
            scheduler.advance()
            await Task.yield()
            rounds += 1
        }
        await producers.value
        scheduler.advance()
        for lane in 0..<lanes {
            #expect(received[lane] == Array(0..<perLane), "lane \(lane) got \(received[lane].count) events")
        }
        #expect(scheduler.pendingCount == 0)
    }
}

/// A program with a scripted screen and a real timer: the screen's "start" key starts a
/// one-second timer, each tick counts, "stop" stops it.
struct Stopwatch: SinkSourceConverting {
    enum DriverEvent { case launched, screen(String), timer(TimerEvent) }
    struct DriverModels { var timer = TimerModel.stopped; var screen = 0 }

    let screen: DriverScript<Int, String>
    let timer: TimerDriver

    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
        .merge(
            screen.rendered(effects.map(\.screen)).map(DriverEvent.screen),
            timer.rendered(effects.map(\.timer)).map(DriverEvent.timer))
    }

    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
        events.map { event, models in
            var new = models
            switch event {
            case .launched: break
            case .screen("start"): new.timer = .ticking(every: .seconds(1))
            case .screen("stop"): new.timer = .stopped
            case .screen: break
            case .timer(.tick(let count, _)): new.screen = count
            }
            return new
        }
    }

    func start() -> (DriverEvent, DriverModels) { (.launched, DriverModels()) }
}

@Suite("Cycle virtual-time harness")
struct HarnessTests {
    @Test("scripted events and a timer on virtual time produce the expected models")
    func stopwatch() {
        let scheduler = TestScheduler()
        let screen = DriverScript<Int, String>()
        screen.play("start")
        let loop = CycleLoop(program: Stopwatch(screen: screen, timer: TimerDriver(scheduler: scheduler)))
        #expect(screen.isWired)
        scheduler.advance(by: .seconds(3))
        screen.play("stop")
        scheduler.advance(by: .seconds(3))
        #expect(screen.rendered == [0, 0, 0, 1, 2, 3, 3])
        #expect(loop.currentModels.timer == .stopped)
        loop.dispose()
        #expect(!screen.isWired && scheduler.pendingCount == 0)
    }
}

/// A program whose one driver, on rendering a model of 100 or more, reports two events and
/// then disposes the loop.
private struct Disposing: SinkSourceConverting {
    final class Driver {
        var loop: (() -> Void)?
        var rendered: [Int] = []
    }
    let driver: Driver

    func eventsFrom(effects: EventStream<Int>) -> EventStream<Int> {
        let driver = driver
        return EventStream { report in
            effects.subscribe { count in
                driver.rendered.append(count)
                guard count >= 100 else { return }
                report(1)
                report(2)
                driver.loop?()
            }
        }
    }

    func effectsFrom(events: EventStream<(Int, Int)>) -> EventStream<Int> {
        events.map { event, count in count + 1 + event }
    }

    func start() -> (Int, Int) { (0, 0) }
}

@Suite("Cycle loop: disposal during a delivery")
struct LoopDisposalTests {
    @Test("a driver that disposes the loop while rendering stops it: the events it queued are dropped")
    func disposeDuringDelivery() {
        let driver = Disposing.Driver()
        weak var weakLoop: CycleLoop<Disposing>?
        do {
            let loop = CycleLoop(program: Disposing(driver: driver))
            weakLoop = loop
            driver.loop = { [unowned loop] in loop.dispose() }
            #expect(loop.processedEvents == 1)
            loop.receive(100)
            #expect(loop.isDisposed)
            #expect(loop.processedEvents == 2)
            #expect(loop.currentModels == 102)
            loop.receive(30)
            #expect(loop.processedEvents == 2)
        }
        #expect(driver.rendered == [0, 1, 102])
        driver.loop = nil
        #expect(weakLoop == nil)
    }
}
