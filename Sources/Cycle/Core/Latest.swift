extension EventStream where Value: Sendable {
    /// A stream of the results of `transform`, asynchronous work run for each value, that
    /// passes a result only if no later value came meanwhile: a new value cancels the task of
    /// the one before it, and a superseded task's result is dropped (xstream's `flatten` of
    /// the latest, for async work).
    ///
    /// ```swift
    /// let results = queries.flatMapLatest { text in await backend.results(for: text) }
    /// ```
    ///
    /// Each value's work runs in a task of its own, off the actor; its result is delivered on
    /// the actor that made the stream (`isolation`, by default the caller's: the loop's
    /// domain), where the loop runs. Disconnecting a subscription cancels its task under way
    /// and drops its results. When this stream finishes, the latest value's work still runs:
    /// its result is passed, then the completion. For work a program's drivers should own (requests the models
    /// describe), prefer a driver: this operator is for work between streams, such as a
    /// driver's own implementation.
    public func flatMapLatest<Output: Sendable>(
        isolation: isolated (any Actor) = #isolation,
        _ transform: @escaping @Sendable (Value) async -> Output
    ) -> EventStream<Output> {
        let actor: any Actor = isolation
        return EventStream<Output>(subscribeEvents: { sink in
            subscribeLatest(
                subscribeEvents: { subscribe(events: $0) }, actor: actor, transform: transform, sink: sink)
        })
    }
}
