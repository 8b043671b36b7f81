import ReactiveCore

extension CycleLoop: Inspectable {
    /// The loop as an `Inspection`: the events it processes, the program's reducer, the driver
    /// models it computes, and one node per field of the models (each the model of one
    /// driver, or of the app's own state) with its current value; edges in the loop's order,
    /// from the events through the reducer and the models to each driver's model, and from
    /// each driver's model back to the events.
    ///
    /// Statistics: `processedEvents`, `driverSubscriptions` (the subscriptions to the models:
    /// the drivers and whatever else follows them), `reducerSubscriptions` (to the pairs of
    /// event and models) and `disposed` (1 once disposed).
    public func inspect() -> Inspection {
        var builder = InspectionBuilder(paradigm: "Cycle")
        let events = builder.node(
            for: self, kind: "events", details: ["processed": "\(processedEvents)", "disposed": "\(isDisposed)"]
        ).id
        let reducer = builder.add(kind: "reducer", name: "\(Program.self).effectsFrom(events:)")
        let models = builder.add(kind: "models", name: "\(Program.DriverModels.self)")
        builder.edge(from: events, to: reducer)
        builder.edge(from: reducer, to: models)
        let fields = Mirror(reflecting: currentModels).children
        if fields.isEmpty {
            builder.edge(from: models, to: events, label: "drivers")
        }
        for field in fields {
            let model = builder.add(kind: "driver model", name: field.label, value: String(describing: field.value))
            builder.edge(from: models, to: model)
            builder.edge(from: model, to: events, label: "events")
        }
        builder.statistics["processedEvents"] = processedEvents
        builder.statistics["driverSubscriptions"] = modelSubscriberCount
        builder.statistics["reducerSubscriptions"] = pairSubscriberCount
        builder.statistics["disposed"] = isDisposed ? 1 : 0
        return builder.build()
    }
}
