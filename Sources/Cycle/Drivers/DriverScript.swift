/// A driver for tests: it records the models it is given and plays the events the test
/// scripts, as the real driver would report them.
///
/// With a ``TimerDriver`` on a `TestScheduler`, it makes a virtual-time harness in the spirit
/// of `@cycle/time`'s mock: script the events, advance the clock, assert the models.
///
/// ```swift
/// let screen = DriverScript<TerminalFrame, TerminalEvent>()
/// let loop = CycleLoop(program: App(screen: screen, timer: TimerDriver(scheduler: scheduler)))
/// screen.play(.key("d"))
/// scheduler.advance(by: .seconds(1))
/// #expect(screen.rendered.last == TerminalFrame(["..."]))
/// ```
public final class DriverScript<Model, Event>: Driver {
    /// Every model rendered, in order.
    public private(set) var rendered: [Model] = []
    private var sink: ((Event) -> Void)?
    private var pending: [Event] = []

    /// A driver with nothing scripted.
    public init() {}

    /// Whether a loop has wired the driver.
    public var isWired: Bool { sink != nil }

    /// Reports `event` to the loop, as the real driver would (or when wired, if not yet).
    public func play(_ event: Event) {
        if let sink { sink(event) } else { pending.append(event) }
    }

    /// Records the models and reports the scripted events.
    public func rendered(_ models: EventStream<Model>) -> EventStream<Event> {
        EventStream { [self] sink in
            self.sink = sink
            let waiting = pending
            pending = []
            for event in waiting { sink(event) }
            let connection = models.subscribe { [self] in rendered.append($0) }
            return Connection(isolated: { [self] in
                connection.disconnect()
                self.sink = nil
            })
        }
    }
}
