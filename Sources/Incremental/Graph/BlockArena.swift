#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of a graph's node blocks (see ``NodeBlock``): chunks carved into blocks of
/// 16-byte size classes, with a free list per class.
///
/// Every node has a block, made and freed with the node; through `malloc` that was one of a
/// node's four allocations, and `free` walked the allocator's bins. Here a block costs a
/// pointer bump or a pop, blocks made together sit together in memory (a walk over nodes
/// built in order reads their bookkeeping in order), and a node's block is reused by the
/// next node of its size class.
///
/// The graph owns the arena, and every node holds its graph, so the chunks outlive every
/// block carved from them; they go back to the system when the graph is freed. Until then,
/// memory freed by nodes is kept for the graph's next nodes. Blocks larger than the largest
/// class come from `malloc`.
///
/// Under AddressSanitizer, the arena tells the sanitizer which of its memory is in use (the
/// sanitizer's manual poisoning interface, found at run time): a read of a freed block (past
/// the free list's link in its first 16 bytes) or of a chunk's unused end is reported as it
/// would be for `malloc`'s memory.
struct BlockArena {
    /// Blocks are multiples of this many bytes, and aligned to it.
    static let granule = 16
    /// Size classes: 1...classCount granules. Class 0 stands for a block from `malloc`.
    static let classCount = 48
    private static let firstChunkBytes = 4096
    private static let largestChunkBytes = 256 * 1024

    /// The first free block of each class (index = class); each free block holds the next.
    private var freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// Every chunk, to free with the arena.
    private var chunks = RawList<UnsafeMutableRawPointer>()
    /// The unused end of the newest chunk.
    private var next: UnsafeMutableRawPointer?
    private var remaining = 0
    private var nextChunkBytes = firstChunkBytes

    /// The size class of a block of `size` bytes: 0 if it is too large for the arena.
    @inline(__always)
    static func sizeClass(of size: Int) -> UInt8 {
        let granules = (Swift.max(size, 1) + granule - 1) / granule
        return granules <= classCount ? UInt8(truncatingIfNeeded: granules) : 0
    }

    /// AddressSanitizer's poisoning functions, when it is running (see ``Sanitizer``).
    private let sanitizer = Sanitizer.current

    /// A block of size class `sizeClass` (from ``sizeClass(of:)``), or of `size` bytes from
    /// `malloc` when the class is 0.
    @inline(__always)
    mutating func allocate(size: Int, sizeClass: UInt8) -> UnsafeMutableRawPointer {
        guard sizeClass != 0, let freeLists else { return allocateSlow(size: size, sizeClass: sizeClass) }
        let bytes = Int(sizeClass) * Self.granule
        if let block = freeLists[Int(sizeClass)] {
            freeLists[Int(sizeClass)] = block.load(as: UnsafeMutableRawPointer?.self)
            sanitizer?.unpoison(block, bytes)
            return block
        }
        if bytes <= remaining, let block = next {
            next = block + bytes
            remaining -= bytes
            sanitizer?.unpoison(block, bytes)
            return block
        }
        return allocateSlow(size: size, sizeClass: sizeClass)
    }

    /// Gives back a block made by ``allocate(size:sizeClass:)`` with the same class.
    @inline(__always)
    mutating func deallocate(_ block: UnsafeMutableRawPointer, sizeClass: UInt8) {
        guard sizeClass != 0, let freeLists else { return free(block) }
        block.storeBytes(of: freeLists[Int(sizeClass)], as: UnsafeMutableRawPointer?.self)
        freeLists[Int(sizeClass)] = block
        // The first granule holds the free list's link, which the arena reads.
        sanitizer?.poison(block + Self.granule, Int(sizeClass - 1) * Self.granule)
    }

