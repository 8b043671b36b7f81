/// A growable list of trivial values in memory its owner frees with ``deallocate()``.
///
/// The engine's hot path reads and writes edges, readers and stack frames at every step;
/// an `Array` there retains and releases its buffer and checks uniqueness on each write
/// (callgrind counted seven retains per node visited). Elements are trivial (plain values
/// and unowned(unsafe) references), so nothing is counted, and writing an element through
/// the subscript is a store.
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
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }

    private mutating func grow() {
        let newCapacity = Swift.max(2, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
