/// A Cycle program: a filter over driver events.
///
/// ```swift
/// struct Counter: SinkSourceConverting {
///     enum DriverEvent { case started, timer(TimerEvent), screen(TerminalEvent) }
///     struct DriverModels { var timer = TimerModel.stopped; var screen = TerminalFrame() }
///     let timer: TimerDriver
///     let screen: TerminalDriver
///
///     func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent> {
///         .merge(
///             timer.rendered(effects.map(\.timer)).map(DriverEvent.timer),
///             screen.rendered(effects.map(\.screen)).map(DriverEvent.screen))
///     }
///
///     func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels> {
///         events.map { event, models in reduce(event, models) }
///     }
///
///     func reduce(_ event: DriverEvent, _ models: DriverModels) -> DriverModels {
///         var models = models
///         if case .screen(.key("s")) = event { models.timer = .ticking(every: .seconds(1)) }
///         return models
///     }
///
///     func start() -> (DriverEvent, DriverModels) { (.started, DriverModels()) }
/// }
/// ```
///
/// 1. The events are fed, with the current models, to the reducers (``effectsFrom(events:)``),
///    which produce new models.
/// 2. The models are fed to the drivers (``eventsFrom(effects:)``), which render their side
///    effects.
/// 3. The drivers turn what happened into new events, and the cycle repeats.
public protocol SinkSourceConverting {
    /// Everything any driver can report.
    associatedtype DriverEvent
    /// What every driver should render, together.
    associatedtype DriverModels

    /// Wires the drivers: renders each driver's part of `effects` and merges what they
    /// report.
    func eventsFrom(effects: EventStream<DriverModels>) -> EventStream<DriverEvent>

    /// The reducers: each event, with the models current when it is processed, becomes new
    /// models (or none, to keep the current ones).
    func effectsFrom(events: EventStream<(DriverEvent, DriverModels)>) -> EventStream<DriverModels>

    /// The first event and the models before it.
    func start() -> (DriverEvent, DriverModels)
}

/// Runs a ``SinkSourceConverting`` program: wires its drivers, feeds events to its reducers
/// and models to its drivers, until disposed.
///
/// ## Order
///
/// Events are processed one at a time, first in, first out. An event a driver reports while
/// the loop is busy (while rendering models, or while the drivers are being wired) waits in
/// the queue and is processed after the current one: reducers are never entered recursively,
/// and events reported before every driver is wired are kept, not lost. For each event the
/// reducers run once, then the new models reach every driver, then the next event is taken.
public final class CycleLoop<Program: SinkSourceConverting> {
    private let models = EventSubject<Program.DriverModels>()
    private let pairs = EventSubject<(Program.DriverEvent, Program.DriverModels)>()
    private var connections: [Connection] = []
    /// The events waiting while one is processed: ReactiveCore's FIFO, never-nested queue.
    private let events = SerialQueue<Program.DriverEvent>()

    /// The models after the last event.
    public private(set) var currentModels: Program.DriverModels
    /// How many events the loop has processed.
    public private(set) var processedEvents = 0
    #if CYCLE_INTERNAL_CHECKS
        /// Whether an event is being processed (C1).
        private var isProcessingEvent = false
    #endif

    /// Starts `program`: wires its drivers, then processes its start event and every event
    /// reported meanwhile.
    public init(program: Program) {
        let (startEvent, startModels) = program.start()
        currentModels = startModels
        // Wiring runs as the first item of the queue: drivers wired here may report at once
        // (a session read from disk), and those events wait behind the start event.
        _ = events.runIfIdle(
            { [unowned self] in
                connections.append(
                    program.effectsFrom(events: pairs.stream).subscribe { [unowned self] newModels in
                        currentModels = newModels
                        models.send(newModels)
                    })
                connections.append(
                    program.eventsFrom(effects: models.stream).subscribe { [unowned self] in receive($0) })
                models.send(startModels)
                #if CYCLE_INTERNAL_CHECKS
                    cycleCheck(
                        processedEvents == 0, "C2",
                        "\(processedEvents) event(s) were processed before the start event")
                #endif
                process(startEvent)
            }, then: process)
        #if CYCLE_INTERNAL_CHECKS
            cycleCheck(
                processedEvents >= 1 || isDisposed, "C2", "the loop started without processing its start event"
            )
        #endif
    }

    /// Feeds `event` to the loop as a driver would; it is processed after the queued ones.
    /// After ``dispose()``, events are ignored.
    public func receive(_ event: Program.DriverEvent) {
        events.submit(event, process)
    }

    /// Tears down every driver (their subscriptions end) and the loop's wiring; events still
    /// queued are dropped.
    public func dispose() {
        let connections = connections
        self.connections = []
        for connection in connections.reversed() { connection.disconnect() }
        #if CYCLE_INTERNAL_CHECKS
            cycleCheck(self.connections.isEmpty, "C4", "the loop was wired again while it was disposed")
        #endif
    }

    /// How many subscriptions follow the models, for inspection.
    var modelSubscriberCount: Int { models.subscriberCount }

    /// How many subscriptions follow the pairs of event and models, for inspection.
    var pairSubscriberCount: Int { pairs.subscriberCount }

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool { connections.isEmpty }

    /// The models after each event, as the drivers receive them; nothing on subscription
    /// (``currentModels`` is the value now). Subscribing does not keep the loop alive, and a
    /// disposed loop sends nothing.
    public var modelChanges: EventStream<Program.DriverModels> {
        models.stream
    }

    private func process(_ event: Program.DriverEvent) {
        guard !isDisposed else { return }
        #if CYCLE_INTERNAL_CHECKS
            cycleCheck(!isProcessingEvent, "C1", "an event is processed while another is")
            isProcessingEvent = true
            defer { isProcessingEvent = false }
        #endif
        processedEvents += 1
        pairs.send((event, currentModels))
    }

    deinit {
        dispose()
    }
}
