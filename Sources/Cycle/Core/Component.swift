/// A part of a program's reducers that reads and writes one slice of the models and handles
/// only its own events: Cycle.js's `isolate`, for state.
///
/// A component is written against its own event and model types, as if it were the whole
/// program; ``isolated(_:events:)-(WritableKeyPath<Parent,Model>,_)`` places it in a larger program, on one slice of that
/// program's models (a writable key path) and seeing only the events it extracts. The
/// component cannot read or write anything outside its slice, so two isolated copies of one
/// component (two counters, two forms) never interfere.
///
/// ```swift
/// struct Counter { var count = 0 }
/// enum CounterEvent { case increment, decrement }
/// let counter = Component<CounterEvent, Counter> { event, counter in
///     switch event {
///     case .increment: counter.count += 1
///     case .decrement: counter.count -= 1
///     }
/// }
///
/// struct Models { var left = Counter(); var right = Counter(); var screen = TerminalFrame() }
/// enum Event { case left(CounterEvent), right(CounterEvent), key(TerminalEvent) }
///
/// let reducer = Component<Event, Models>.combine(
///     counter.isolated(\.left, events: { if case .left(let event) = $0 { event } else { nil } }),
///     counter.isolated(\.right, events: { if case .right(let event) = $0 { event } else { nil } }),
///     Component { _, models in models.screen = TerminalFrame(["\(models.left.count) \(models.right.count)"]) })
/// ```
///
/// and in the program:
///
/// ```swift
/// func effectsFrom(events: EventStream<(Event, Models)>) -> EventStream<Models> {
///     reducer.effects(from: events)
/// }
/// ```
///
/// Components are plain functions of an event and a slice: they run synchronously inside the
/// loop's processing of one event, in the order combined, each seeing the writes of those
/// before it.
public struct Component<Event, Model> {
    private let body: (Event, inout Model) -> Void

    /// A component that reduces each event into the model with `reduce`.
    public init(_ reduce: @escaping (_ event: Event, _ model: inout Model) -> Void) {
        body = reduce
    }

    /// Applies `event` to `model`.
    public func reduce(_ event: Event, into model: inout Model) {
        body(event, &model)
    }

    /// The models `event` makes of `models`.
    public func reduced(_ event: Event, _ models: Model) -> Model {
        var models = models
        body(event, &models)
        return models
    }

    /// This component placed in a larger program: it works on the `slice` of the program's
    /// models and sees only the events for which `events` returns one of its own; for every
    /// other event it does nothing.
    public func isolated<ParentEvent, Parent>(
        _ slice: WritableKeyPath<Parent, Model>, events: @escaping (ParentEvent) -> Event?
    ) -> Component<ParentEvent, Parent> {
        let body = body
        return Component<ParentEvent, Parent> { event, parent in
            guard let event = events(event) else { return }
            body(event, &parent[keyPath: slice])
        }
    }

    /// This component placed in a larger program, on the `slice` of its models, seeing every
    /// event.
    public func isolated<Parent>(_ slice: WritableKeyPath<Parent, Model>) -> Component<Event, Parent> {
        isolated(slice, events: { $0 })
    }

    /// This component on an optional slice: it runs only while the slice is present (not
    /// `nil`); events that come while it is absent are dropped. Another component (the
    /// parent's) sets and clears the slice.
    public func isolated<ParentEvent, Parent>(
        _ slice: WritableKeyPath<Parent, Model?>, events: @escaping (ParentEvent) -> Event?
    ) -> Component<ParentEvent, Parent> {
        let body = body
        return Component<ParentEvent, Parent> { event, parent in
            guard let event = events(event), var model = parent[keyPath: slice] else { return }
            // Taken out while the component runs, so the slice is not copied on write.
            parent[keyPath: slice] = nil
            body(event, &model)
            parent[keyPath: slice] = model
        }
    }

    /// This component run for each element of a collection in the program's models, as
    /// Cycle.js's `makeCollection` runs a child per item: an event that `events` routes to an
    /// id reaches the element with that id, and only it.
    ///
    /// ```swift
    /// struct Models { var counters: [Counter] = [] }   // Counter has `let id: Int`
    /// enum Event { case add(id: Int), remove(id: Int), counter(id: Int, CounterEvent) }
    ///
    /// let reducer = Component<Event, Models>.combine(
    ///     Component { event, models in
    ///         switch event {
    ///         case .add(let id): models.counters.append(Counter(id: id))
    ///         case .remove(let id): models.counters.removeAll { $0.id == id }
    ///         case .counter: break
    ///         }
    ///     },
    ///     counter.forEach(\.counters, id: \.id, events: {
    ///         if case .counter(let id, let event) = $0 { (id, event) } else { nil }
    ///     }))
    /// ```
    ///
    /// Children are added and removed with their state by whoever edits the collection (the
    /// parent's reducer): a child's state is its element, so removing the element removes the
    /// child, and an element added later starts from its own state. An event for an id that is
    /// not in the collection (a child removed meanwhile) is dropped. Finding the element costs
    /// O(n) comparisons of ids; the child's reducer runs on the element in place.
    ///
    /// - Precondition: the id an event is routed to belongs to at most one element.
    public func forEach<ParentEvent, Parent, ID: Hashable>(
        _ collection: WritableKeyPath<Parent, [Model]>, id: KeyPath<Model, ID>,
        events: @escaping (ParentEvent) -> (id: ID, event: Event)?
    ) -> Component<ParentEvent, Parent> {
        let body = body
        return Component<ParentEvent, Parent> { event, parent in
            guard let (target, event) = events(event) else { return }
            let elements = parent[keyPath: collection]
            guard let index = elements.firstIndex(where: { $0[keyPath: id] == target }) else { return }
            precondition(
                !elements[elements.index(after: index)...].contains { $0[keyPath: id] == target },
                "Cycle: two elements of a collection have the id \(target); forEach routes each event to one")
            body(event, &parent[keyPath: collection][index])
        }
    }

    /// One component that runs `components` in order on each event, each seeing the writes
    /// of those before it.
    public static func combine(_ components: [Component]) -> Component {
        let bodies = components.map(\.body)
        return Component { event, model in
            for body in bodies { body(event, &model) }
        }
    }

    /// One component that runs `components` in order on each event.
    public static func combine(_ components: Component...) -> Component {
        combine(components)
    }

    /// The reducer stream of a program (``SinkSourceConverting/effectsFrom(events:)``): each
    /// event, with the models current when it is processed, becomes the models this
    /// component makes of them.
    public func effects(from events: EventStream<(Event, Model)>) -> EventStream<Model> {
        let body = body
        return events.map { event, models in
            var models = models
            body(event, &models)
            return models
        }
    }
}
