// swift-tools-version: 6.2
//
// One package, one library product per paradigm, no package dependencies.
// Module map and dependency rules: ARCHITECTURE.md.

import PackageDescription

// Internal invariant checks, compiled in per module under `<MODULE>_INTERNAL_CHECKS`
// (`INCREMENTAL_INTERNAL_CHECKS`, `SIGNALS_INTERNAL_CHECKS`, ...): each engine's
// `_checkInvariants()` then runs after every public mutating operation and propagation, and
// costs nothing when the flag is off. Switch them on from the environment, for all modules or
// some, with a build folder of their own (the manifest is evaluated again, and a shared
// folder would rebuild at every switch):
//
//     PARADIGMS_INTERNAL_CHECKS=all swift test --scratch-path .build-checks
//     PARADIGMS_INTERNAL_CHECKS=Incremental,Resin swift test --scratch-path .build-checks
//
// or pass the flag itself: `swift build -Xswiftc -DINCREMENTAL_INTERNAL_CHECKS`.
// Documentation/Internals/ lists what each module checks.
let checkedModules: Set<String> = {
    let requested = (Context.environment["PARADIGMS_INTERNAL_CHECKS"] ?? "")
        .split(separator: ",").map { $0.filter { $0 != " " } }
    let all: Set<String> = ["ReactiveCore", "SignalGraph", "Glue", "Incremental", "Resin", "Cycle", "Signals"]
    if requested.contains(where: { ["all", "1", "true", "yes"].contains($0.lowercased()) }) { return all }
    return all.intersection(requested)
}()

/// The settings of `module`: its checks' flag when they are switched on.
func checks(_ module: String) -> [SwiftSetting] {
    checkedModules.contains(module) ? [.define("\(module.uppercased())_INTERNAL_CHECKS")] : []
}

/// The test targets a build holds: every one, or those `PARADIGMS_TEST_TARGETS` lists
/// (comma-separated names). CI's sanitizer and mutant builds use it to compile only the suites
/// they run: ThreadSanitizer's leaves out the suites that start no thread, and each engine's
/// mutants build the suites their patches name, so that a mutant relinks a small test binary.
let selectedTestTargets: Set<String>? = {
    guard let list = Context.environment["PARADIGMS_TEST_TARGETS"], !list.isEmpty else { return nil }
    return Set(list.split(separator: ",").map { String($0.filter { $0 != " " }) })
}()

/// `targets` without the test targets `PARADIGMS_TEST_TARGETS` leaves out.
func selectingTests(_ targets: [Target]) -> [Target] {
    guard let selectedTestTargets else { return targets }
    let unknown = selectedTestTargets.subtracting(targets.filter { $0.type == .test }.map(\.name))
    precondition(unknown.isEmpty, "PARADIGMS_TEST_TARGETS names no test target called \(unknown.sorted())")
    return targets.filter { $0.type != .test || selectedTestTargets.contains($0.name) }
}