    private mutating func allocateSlow(size: Int, sizeClass: UInt8) -> UnsafeMutableRawPointer {
        guard sizeClass != 0 else {
            guard let block = malloc(size) else { fatalError("Incremental: out of memory") }
            return block
        }
        if freeLists == nil {
            let lists = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Self.classCount + 1)
            lists.initialize(repeating: nil, count: Self.classCount + 1)
            freeLists = lists
        }
        let bytes = Int(sizeClass) * Self.granule
        // What is left of the current chunk (less than a block of this class) goes to the free
        // lists of the classes it fits, largest first, so no memory is stranded.
        while remaining >= Self.granule, let block = next {
            let granules = Swift.min(remaining / Self.granule, Self.classCount)
            next = block + granules * Self.granule
            remaining -= granules * Self.granule
            // The free list's link goes into the block's first granule, poisoned with the
            // rest of the chunk's unused end.
            sanitizer?.unpoison(block, Self.granule)
            deallocate(block, sizeClass: UInt8(granules))
        }
        // malloc aligns to 16 bytes, the granule.
        let chunkBytes = nextChunkBytes
        nextChunkBytes = Swift.min(nextChunkBytes * 2, Self.largestChunkBytes)
        guard let chunk = malloc(chunkBytes) else { fatalError("Incremental: out of memory") }
        chunks.append(chunk)
        next = chunk + bytes
        remaining = chunkBytes - bytes
        sanitizer?.poison(chunk + bytes, remaining)
        return chunk
    }

    /// Frees every chunk. Every block carved from them must be gone.
    mutating func deallocateAll() {
        for chunk in chunks {
            // The whole chunk is `malloc`'s again: its size is only known to `malloc`, so
            // each block's poisoning is lifted by the sanitizer itself when it is freed.
            free(chunk)
        }
        chunks.deallocate()
        freeLists?.deallocate()
        freeLists = nil
        next = nil
        remaining = 0
    }

    #if INCREMENTAL_INTERNAL_CHECKS
        /// I7, the arena's half: see `InvariantChecker.checkArena`.
        func _checkInvariants(inUse: [UnsafeMutableRawPointer: UInt8], fail: (String) -> Never) {
            guard let freeLists else {
                if !chunks.isEmpty { fail("the arena has chunks but no free lists") }
                return
            }
            var chunkRanges: [(start: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer)] = []
            var size = Self.firstChunkBytes
            var total = 0
            for chunk in chunks {
                chunkRanges.append((chunk, chunk + size))
                total += size
                size = Swift.min(size * 2, Self.largestChunkBytes)
            }
            var freeBytes = 0
            var seen = Set<UnsafeMutableRawPointer>()
            for sizeClass in 1...Self.classCount {
                var block = freeLists[sizeClass]
                while let current = block {
                    if !seen.insert(current).inserted { fail("a free list lists a block twice (or loops)") }
                    if inUse[current] != nil { fail("a block in use is on a free list") }
                    let end = current + sizeClass * Self.granule
                    if !chunkRanges.contains(where: { $0.start <= current && end <= $0.end }) {
                        fail("a free block lies outside the arena's chunks")
                    }
                    freeBytes += sizeClass * Self.granule
                    block = current.load(as: UnsafeMutableRawPointer?.self)
                }
            }
            var usedBytes = 0
            for (block, sizeClass) in inUse {
                let end = block + Int(sizeClass) * Self.granule
                if !chunkRanges.contains(where: { $0.start <= block && end <= $0.end }) {
                    fail("a block in use lies outside the arena's chunks")
                }
                usedBytes += Int(sizeClass) * Self.granule
            }
            if usedBytes + freeBytes + remaining != total {
                fail(
                    "the arena's \(total) bytes are not its \(usedBytes) in use, \(freeBytes) free and \(remaining) unused"
                )
            }
        }
    #endif
}

/// AddressSanitizer's manual poisoning interface, looked up once in the running process: nil
/// unless the program runs under the sanitizer.
struct Sanitizer: @unchecked Sendable {
    // `@unchecked`: two C function pointers, set once and only called.
    typealias Function = @convention(c) (UnsafeRawPointer?, Int) -> Void
    let poisonFunction: Function
    let unpoisonFunction: Function

    /// The sanitizer's functions, if it is running.
    static let current: Sanitizer? = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        guard let poison = dlsym(everywhere, "__asan_poison_memory_region"),
            let unpoison = dlsym(everywhere, "__asan_unpoison_memory_region")
        else { return nil }
        return Sanitizer(
            poisonFunction: unsafeBitCast(poison, to: Function.self),
            unpoisonFunction: unsafeBitCast(unpoison, to: Function.self))
    }()

    @inline(__always)
    func poison(_ address: UnsafeMutableRawPointer, _ bytes: Int) {
        if bytes > 0 { poisonFunction(address, bytes) }
    }

    @inline(__always)
    func unpoison(_ address: UnsafeMutableRawPointer, _ bytes: Int) {
        unpoisonFunction(address, bytes)
    }
}
