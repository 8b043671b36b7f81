// swift-tools-version: 6.2
// The benchmarks live in their own package so that the root package has no dependencies.
// Run everything and write RESULTS.md and results.svg: `./run` (see README.md).

import PackageDescription

let package = Package(
    name: "ParadigmBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-paradigms", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    ],
    targets: [
        // Every scenario, for every paradigm and peer, with the check of its result. The
        // benchmark targets time them; `report --check` runs each once and checks it.
        .target(
            name: "BenchmarkScenarios",
            dependencies: [
                .product(name: "SignalGraph", package: "swift-paradigms"),
                .product(name: "Glue", package: "swift-paradigms"),
                .product(name: "Incremental", package: "swift-paradigms"),
                .product(name: "Resin", package: "swift-paradigms"),
                .product(name: "Signals", package: "swift-paradigms"),
                .product(name: "Cycle", package: "swift-paradigms"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        .executableTarget(
            name: "report",
            dependencies: [
                "BenchmarkScenarios", .product(name: "DevTools", package: "swift-paradigms"),
                .product(name: "Incremental", package: "swift-paradigms"),
            ]),
        // package-benchmark times every case; `swift package benchmark` runs it.
        .executableTarget(
            name: "ParadigmBenchmarks",
            dependencies: ["BenchmarkScenarios", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/ParadigmBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
