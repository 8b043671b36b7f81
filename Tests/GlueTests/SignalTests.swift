import Foundation
import Glue
import ReactiveCore
import Testing

@Suite("Signal")
struct SignalTests {
    @Test("the seed's Signal sample")
    func seedSample() {
        var printed: [String] = []
        let signal = Signal<Int>()
        signal.send(42)  // Does nothing, no subscribers
        let connection = signal.subscribe { i in printed.append("Got \(i)!") }
        signal.send(23)
        signal.send(7)
        connection.disconnect()
        signal.send(1)
        #expect(printed == ["Got 23!", "Got 7!"])
    }

    @Test("the seed's Button: a private Void signal exposed as a read-only source")
    func seedButton() {
        final class Button {
            private let activationSignal = Signal<Void>()
            var activationSource: Source<Void> { activationSignal.source }
            func didTouchUpInside() { activationSignal.send() }
        }
        let button = Button()
        var taps = 0
        let connection = button.activationSource.subscribe { taps += 1 }
        button.didTouchUpInside()
        button.didTouchUpInside()
        #expect(taps == 2)
        connection.disconnect()
    }

    @Test("the seed's Connector sample: connections kept while visible, cut on disappear")
    func seedConnector() {
        final class ClockViewController {
            private let connectionsWhileVisible = Connector()
            private let tickSource: TimerSource
            var log: [String] = []

            private var midnightSource: Source<Notification> {
                let center = NotificationCenter.default
                return center.source(forName: .dayChanged)
            }

            init(scheduler: TestScheduler) {
                tickSource = TimerSource(scheduler: scheduler, interval: .seconds(1))
            }

            func viewWillAppear() {
                tickSource.subscribe(self.onTick).putInto(connectionsWhileVisible)
                midnightSource.subscribe { _ in self.onMidnight() }.putInto(connectionsWhileVisible)
            }

            func viewDidDisappear() {
                connectionsWhileVisible.disconnect()
            }

            func onTick() { log.append("Tick!") }
            func onMidnight() { log.append("Ding dong!") }
        }
        let scheduler = TestScheduler()
        let controller = ClockViewController(scheduler: scheduler)
        controller.viewWillAppear()
        scheduler.advance(by: .seconds(2))
        NotificationCenter.default.post(name: .dayChanged, object: nil)
        controller.viewDidDisappear()
        scheduler.advance(by: .seconds(5))
        NotificationCenter.default.post(name: .dayChanged, object: nil)
        #expect(controller.log == ["Tick!", "Tick!", "Ding dong!"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("sinks receive values in the order they subscribed")
    func subscriptionOrder() {
        let signal = Signal<Int>()
        var log: [String] = []
        let connections = (0..<3).map { index in signal.subscribe { log.append("\(index):\($0)") } }
        signal.send(1)
        #expect(log == ["0:1", "1:1", "2:1"])
        #expect(signal.subscriberCount == 3)
        _ = connections
    }

    @Test("a value sent during a delivery is queued and delivered after it, FIFO; sinks never nest")
    func reentrantSendIsQueued() {
        let signal = Signal<Int>()
        var log: [String] = []
        var depth = 0
        var maximumDepth = 0
        let first = signal.subscribe { value in
            depth += 1
            maximumDepth = max(maximumDepth, depth)
            log.append("a\(value)")
            if value == 1 {
                signal.send(2)
                signal.send(3)
            }
            depth -= 1
        }
        let second = signal.subscribe { value in
            depth += 1
            maximumDepth = max(maximumDepth, depth)
            log.append("b\(value)")
            depth -= 1
        }
        signal.send(1)
        #expect(log == ["a1", "b1", "a2", "b2", "a3", "b3"])
        #expect(maximumDepth == 1)
        _ = (first, second)
    }

    @Test("a sink added during a delivery misses the value in flight but gets the queued ones")
    func sinkAddedDuringDelivery() {
        let signal = Signal<Int>()
        var late: [Int] = []
        var lateConnection: Connection?
        let first = signal.subscribe { value in
            if value == 1 {
                lateConnection = signal.subscribe { late.append($0) }
                signal.send(2)
            }
        }
        signal.send(1)
        signal.send(3)
        #expect(late == [2, 3])
        _ = (first, lateConnection)
    }

    @Test("a sink removed during a delivery gets nothing more, even from the same delivery")
    func sinkRemovedDuringDelivery() {
        let signal = Signal<Int>()
        var log: [String] = []
        var second: Connection?
        let first = signal.subscribe { value in
            log.append("first \(value)")
            second?.disconnect()
        }
        second = signal.subscribe { value in log.append("second \(value)") }
        let third = signal.subscribe { value in log.append("third \(value)") }
        signal.send(1)
        signal.send(2)
        #expect(log == ["first 1", "third 1", "first 2", "third 2"])
        #expect(signal.subscriberCount == 2)
        _ = (first, third)
    }

    @Test("a sink that disconnects itself during a queued delivery stops at once")
    func selfDisconnectDuringQueue() {
        let signal = Signal<Int>()
        var seen: [Int] = []
        var connection: Connection?
        connection = signal.subscribe { value in
            seen.append(value)
            if value == 1 {
                signal.send(2)
                connection?.disconnect()
            }
        }
        signal.send(1)
        #expect(seen == [1])
        #expect(!signal.isConnected)
    }

    @Test("a connection keeps the signal and the sink alive; disconnecting frees both")
    func lifetime() {
        weak var weakSignal: Signal<Int>?
        weak var weakToken: Token?
        var connection: Connection?
        do {
            let signal = Signal<Int>()
            let token = Token()
            connection = signal.subscribe { _ in _ = token }
            (weakSignal, weakToken) = (signal, token)
        }
        #expect(weakSignal != nil)
        #expect(weakToken != nil)
        connection?.disconnect()
        #expect(weakSignal == nil)
        #expect(weakToken == nil)
    }

    @Test("a signal is a sink: one source can feed another")
    func signalAsSink() {
        let input = Signal<Int>()
        let output = Signal<Int>()
        var seen: [Int] = []
        let forwarding = input.subscribe(output)
        let observing = output.subscribe { seen.append($0) }
        input.send(5)
        #expect(seen == [5])
        _ = (forwarding, observing)
    }

    @Test("Source.just and Source.empty")
    func justAndEmpty() {
        var seen: [Int] = []
        let connection = Source.just(3).subscribe { seen.append($0) }
        let none = Source<Int>.empty.subscribe { seen.append($0) }
        #expect(seen == [3])
        _ = (connection, none)
    }

    @Test("a signal subscribes through the uniform Subscribable view")
    func uniformView() {
        func observe(_ source: some Subscribable<Int>, into log: Log<Int>) -> Connection {
            source.subscribe { log.append($0) }
        }
        let signal = Signal<Int>()
        let log = Log<Int>()
        let connection = observe(signal, into: log)
        signal.send(4)
        #expect(log.all == [4])
        _ = connection
    }
}

/// A class to watch with a `weak` reference.
final class Token {}

/// A thread-safe log.
final class Log<Event: Sendable>: Sendable {
    private let events = LockedState<[Event]>([])
    func append(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
}

extension Notification.Name {
    /// Stands in for `NSCalendarDayChanged` in the seed's midnight example; each test run
    /// posts it only from the test that observes it.
    static let dayChanged = Notification.Name("GlueTests.dayChanged")
}
