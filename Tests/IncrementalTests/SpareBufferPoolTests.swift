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
/// it frees, and that lists grown on its buffers hold what was put into them. The tests on
/// several threads are in IncrementalThreadTests, which CI runs under ThreadSanitizer.
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
}
