/// A first-in, first-out buffer: an array read from a moving head, compacted when the read
/// part passes half of it, so that appending and taking are amortized O(1) and a buffer that
/// stays short allocates nothing once it has grown.
///
/// Inlinable, as the machines that use it: a paradigm's operator specializes them for its
/// value types instead of going through generic metadata at every value.
@usableFromInline
package struct FIFOBuffer<Element> {
    @usableFromInline var items: [Element] = []
    @usableFromInline var head = 0

    @inlinable package init() {}

    @inlinable package var isEmpty: Bool { head == items.count }
    @inlinable package var count: Int { items.count - head }

    @inlinable
    package mutating func append(_ element: Element) {
        items.append(element)
    }

    /// The oldest element, which stays in the buffer.
    @inlinable package var first: Element? { isEmpty ? nil : items[head] }

    /// Removes and returns the oldest element, if any.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 16, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes every element, keeping the storage.
    @inlinable
    package mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        head = 0
    }
}
