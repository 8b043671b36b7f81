import ReactiveCore

extension CycleLoop: DeltaSource {
    /// Sends the current driver models as one transaction, at once, then the models after
    /// each event, one transaction per event: what the conformance to `DeltaSource` uses, so
    /// the models drive another paradigm (an Incremental input, a Glue variable, a Signals
    /// property). Sent where the loop processes its events. Subscribing does not keep the
    /// loop alive, and a disposed loop sends nothing more.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Program.DriverModels>) -> Void) -> Connection {
        let connection = modelChanges.subscribe { models in
            sink(.begin)
            sink(.delta(models))
            sink(.end)
        }
        sink(.begin)
        sink(.delta(currentModels))
        sink(.end)
        return connection
    }
}

/// A driver whose events are the values of any `Subscribable`: another paradigm's node,
/// store, storage, observable or property feeds a Cycle loop.
///
/// ```swift
/// let prices = SubscriptionDriver(total)   // `total`: an Incremental node
/// // in eventsFrom(effects:): prices.rendered(effects.map(\.listening)).map(Event.total)
/// ```
///
/// Its model says whether to listen: while the last model is `true`, the driver is
/// subscribed to the source and reports every value it delivers (for most sources, the
/// current value first); `false` disconnects, and a later `true` subscribes again. An equal
/// model changes nothing. The subscription ends when the loop is disposed.
///
/// Values arrive where the source delivers them; a Signals source delivers on the thread
/// that writes it, which must be the loop's (dispatch the Signals chain to it first).
public struct SubscriptionDriver<Source: Subscribable>: Driver {
    /// Whether to listen to the source.
    public typealias Model = Bool
    /// The source's values.
    public typealias Event = Source.Value

    private let source: Source

    /// A driver reporting `source`'s values while its model is `true`.
    public init(_ source: Source) {
        self.source = source
    }

    /// Subscribes to the source while the last model is `true`.
    public func rendered(_ models: EventStream<Bool>) -> EventStream<Source.Value> {
        let source = source
        return EventStream { sink in
            let state = SubscriptionDriverState()
            // The sink runs where the source delivers, which the documentation above makes
            // the loop's domain; see `IsolatedSink`.
            let forward = IsolatedSink(sink)
            let connection = models.subscribe { listening in
                guard listening != state.isListening else { return }
                state.isListening = listening
                state.subscription?.disconnect()
                state.subscription = listening ? source.subscribe { forward($0) } : nil
            }
            return Connection(isolated: {
                connection.disconnect()
                state.subscription?.disconnect()
                state.subscription = nil
            })
        }
    }
}

final class SubscriptionDriverState {
    var isListening = false
    var subscription: Connection?
}