let package = Package(
    name: "swift-paradigms",
    // The APIs need Swift 6.2 (`weak let`, exit tests in the test suite) and, on Apple
    // platforms, the releases that ship Swift 6's concurrency runtime, `Duration` and
    // Synchronization. Linux needs no declaration.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ReactiveCore", targets: ["ReactiveCore"]),
        .library(name: "SignalGraph", targets: ["SignalGraph"]),
        .library(name: "Glue", targets: ["Glue"]),
        .library(name: "Incremental", targets: ["Incremental"]),
        .library(name: "Resin", targets: ["Resin"]),
        .library(name: "ResinTesting", targets: ["ResinTesting"]),
        .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "Cycle", targets: ["Cycle"]),
        .library(name: "DevTools", targets: ["DevTools"]),
        .executable(name: "paradigms", targets: ["Paradigms"]),
        .executable(name: "resin-navigation", targets: ["ResinNavigation"]),
        .executable(name: "counter-undo", targets: ["CounterUndo"]),
        .executable(name: "todo-list", targets: ["TodoList"]),
        .executable(name: "search-as-you-type", targets: ["SearchAsYouType"]),
        .executable(name: "cycle-download", targets: ["CycleDownload"]),
        .executable(name: "shopping-list", targets: ["ShoppingList"]),
        .executable(name: "inventory", targets: ["Inventory"]),
    ],
    targets: selectingTests([
        // The common module: connections, the uniform subscribe view, virtual time.
        .target(name: "ReactiveCore", swiftSettings: checks("ReactiveCore")),

        // State-ful signals: emitters, sensors, storages, replications and views.
        .target(name: "SignalGraph", dependencies: ["ReactiveCore"], swiftSettings: checks("SignalGraph")),

        // GlueKit's paradigm: sources, sinks, signals, observables and updatables.
        .target(name: "Glue", dependencies: ["ReactiveCore"], swiftSettings: checks("Glue")),

        // Self-adjusting computation: inputs, derived values, height-ordered propagation.
        .target(
            name: "Incremental", dependencies: ["ReactiveCore"], swiftSettings: checks("Incremental"),
            // `dlsym` (BlockArena's AddressSanitizer hooks) is in libdl before glibc 2.34.
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // Marble tests on virtual time for any paradigm's streams; a module of its own, as
        // ResinTesting, so that apps do not link Testing.
        .target(name: "ReactiveTesting", dependencies: ["ReactiveCore"]),

        // A store on Incremental: actions, reducers, middleware, focused stores, parcels.
        .target(name: "Resin", dependencies: ["Incremental", "ReactiveCore"], swiftSettings: checks("Resin")),
        // Resin's exhaustive test store; a module of its own so apps do not link Testing.
        .target(name: "ResinTesting", dependencies: ["Resin", "ReactiveCore"]),

        // A driver loop: events -> reducer -> driver models -> drivers -> events.
        .target(name: "Cycle", dependencies: ["ReactiveCore"], swiftSettings: checks("Cycle")),

        // Thread-safe signals, properties and timers with queue-dispatched modifier chains.
        .target(name: "Signals", dependencies: ["ReactiveCore"], swiftSettings: checks("Signals")),

        // A devtools page for every paradigm: an HTML file, or served live on 127.0.0.1, drawn
        // from ReactiveCore's inspections and traces; depends on no paradigm.
        .target(name: "DevTools", dependencies: ["ReactiveCore"]),

        // The shared scenarios and each paradigm's adapter. Used by the shared test
        // suite and by the `paradigms` tour; not a product, so it lives with the examples.
        .target(
            name: "Scenarios",
            dependencies: ["ReactiveCore", "Glue", "Incremental", "Resin", "Signals", "SignalGraph", "Cycle"],
            path: "Examples/Scenarios"),

        // The front door: `swift run paradigms`.
        .executableTarget(
            name: "Paradigms",
            dependencies: ["Scenarios", "DevTools"],
            path: "Examples/Paradigms"
        ),

        // Resin's navigation, rendered in a terminal.
        .executableTarget(
            name: "ResinNavigation", dependencies: ["Resin", "ExampleSupport"], path: "Examples/ResinNavigation",
            exclude: ["Scripts"]),

        // A shopping list app built only from Resin's public API: typed navigation, shared
        // and persisted state, composed effects, dependencies. Its features are a target of
        // their own, so that ResinTests tests them with the test store.
        .target(name: "ShoppingListFeature", dependencies: ["Resin"], path: "Examples/ShoppingList/Feature"),
        .executableTarget(
            name: "ShoppingList", dependencies: ["ShoppingListFeature", "Resin", "ExampleSupport"],
            path: "Examples/ShoppingList/App",
            exclude: ["Scripts"]),

        // Three paradigms in one program, joined by delta bridges: SignalGraph rows, an
        // Incremental summary, a Resin screen.
        .executableTarget(
            name: "Inventory", dependencies: ["SignalGraph", "Incremental", "Resin", "ReactiveCore", "ExampleSupport"],
            path: "Examples/Inventory", exclude: ["Scripts"]),

        // The Cycle seed's network / screen / session program.
        .executableTarget(
            name: "CycleDownload", dependencies: ["Cycle", "ExampleSupport"], path: "Examples/CycleDownload",
            exclude: ["Scripts"]),

        // What the examples share: their command line, and a loopback HTTP server. Examples
        // never link Testing.
        .target(name: "ExampleSupport", dependencies: ["ReactiveCore", "DevTools"], path: "Examples/Support"),

        // The same counter with undo in every paradigm.
        .executableTarget(
            name: "CounterUndo",
            dependencies: [
                "SignalGraph", "Glue", "Incremental", "Resin", "Cycle", "Signals", "ReactiveCore", "ExampleSupport",
            ],
            path: "Examples/CounterUndo", exclude: ["Scripts"]),

        // The same todo list with a filter and an order in every paradigm.
        .executableTarget(
            name: "TodoList",
            dependencies: [
                "SignalGraph", "Glue", "Incremental", "Resin", "Cycle", "Signals", "ReactiveCore", "ExampleSupport",
            ],
            path: "Examples/TodoList", exclude: ["Scripts"]),

        // Search as you type in every paradigm, against a server on 127.0.0.1.
        .executableTarget(
            name: "SearchAsYouType", dependencies: ["Scenarios", "ReactiveCore", "ExampleSupport"],
            path: "Examples/SearchAsYouType", exclude: ["Scripts"]),

        // One small SwiftUI view per paradigm, quoted by ReactiveCore's article "Using with
        // SwiftUI and Swift concurrency". Compiled where SwiftUI exists; empty elsewhere.
        .target(
            name: "SwiftUIExamples",
            dependencies: ["SignalGraph", "Glue", "Incremental", "Resin", "Cycle", "Signals"],
            path: "Examples/SwiftUI"),

        // libFuzzer targets: programs decoded from bytes, an engine against a reference written
        // apart from it. `.ci/fuzz` builds them with the fuzzer and runs each for a bounded
        // time; built as usual, each replays the files it is given (its corpus).
        .target(name: "FuzzSupport", path: "Fuzz/Support"),
        .executableTarget(
            name: "IncrementalFuzz", dependencies: ["Incremental", "FuzzSupport"], path: "Fuzz/Incremental",
            exclude: ["Corpus"]),
        .executableTarget(
            name: "GlueFuzz", dependencies: ["Glue", "FuzzSupport"], path: "Fuzz/Glue", exclude: ["Corpus"]),
        .executableTarget(
            name: "SignalGraphFuzz", dependencies: ["SignalGraph", "FuzzSupport"], path: "Fuzz/SignalGraph",
            exclude: ["Corpus"]),
        .executableTarget(
            name: "ResinFuzz", dependencies: ["Resin", "Incremental", "FuzzSupport"], path: "Fuzz/Resin",
            exclude: ["Corpus"]),
        .executableTarget(
            name: "SignalsFuzz", dependencies: ["Signals", "FuzzSupport"], path: "Fuzz/Signals", exclude: ["Corpus"]),
        .executableTarget(
            name: "DifferentialFuzz", dependencies: ["Scenarios", "FuzzSupport"], path: "Fuzz/Differential",
            exclude: ["Corpus"]),

        // What several test targets share: the seeded generator of the model-based tests.
        .target(name: "TestSupport", dependencies: ["ReactiveCore", "ReactiveTesting"], path: "Tests/TestSupport"),

        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "GlueTests", dependencies: ["Glue", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "SignalGraphTests", dependencies: ["SignalGraph", "TestSupport"]),
        .testTarget(name: "IncrementalTests", dependencies: ["Incremental", "TestSupport"]),
        // Incremental's tests that start threads, run under ThreadSanitizer (IncrementalTests is not).
        .testTarget(name: "IncrementalThreadTests", dependencies: ["Incremental", "TestSupport"]),
        .testTarget(
            name: "ResinTests", dependencies: ["Resin", "ResinTesting", "TestSupport", "ShoppingListFeature"]),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "CycleTests", dependencies: ["Cycle", "ReactiveTesting", "TestSupport", "ExampleSupport"]),
        .testTarget(name: "PackageTests", path: "Tests/PackageTests"),
        .testTarget(
            name: "DevToolsTests",
            dependencies: [
                "DevTools", "ReactiveCore", "ReactiveTesting", "Incremental", "Resin", "TestSupport", "ExampleSupport",
            ]),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "ReactiveCore", "Glue", "Incremental", "SignalGraph", "Resin", "Signals", "Cycle", "TestSupport",
                "DevTools",
            ]),
        .testTarget(name: "ParadigmTests", dependencies: ["Scenarios", "ReactiveCore", "SignalGraph", "TestSupport"]),
        // The code samples of the README, the DocC articles and the doc comments, verbatim
        // (PackageTests' DocumentationSampleCoverageTests checks that they are here).
        .testTarget(
            name: "DocumentationSampleTests",
            dependencies: [
                "ReactiveCore", "ReactiveTesting", "Glue", "SignalGraph", "Incremental", "Resin", "ResinTesting",
                "Signals", "Cycle", "DevTools",
            ]),
    ]),
    swiftLanguageModes: [.v6]
)
