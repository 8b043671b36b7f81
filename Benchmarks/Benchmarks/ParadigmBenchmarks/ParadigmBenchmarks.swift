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
        // Quick: at least two samples of every case (package-benchmark exports no throughput
        // for a case with one), the 1M-row recomputation (0.4 s each) included.
        warmupIterations: quick ? 0 : 3,
        maxDuration: quick ? .seconds(1) : .seconds(2),
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
