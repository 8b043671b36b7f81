import Cycle
import TestSupport
import Testing

private struct Tally: Equatable {
    var count = 0
}

private enum TallyEvent: Equatable {
    case increment
    case add(Int)
}

private var tally: Component<TallyEvent, Tally> {
    Component { event, tally in
        switch event {
        case .increment: tally.count += 1
        case .add(let amount): tally.count += amount
        }
    }
}

private struct Models: Equatable {
    var left = Tally()
    var right = Tally()
    var dialog: Tally?
    var counters = [Tally](repeating: Tally(), count: 5)
    var summary = ""
}

private enum Event {
    case left(TallyEvent)
    case right(TallyEvent)
    case dialog(TallyEvent)
    case open
    case close
    case row(Int, TallyEvent)
}

private var reducer: Component<Event, Models> {
    Component<Event, Models>.combine(
        [
            tally.isolated(\Models.left, events: { if case .left(let event) = $0 { event } else { nil } }),
            tally.isolated(\Models.right, events: { if case .right(let event) = $0 { event } else { nil } }),
            tally.isolated(\Models.dialog, events: { if case .dialog(let event) = $0 { event } else { nil } }),
            Component { event, models in
                switch event {
                case .open: models.dialog = Tally()
                case .close: models.dialog = nil
                default: break
                }
            },
        ]
            + (0..<5).map { row in
                tally.isolated(
                    \Models.counters[row],
                    events: { if case .row(row, let event) = $0 { event } else { nil } })
            }
            + [
                // Runs last: sees every write made before it for this event.
                Component { _, models in
                    models.summary = "\(models.left.count) \(models.right.count) \(models.dialog?.count ?? -1)"
                }
            ])
}

/// A program whose reducers are the components above, with one scripted driver for
/// everything.
private struct Program: SinkSourceConverting {
    typealias DriverEvent = Event
    typealias DriverModels = Models
    let script: DriverScript<Models, Event>

    func eventsFrom(effects: EventStream<Models>) -> EventStream<Event> { script.rendered(effects) }
    func effectsFrom(events: EventStream<(Event, Models)>) -> EventStream<Models> { reducer.effects(from: events) }
    func start() -> (Event, Models) { (.left(.add(0)), Models()) }
}

@Suite("Cycle: components on slices of the models")
struct ComponentTests {
    @Test("two isolated copies of one component each see their own events and write only their slice")
    func isolatedCopies() {
        var models = Models()
        reducer.reduce(.left(.increment), into: &models)
        reducer.reduce(.left(.add(4)), into: &models)
        reducer.reduce(.right(.increment), into: &models)
        #expect(models.left == Tally(count: 5))
        #expect(models.right == Tally(count: 1))
        #expect(models.counters.allSatisfy { $0.count == 0 })
        #expect(models.summary == "5 1 -1")
    }

    @Test("a component on an optional slice runs only while the slice is present")
    func optionalSlice() {
        var models = Models()
        reducer.reduce(.dialog(.increment), into: &models)
        #expect(models.dialog == nil)
        reducer.reduce(.open, into: &models)
        reducer.reduce(.dialog(.add(3)), into: &models)
        #expect(models.dialog == Tally(count: 3))
        #expect(models.summary == "0 0 3")
        reducer.reduce(.close, into: &models)
        reducer.reduce(.dialog(.increment), into: &models)
        #expect(models.dialog == nil)
        #expect(models.summary == "0 0 -1")
    }

    @Test("in a loop: the drivers render the models the components make, one event at a time")
    func inALoop() {
        let script = DriverScript<Models, Event>()
        let loop = CycleLoop(program: Program(script: script))
        script.play(.right(.add(2)))
        script.play(.row(3, .increment))
        #expect(loop.currentModels.right.count == 2)
        #expect(loop.currentModels.counters[3].count == 1)
        #expect(script.rendered.map(\.summary) == ["", "0 0 -1", "0 2 -1", "0 2 -1"])
        loop.dispose()
        #expect(!script.isWired)
    }

    @Test("model: random events against counters kept in plain arrays", arguments: 0..<20 as Range<UInt64>)
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var models = Models()
        var left = 0
        var right = 0
        var dialog: Int?
        var rows = [Int](repeating: 0, count: 5)
        for _ in 0..<200 {
            let amount = Int.random(in: -3...3, using: &random)
            let event: Event
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                event = .left(.add(amount))
                left += amount
            case 1:
                event = .right(.increment)
                right += 1
            case 2:
                event = .dialog(.add(amount))
                if dialog != nil { dialog! += amount }
            case 3:
                let open = Bool.random(using: &random)
                event = open ? .open : .close
                dialog = open ? 0 : nil
            default:
                let row = Int.random(in: 0..<5, using: &random)
                event = .row(row, .add(amount))
                rows[row] += amount
            }
            reducer.reduce(event, into: &models)
            #expect(models.left.count == left && models.right.count == right)
            #expect(models.dialog?.count == dialog)
            #expect(models.counters.map(\.count) == rows)
            #expect(models.summary == "\(left) \(right) \(dialog ?? -1)")
        }
    }
}
