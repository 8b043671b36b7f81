/// A first-in, first-out buffer: an array read from a moving head, compacted when the read
/// part passes half of it, so that appending and taking are amortized O(1) and a buffer that
/// stays short allocates nothing once it has grown.
package struct FIFOBuffer<Element> {
    private var items: [Element] = []
    private var head = 0

    package init() {}

    package var isEmpty: Bool { head == items.count }
    package var count: Int { items.count - head }

    package mutating func append(_ element: Element) {
        items.append(element)
    }

    /// The oldest element, which stays in the buffer.
    package var first: Element? { isEmpty ? nil : items[head] }

    /// Removes and returns the oldest element, if any.
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
    package mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        head = 0
    }
}
