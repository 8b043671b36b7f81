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

/// The pool of large list buffers that graphs share (`SpareBufferPool`): what it keeps, what
/// it frees, that no buffer is ever handed to two takers, and that lists and graphs built on
/// its buffers hold what was put into them.
@Suite("Engine: spare list buffers")
struct SpareBufferPoolTests {
    private static let unit = SpareBufferPool.minimumBytes

    private func buffer(bytes: Int) -> UnsafeMutableRawPointer {
        malloc(bytes).unsafelyUnwrapped
    }

    @Test("an empty pool gives nothing; a buffer given comes back to a taker it fits, the smallest that fits first")
    func keepsAndGives() throws {
        let pool = SpareBufferPool()
        #expect(pool.take(atLeast: Self.unit) == nil)
        let small = buffer(bytes: 2 * Self.unit)
        let large = buffer(bytes: 4 * Self.unit)
        pool.give(large, bytes: 4 * Self.unit)
        pool.give(small, bytes: 2 * Self.unit)
        #expect(pool.contents.count == 2 && pool.contents.bytes == 6 * Self.unit)
        #expect(pool.take(atLeast: 8 * Self.unit) == nil)
        let first = try #require(pool.take(atLeast: Self.unit))
        #expect(first.memory == small && first.bytes == 2 * Self.unit)
        let second = try #require(pool.take(atLeast: 3 * Self.unit))
        #expect(second.memory == large && second.bytes == 4 * Self.unit)
        #expect(pool.take(atLeast: Self.unit) == nil)
        #expect(pool.contents.count == 0 && pool.contents.bytes == 0)
        free(first.memory)
        free(second.memory)
    }

    @Test("a buffer below the minimum, past the count or past the total is freed, not kept")
    func bounds() {
        let pool = SpareBufferPool()
        pool.give(buffer(bytes: Self.unit - 16), bytes: Self.unit - 16)
        #expect(pool.contents.count == 0)
        for _ in 0..<(SpareBufferPool.maximumKept + 3) { pool.give(buffer(bytes: Self.unit), bytes: Self.unit) }
        #expect(pool.contents.count == SpareBufferPool.maximumKept)
        let emptied = SpareBufferPool()
        let half = SpareBufferPool.maximumTotalBytes / 2
        emptied.give(buffer(bytes: half), bytes: half)
        emptied.give(buffer(bytes: half), bytes: half)
        emptied.give(buffer(bytes: Self.unit), bytes: Self.unit)
        #expect(emptied.contents.count == 2 && emptied.contents.bytes == SpareBufferPool.maximumTotalBytes)
    }

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

    @Test(
        "a list grown past the minimum, from its own memory or borrowed memory, holds what an array holds",
        arguments: 0..<4)
    func listsMatchArrays(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let borrowedMemory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { borrowedMemory.deallocate() }
        var list = seed % 2 == 0 ? RawList<Int>() : RawList<Int>(borrowing: borrowedMemory, capacity: 8)
        var model: [Int] = []
        for _ in 0..<40_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where !model.isEmpty:
                #expect(list.removeLast() == model.removeLast())
            case 1 where Int.random(in: 0..<200, using: &random) == 0:
                list.removeAll()
                model.removeAll()
            default:
                let value = Int.random(in: 0..<1_000_000, using: &random)
                list.append(value)
                model.append(value)
            }
        }
        #expect(Array(list) == model)
        list.deallocate()
        #expect(list.isEmpty)
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
