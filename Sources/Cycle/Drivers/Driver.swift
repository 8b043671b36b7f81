/// Renders a stream of models as side effects and reports what happened as events.
///
/// A driver starts its work when its events are subscribed (the loop wires it) and stops when
/// that subscription ends (the loop is disposed).
public protocol Driver {
    /// What the driver should do.
    associatedtype Model
    /// What the driver reports.
    associatedtype Event

    /// Renders `models` and returns the driver's events.
    func rendered(_ models: EventStream<Model>) -> EventStream<Event>
}

/// The last model a driver rendered, so that an equal one is not rendered again.
final class LastWritten<State> {
    var value: State?
}
