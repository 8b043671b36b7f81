import Dispatch
import TestSupport
import Testing

@testable import Incremental

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pool of large list buffers that graphs share (`SpareBufferPool`), used from several
/// threads at once: no buffer is ever handed to two takers, and graphs on several threads
/// compute on its buffers. A target of its own, so that CI runs it under ThreadSanitizer
/// (IncrementalTests, single-threaded, is skipped there).
@Suite("Engine: spare list buffers across threads")
struct SpareBufferPoolThreadTests {
    private static let unit = SpareBufferPool.minimumBytes

    @Test("takers and givers on four threads never hold the same buffer at once")
    func concurrentTakers() {
        let pool = SpareBufferPool()
        let failures = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<500 {
                let bytes = (1 + (thread + round) % 3) * Self.unit
                let taken = pool.take(atLeast: bytes)
                let memory = taken?.memory ?? malloc(bytes).unsafelyUnwrapped
                let size = taken?.bytes ?? bytes
                // Every word marked as this thread's, then read back: a buffer another thread
                // held at the same time would show its marks.
                let words = memory.bindMemory(to: Int.self, capacity: size / 8)
                let mark = thread &* 1_000_003 &+ round
                for index in stride(from: 0, to: size / 8, by: 64) { words[index] = mark }
                var intact = true
                for index in stride(from: 0, to: size / 8, by: 64) where words[index] != mark { intact = false }
                if !intact { failures.mutate { $0 += 1 } }
                pool.give(memory, bytes: size)
            }
        }
        #expect(failures.read { $0 } == 0)
        #expect(pool.contents.count <= SpareBufferPool.maximumKept)
        #expect(pool.contents.bytes <= SpareBufferPool.maximumTotalBytes)
    }

    @Test("graphs built one after another, and on four threads at once, compute on kept buffers", arguments: [1, 4])
    func graphsShareBuffers(threads: Int) {
        let failures = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<3 {
                // A fan of 20,000 observed nodes over one input: the propagation lists every
                // one of them, well past the pool's minimum.
                let graph = Graph()
                let input = graph.input(thread + round)
                var seen = 0
                var connections: [Connection] = []
                let nodes = (0..<20_000).map { offset in input.map { $0 + offset } }
                for node in nodes { connections.append(node.observe { _ in seen += 1 }) }
                input.value = thread + round + 1
                let correct = nodes.enumerated().allSatisfy { $0.element.value == thread + round + 1 + $0.offset }
                if !correct || seen != 40_000 { failures.mutate { $0 += 1 } }
                for connection in connections { connection.disconnect() }
            }
        }
        #expect(failures.read { $0 } == 0)
        #expect(SpareBufferPool.shared.contents.count <= SpareBufferPool.maximumKept)
    }
}
