extension SourceType where Value: Sendable {
    /// A source of the results of `transform`, asynchronous work run for each value, that
    /// sends a result only if no later value came meanwhile: a new value cancels the task of
    /// the one before it, and a superseded task's result is dropped even if it finishes
    /// anyway (RxSwift's `flatMapLatest`, for async work).
    ///
    /// ```swift
    /// let results = query.futureValues
    ///     .throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
    ///     .flatMapLatest { text in await backend.results(for: text) }
    /// let connection = results.subscribe { shown.value = $0 }
    /// ```
    ///
    /// Each value's work runs in a task of its own, off the actor; its result is sent on the
    /// actor that made the source (`isolation`, by default the caller's: the main actor in an
    /// app), where a Glue source delivers, never nested in another delivery. Disconnecting a
    /// subscription cancels its task under way and drops its results. Each subscription has
    /// its own work. A source has no failure: return failures as values (`Result`, an
    /// optional).
    public func flatMapLatest<Output: Sendable>(
        isolation: isolated (any Actor) = #isolation,
        _ transform: @escaping @Sendable (Value) async -> Output
    ) -> LatestSource<Self, Output> {
        LatestSource(base: self, actor: isolation, transform: transform)
    }
}

/// A source of the results of async work run for each value of its base, the latest value's
/// only; made by ``SourceType/flatMapLatest(isolation:_:)``.
public struct LatestSource<Base: SourceType, Output: Sendable>: SourceType where Base.Value: Sendable {
    let base: Base
    let actor: any Actor
    let transform: @Sendable (Base.Value) async -> Output

    /// Starts running the work for each value of the base and sending the latest results to
    /// `sink`, on the source's actor.
    public func subscribe(_ sink: @escaping (Output) -> Void) -> Connection {
        subscribeLatest(subscribe: base.subscribe, actor: actor, transform: transform, sink: sink)
    }
}
