import AsyncAlgorithms
import Dispatch
import Synchronization

// The stream operators' pipelines in swift-async-algorithms, written as its users write
// them: `AsyncChannel`s as the inputs (a send waits until the pipeline takes the element)
// and its `zip`. It has no `withLatestFrom`: its users keep the other's latest in the loop
// that consumes both inputs, and since its `merge` of two channels does not keep the order
// in which they were sent to (tried: the check failed, some values paired with an older
// latest), both inputs go through one channel, tagged. It has no `switchToLatest` or
// `flatMapLatest` either: its users cancel the task that iterates the previous inner
// sequence, a pattern rather than a pipeline with the same iteration; the report says so
// instead of measuring it.

/// Runs `work` on the concurrency pool and waits for its result: the benchmarks' iterations
/// are synchronous. One task and one semaphore per iteration of 1,000 or more events.
func waitForAsync(_ work: @escaping @Sendable () async -> Int) -> Int {
    let result = Mutex(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }
}

final class AsyncAlgorithmsZip: ScenarioRunner {
    func iterate() throws {
        let total = waitForAsync {
            let left = AsyncChannel<Int>()
            let right = AsyncChannel<Int>()
            let producer = Task {
                for index in 0..<StreamOperatorCases.pairs {
                    await left.send(index)
                    await right.send(2 * index)
                }
                left.finish()
                right.finish()
            }
            var total = 0
            for await (first, second) in zip(left, right) { total &+= first &+ second }
            await producer.value
            return total
        }
        try check(total == StreamOperatorCases.zipSum, "swift-async-algorithms zip summed \(total)")
    }
}

/// A value of one of the two inputs, sent through one channel.
enum TaggedInput: Sendable {
    case main(Int)
    case other(Int)
}

final class AsyncAlgorithmsWithLatestFrom: ScenarioRunner {
    func iterate() throws {
        let total = waitForAsync {
            let inputs = AsyncChannel<TaggedInput>()
            let producer = Task {
                for index in 0..<StreamOperatorCases.mainSends {
                    if index % StreamOperatorCases.otherEvery == 0 {
                        await inputs.send(.other(index / StreamOperatorCases.otherEvery))
                    }
                    await inputs.send(.main(index))
                }
                inputs.finish()
            }
            var total = 0
            var latest: Int?
            for await input in inputs {
                switch input {
                case .other(let value): latest = value
                case .main(let value): if let latest { total &+= value &+ latest }
                }
            }
            await producer.value
            return total
        }
        try check(
            total == StreamOperatorCases.latestSum, "swift-async-algorithms withLatestFrom summed \(total)")
    }
}
