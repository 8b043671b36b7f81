import Cycle
import Testing

@Suite("EventSubject: delivery")
struct EventSubjectTests {
    @Test("a value sent from a sink is delivered after the current one reaches every sink (FIFO, never nested)")
    func reentrantSendIsQueued() {
        let subject = EventSubject<Int>()
        var log: [String] = []
        let first = subject.stream.subscribe { value in
            log.append("first \(value)")
            if value == 1 {
                subject.send(2)
                subject.send(3)
            }
        }
        let second = subject.stream.subscribe { log.append("second \($0)") }
        subject.send(1)
        #expect(log == ["first 1", "second 1", "first 2", "second 2", "first 3", "second 3"])
        _ = (first, second)
    }

    @Test("a sink removed during a delivery receives nothing more, not even the value in flight")
    func removedDuringDelivery() {
        let subject = EventSubject<Int>()
        var seen: [Int] = []
        var second: Connection?
        let first = subject.stream.subscribe { value in
            if value == 1 {
                second?.disconnect()
                subject.send(2)
            }
        }
        second = subject.stream.subscribe { seen.append($0) }
        subject.send(1)
        subject.send(3)
        #expect(seen.isEmpty)
        #expect(subject.subscriberCount == 1)
        _ = first
    }

    @Test("a sink added during a delivery misses the value in flight and receives the queued ones")
    func addedDuringDelivery() {
        let subject = EventSubject<Int>()
        var late: [Int] = []
        var connections: [Connection] = []
        connections.append(
            subject.stream.subscribe { value in
                guard value == 1 else { return }
                connections.append(subject.stream.subscribe { late.append($0) })
                subject.send(2)
            })
        subject.send(1)
        #expect(late == [2])
        // The first sink holds the connections (its own among them): disconnect them all to
        // break that cycle.
        for connection in connections { connection.disconnect() }
        #expect(subject.subscriberCount == 0)
    }
}

@Suite("EventStream: pacing")
struct EventStreamPacingTests {
    @Test("paced throttles and debounces each subscription on virtual time; disconnecting drops what it holds")
    func paced() {
        let scheduler = TestScheduler()
        let typed = EventSubject<String>()
        var throttled: [String] = []
        var debounced: [String] = []
        var connections = [
            typed.stream.paced(.throttle(latest: true), pause: .milliseconds(300), scheduler: scheduler)
                .subscribe { throttled.append($0) },
            typed.stream.paced(.debounce, pause: .milliseconds(300), scheduler: scheduler)
                .subscribe { debounced.append($0) },
        ]
        for text in ["s", "sw", "swi", "swif"] {
            typed.send(text)
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(throttled == ["s", "swi"])
        scheduler.advance(by: .seconds(1))
        #expect(throttled == ["s", "swi", "swif"])
        #expect(debounced == ["swif"])
        typed.send("swim")
        typed.send("swimmer")
        #expect(scheduler.pendingCount == 2)
        connections.removeAll()
        #expect(scheduler.pendingCount == 0)
        #expect(typed.subscriberCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(throttled == ["s", "swi", "swif", "swim"])
        #expect(debounced == ["swif"])
    }
}
