#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable list of trivial values in memory its owner frees with ``deallocate()``.
///
/// The engine's hot path reads and writes edges, readers and stack frames at every step;
/// an `Array` there retains and releases its buffer and checks uniqueness on each write
/// (callgrind counted seven retains per node visited). Elements are trivial (plain values
/// and unowned(unsafe) references), so nothing is counted, and writing an element through
/// the subscript is a store.
///
/// The memory comes from `realloc` and goes back with `free` (past ``SpareBufferPool/minimumBytes``,
/// from and to ``SpareBufferPool``): `UnsafeMutablePointer`'s
/// `allocate` asks the runtime for its default alignment, which on Linux is an aligned
/// allocation costing twice a `malloc`, and every node has two lists.
///
/// Its count and capacity are 32-bit: a list is 16 bytes, and a node's two lists sit in the
/// part of the node every walk reads.
struct RawList<Element: BitwiseCopyable>: RandomAccessCollection {
    private var base: UnsafeMutablePointer<Element>?
    private var storedCount: Int32 = 0
    /// Negative for memory the list borrows (see ``init(borrowing:capacity:)``): it holds
    /// `-capacity` elements, and the list neither reallocates nor frees it.
    private var storedCapacity: Int32 = 0

    var count: Int {
        @inline(__always) get { Int(storedCount) }
    }

    private var capacity: Int {
        @inline(__always) get { Int(storedCapacity) }
    }

    init() {}

    /// A list that starts in `capacity` elements of memory its owner frees (a node's block,
    /// see ``NodeBlock``); it moves to memory of its own if it outgrows them.
    init(borrowing memory: UnsafeMutableRawPointer, capacity: Int) {
        guard capacity > 0 else { return }
        base = memory.bindMemory(to: Element.self, capacity: capacity)
        storedCapacity = Int32(-capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == abs(capacity) { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        storedCount += 1
    }

    @discardableResult
    mutating func removeLast() -> Element {
        storedCount -= 1
        return base.unsafelyUnwrapped[count]
    }

    /// Reverses the elements in place.
    func reverse() {
        guard count > 1 else { return }
        var low = 0
        var high = count - 1
        while low < high {
            let element = self[low]
            self[low] = self[high]
            self[high] = element
            low += 1
            high -= 1
        }
    }

    /// Forgets every element, keeping the memory.
    mutating func removeAll() {
        storedCount = 0
    }

    /// Frees the memory; the list is empty afterwards.
    mutating func deallocate() {
        if capacity > 0, let base { SpareBufferPool.shared.give(base, bytes: capacity * MemoryLayout<Element>.stride) }
        base = nil
        storedCount = 0
        storedCapacity = 0
    }

    @inline(never)
    private mutating func grow() {
        precondition(MemoryLayout<Element>.alignment <= 16, "RawList: elements aligned beyond malloc's 16 bytes")
        let newCapacity = Swift.max(2, abs(capacity) * 2)
        precondition(newCapacity <= Int(Int32.max), "Incremental: a list of over 2^31 elements")
        let borrowed = capacity < 0
        let stride = MemoryLayout<Element>.stride
        if newCapacity * stride >= SpareBufferPool.minimumBytes {
            return growIntoSpare(minimumCapacity: newCapacity, borrowed: borrowed)
        }
        guard let memory = realloc(borrowed ? nil : base, newCapacity * stride) else {
            fatalError("Incremental: out of memory")
        }
        let newBase = memory.bindMemory(to: Element.self, capacity: newCapacity)
        if borrowed, let base { newBase.update(from: base, count: count) }
        base = newBase
        storedCapacity = Int32(newCapacity)
    }

    /// Grows into a kept buffer (see ``SpareBufferPool``), or a new one, of at least
    /// `minimumCapacity` elements; the old memory, unless borrowed, goes back there.
    private mutating func growIntoSpare(minimumCapacity: Int, borrowed: Bool) {
        let stride = MemoryLayout<Element>.stride
        let spare = SpareBufferPool.shared.take(atLeast: minimumCapacity * stride)
        let bytes = spare?.bytes ?? minimumCapacity * stride
        guard let memory = spare?.memory ?? malloc(bytes) else { fatalError("Incremental: out of memory") }
        let newCapacity = Swift.min(bytes / stride, Int(Int32.max))
        let newBase = memory.bindMemory(to: Element.self, capacity: newCapacity)
        if let base {
            newBase.update(from: base, count: count)
            if !borrowed { SpareBufferPool.shared.give(base, bytes: capacity * stride) }
        }
        base = newBase
        storedCapacity = Int32(newCapacity)
    }
}
