import Cycle
import Observation
import TestSupport
import Testing

/// A driver whose work is asynchronous: for each model (a number of seconds) it sleeps that
/// long on the clock it is given, then reports through an inbox. With a `TestScheduler` as
/// the clock, a test moves its time.
struct NapDriver: Driver {
    let clock: any Clock<Duration>
    let scheduler: any Scheduler

    func rendered(_ models: EventStream<Int>) -> EventStream<String> {
        EventStream { sink in
            let inbox = Inbox<String>(scheduler: scheduler, handler: sink)
            var naps: [Task<Void, Never>] = []
            let clock = clock
            let connection = models.subscribe { seconds in
                guard seconds > 0 else { return }
                naps.append(
                    Task {
                        do { try await clock.sleep(for: .seconds(seconds)) } catch { return }
                        inbox.post("slept \(seconds)")
                    })
            }
            return Connection(isolated: {
                connection.disconnect()
                inbox.close()
                for nap in naps { nap.cancel() }
            })
        }
    }
}

@Suite("Cycle and the Swift ecosystem")
struct CycleInteropTests {
    @Test("a driver sleeps on a TestScheduler used as its clock; events come when the test moves time")
    func driverSleepsOnVirtualTime() async {
        let scheduler = TestScheduler()
        let models = EventSubject<Int>()
        var events: [String] = []
        let connection = NapDriver(clock: scheduler, scheduler: scheduler).rendered(models.stream).subscribe {
            events.append($0)
        }
        models.send(2)
        models.send(1)
        // Both naps have started their sleeps before time moves (see advanceTasks).
        #expect(await eventually { scheduler.pendingCount == 2 })
        await scheduler.advanceTasks(by: .milliseconds(999))
        #expect(events.isEmpty)
        await scheduler.advanceTasks(by: .milliseconds(1))
        #expect(await eventually { events == ["slept 1"] })
        await scheduler.advanceTasks(by: .seconds(1))
        #expect(await eventually { events == ["slept 1", "slept 2"] })
        models.send(5)
        #expect(await eventually { scheduler.pendingCount == 1 })
        connection.disconnect()
        #expect(await eventually { scheduler.pendingCount == 0 })
        await scheduler.advanceTasks(by: .seconds(10))
        #expect(events == ["slept 1", "slept 2"])
    }

    @Test("an inbox fed from an AsyncSequence hands the elements over in the loop's domain, in order")
    func inboxFeed() async {
        let scheduler = TestScheduler()
        var received: [Int] = []
        let inbox = Inbox<Int>(scheduler: scheduler) { received.append($0) }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let ended = Log<Bool>()
        let feeding = inbox.feed(from: stream, finished: { _ in ended.append(true) })
        continuation.yield(1)
        continuation.yield(2)
        #expect(await eventually { scheduler.pendingCount == 1 && received.isEmpty })
        await eventuallyAdvance(scheduler) { received == [1, 2] }
        feeding.disconnect()
        continuation.yield(3)
        continuation.finish()
        await yieldTimes()
        scheduler.advance()
        #expect(received == [1, 2])
        #expect(ended.all.isEmpty)
    }

    @Test("the loop's observed models re-evaluate a view once per change of what it read; not after dispose")
    func observedModels() {
        let driver = ScriptedDriver()
        let loop = CycleLoop(program: CounterProgram(driver: driver, reductions: Counter()))
        let models = loop.observedModels()
        #expect(models.value == loop.currentModels)
        let view = ViewEvaluation { _ = models.value }
        driver.report("abc")
        #expect(view.renderIfNeeded())
        #expect(models.value == loop.currentModels)
        driver.report("")
        #expect(!view.renderIfNeeded())
        #expect(loop.debugDescription.hasPrefix("CycleLoop<"))
        loop.dispose()
        driver.report("more")
        #expect(!view.renderIfNeeded())
        #expect(loop.debugDescription.hasSuffix("disposed)"))
    }
}

/// Advances `scheduler` until `condition` holds, letting the feeding task post in between
/// (bounded like `eventually`, on the real clock).
private func eventuallyAdvance(_ scheduler: TestScheduler, until condition: () -> Bool) async {
    #expect(
        await eventually {
            scheduler.advance()
            return condition()
        })
}

/// A thread-safe log for tasks.
final class Log<Event: Sendable>: Sendable {
    private let events = LockedState<[Event]>([])
    func append(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
}
