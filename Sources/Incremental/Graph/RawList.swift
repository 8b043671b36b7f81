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
/// The memory comes from `realloc` and goes back with `free`: `UnsafeMutablePointer`'s
/// `allocate` asks the runtime for its default alignment, which on Linux is an aligned
/// allocation costing twice a `malloc`, and every node has two lists.
struct RawList<Element: BitwiseCopyable>: RandomAccessCollection {
    private var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    /// Negative for memory the list borrows (see ``init(borrowing:capacity:)``): it holds
    /// `-capacity` elements, and the list neither reallocates nor frees it.
    private var capacity = 0

    init() {}

    /// A list that starts in `capacity` elements of memory its owner frees (a node's block,
    /// see ``NodeBlock``); it moves to memory of its own if it outgrows them.
    init(borrowing memory: UnsafeMutableRawPointer, capacity: Int) {
        guard capacity > 0 else { return }
        base = memory.bindMemory(to: Element.self, capacity: capacity)
        self.capacity = -capacity
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    mutating func append(_ element: Element) {
        if count == abs(capacity) { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    @discardableResult
    mutating func removeLast() -> Element {
        count -= 1
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
        count = 0
    }

    /// Frees the memory; the list is empty afterwards.
    mutating func deallocate() {
        if capacity > 0 { free(base) }
        base = nil
        count = 0
        capacity = 0
    }

    private mutating func grow() {
        precondition(MemoryLayout<Element>.alignment <= 16, "RawList: elements aligned beyond malloc's 16 bytes")
        let newCapacity = Swift.max(2, abs(capacity) * 2)
        let borrowed = capacity < 0
        guard let memory = realloc(borrowed ? nil : base, newCapacity * MemoryLayout<Element>.stride) else {
            fatalError("Incremental: out of memory")
        }
        let newBase = memory.bindMemory(to: Element.self, capacity: newCapacity)
        if borrowed, let base { newBase.update(from: base, count: count) }
        base = newBase
        capacity = newCapacity
    }
}
