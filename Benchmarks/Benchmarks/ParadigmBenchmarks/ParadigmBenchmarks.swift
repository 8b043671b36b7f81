import Benchmark
import BenchmarkScenarios
import Foundation

/// BENCHMARK_QUICK=1 runs every case, at every size, once or twice: enough to prove that the
/// benchmarks build, run and compute the right results, not to time them.
let quick = ProcessInfo.processInfo.environment["BENCHMARK_QUICK"] != nil

/// Holds a case's runner from setup to teardown.
final class RunnerBox: @unchecked Sendable {
    // package-benchmark runs setup, the measured closure and teardown of one benchmark in
    // turn, on one thread.
    var runner: (any ScenarioRunner)?
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        // Quick: two samples of every case, however slow the machine. A run stops at whichever
        // limit it reaches first, so the quick run's time limit is far beyond any case (the
        // 1M-row recomputation takes 0.4 to 4 s an iteration, by machine and load) and the
        // count decides.
        warmupIterations: quick ? 0 : 3,
        maxDuration: quick ? .seconds(600) : .seconds(2),
        maxIterations: quick ? 2 : 1_000)
    for benchmarkCase in Catalog.all(collectionSizes: [10_000, 100_000, 1_000_000]) {
        let box = RunnerBox()
        Benchmark(
            benchmarkCase.name, configuration: configuration,
            closure: { benchmark, runner in
                for _ in benchmark.scaledIterations { try runner.iterate() }
            },
            setup: { () throws -> any ScenarioRunner in
                let runner = try benchmarkCase.make()
                box.runner = runner
                return runner
            },
            teardown: {
                try box.runner?.finish()
                box.runner = nil
            })
    }
}
