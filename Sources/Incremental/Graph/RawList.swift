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
    private var capacity = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow() }
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
        free(base)
        base = nil
        count = 0
        capacity = 0
    }

    private mutating func grow() {
        precondition(MemoryLayout<Element>.alignment <= 16, "RawList: elements aligned beyond malloc's 16 bytes")
        let newCapacity = Swift.max(2, capacity * 2)
        guard let memory = realloc(base, newCapacity * MemoryLayout<Element>.stride) else {
            fatalError("Incremental: out of memory")
        }
        base = memory.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }
}
