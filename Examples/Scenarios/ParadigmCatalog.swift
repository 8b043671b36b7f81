/// One paradigm the package carries, described for the tour and the README.
public struct ParadigmInfo: Sendable {
    /// The paradigm's name, as `--paradigm` takes it.
    public let name: String
    /// The module to import.
    public let module: String
    /// What it is, in one line.
    public let summary: String
    /// When to pick it, in one line.
    public let pickWhen: String
    /// Whether the module has landed in this package yet.
    public let isAvailable: Bool
}

/// The paradigms the package carries and the adapters that run them through the shared
/// scenarios.
public enum ParadigmCatalog {
    /// The six paradigms, plus the hand-written baseline they are measured against.
    public static let paradigms: [ParadigmInfo] = [
        ParadigmInfo(
            name: "SignalGraph", module: "SignalGraph",
            summary:
                "state-ful signals (initiation, transition, termination) between emitters and sensors; storages, replications and sorted, filtered views",
            pickWhen: "you keep collections in sync across layers by mutation commands, and want teardown checked",
            isAvailable: true),
        ParadigmInfo(
            name: "Glue", module: "Glue",
            summary:
                "sources, sinks and connections; Signal, Variable, observables and updatables with GlueKit's operators",
            pickWhen: "you want small, explicit observable values and operators, single-threaded and fast",
            isAvailable: true),
        ParadigmInfo(
            name: "Incremental", module: "Incremental",
            summary:
                "self-adjusting computation: inputs and derived values recomputed glitch-free, in height order, only when observed",
            pickWhen: "you derive a lot from a little and must never show an inconsistent mix",
            isAvailable: true),
        ParadigmInfo(
            name: "Resin", module: "Resin",
            summary:
                "a store on Incremental: actions, reducers, middleware, focused sub-stores, parcels and navigation as state",
            pickWhen: "one app state changed only by actions, observed in focused slices",
            isAvailable: true),
        ParadigmInfo(
            name: "Cycle", module: "Cycle",
            summary: "a driver loop: events feed a reducer, its models drive drivers, drivers emit events",
            pickWhen: "your program is mostly effects (timers, network, disk, terminal) around a pure core",
            isAvailable: true),
        ParadigmInfo(
            name: "Signals", module: "Signals",
            summary: "thread-safe signals, properties and timers with queue-dispatched modifier chains",
            pickWhen: "values cross threads and queues, and every message must arrive exactly once",
            isAvailable: true),
        ParadigmInfo(
            name: "Baseline", module: "ReactiveCore",
            summary:
                "hand-written closures and the common module's Connection: the limit every paradigm is measured against",
            pickWhen: "a handful of values with one observer each, where a library is not worth its weight",
            isAvailable: true),
    ]

    /// The adapters that run through the shared scenarios, one per landed paradigm.
    public static let adapters: [AnyParadigmAdapter] = [
        AnyParadigmAdapter(SignalGraphAdapter()),
        AnyParadigmAdapter(GlueAdapter()),
        AnyParadigmAdapter(IncrementalAdapter()),
        AnyParadigmAdapter(ResinAdapter()),
        AnyParadigmAdapter(CycleAdapter()),
        AnyParadigmAdapter(SignalsAdapter()),
        AnyParadigmAdapter(BaselineAdapter()),
    ]

    /// The paradigm named `name` (case-insensitive), if the package carries it.
    public static func paradigm(named name: String) -> ParadigmInfo? {
        paradigms.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The adapter for the paradigm named `name` (case-insensitive), if it has landed.
    public static func adapter(named name: String) -> AnyParadigmAdapter? {
        adapters.first { $0.name.lowercased() == name.lowercased() }
    }
}
