import ReactiveCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Large list buffers given back by the lists that grew them, kept for the next list that
/// grows as large: a handful, shared by every graph of the process (``shared``).
///
/// A propagation lists every node it marks and every observed node it queues, so a graph of
/// a hundred thousand nodes grows lists of hundreds of kilobytes. A program that builds such
/// graphs one after another (a test suite, a document per graph) would grow them afresh each
/// time, and memory that large comes from the system with a page fault for every four
/// kilobytes first touched; measured on cellx at 5,000 layers, those faults were most of
/// what an unlucky propagation took over a lucky one. A kept buffer keeps its pages.
///
/// At most ``maximumKept`` buffers of at least ``minimumBytes`` each, and
/// ``maximumTotalBytes`` in all, are kept; a smaller buffer never comes here. Buffers are
/// `malloc` memory, taken and given under one lock, which only a list's growth past
/// ``minimumBytes`` and the end of such a list take.
final class SpareBufferPool: Sendable {
    /// Smaller buffers grow with `realloc` and go back with `free`, as usual.
    static let minimumBytes = 64 * 1024
    /// How many buffers a pool keeps at most.
    static let maximumKept = 8
    /// How many bytes the kept buffers may hold together.
    static let maximumTotalBytes = 4 * 1024 * 1024

    /// The pool of every ``RawList``.
    static let shared = SpareBufferPool()

    /// A kept buffer: its address (as a number, which is `Sendable`) and its size.
    private struct Buffer {
        let address: UInt
        let bytes: Int
    }

    // A pthread mutex (`LockedState`), which ThreadSanitizer sees, not `Mutex`.
    private let kept = LockedState<[Buffer]>([])

    deinit {
        kept.withLock { buffers in
            for buffer in buffers { free(UnsafeMutableRawPointer(bitPattern: buffer.address)) }
        }
    }

    /// The smallest kept buffer of at least `bytes` bytes, taken, with its size; nil if
    /// there is none (the caller then allocates).
    func take(atLeast bytes: Int) -> (memory: UnsafeMutableRawPointer, bytes: Int)? {
        kept.withLock { buffers -> (memory: UnsafeMutableRawPointer, bytes: Int)? in
            var best: Int?
            for index in buffers.indices where buffers[index].bytes >= bytes {
                if let current = best, buffers[current].bytes <= buffers[index].bytes { continue }
                best = index
            }
            guard let best else { return nil }
            let buffer = buffers.remove(at: best)
            // Kept addresses come from `malloc`, never null.
            return (UnsafeMutableRawPointer(bitPattern: buffer.address).unsafelyUnwrapped, buffer.bytes)
        }
    }

    /// Gives back `memory` (from `malloc`, of `bytes` bytes): kept if it is large enough and
    /// there is room, else freed.
    func give(_ memory: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes >= Self.minimumBytes else { return free(memory) }
        let isKept = kept.withLock { buffers -> Bool in
            let total = buffers.reduce(0) { $0 + $1.bytes }
            guard buffers.count < Self.maximumKept, total + bytes <= Self.maximumTotalBytes else { return false }
            buffers.append(Buffer(address: UInt(bitPattern: memory), bytes: bytes))
            return true
        }
        if !isKept { free(memory) }
    }

    /// How many buffers the pool keeps, and their total size.
    var contents: (count: Int, bytes: Int) {
        kept.withLock { buffers in (buffers.count, buffers.reduce(0) { $0 + $1.bytes }) }
    }
}
