/// Scheduled work ordered by instant, then by the order it was scheduled.
///
/// A binary min-heap of (instant, sequence) with the work itself in a dictionary, so that
/// cancelling is O(1) plus lazy removal from the heap. The top of the heap is always a live
/// entry, and the heap is rebuilt when cancelled entries outnumber live ones, so memory
/// stays proportional to the work pending.
struct ScheduleQueue<Work> {
    /// Identifies one piece of scheduled work, for cancelling it.
    struct Key: Hashable, Sendable {
        fileprivate let sequence: UInt64
    }

    private struct Entry {
        let instant: SchedulerInstant
        let sequence: UInt64

        func precedes(_ other: Entry) -> Bool {
            instant < other.instant || (instant == other.instant && sequence < other.sequence)
        }
    }

    private var heap: [Entry] = []
    private var work: [UInt64: Work] = [:]
    private var nextSequence: UInt64 = 0
    #if REACTIVECORE_INTERNAL_CHECKS
        /// Operations since the last full check (see `checkInvariantsAfterOperation`).
        private var checksSkipped = 0
    #endif

    /// The number of pieces of work pending.
    var count: Int { work.count }

    /// The instant of the earliest pending work.
    var nextInstant: SchedulerInstant? { heap.first?.instant }

    /// How many entries the heap holds, cancelled ones included (for tests of its bound).
    var heapCount: Int { heap.count }

    mutating func insert(_ item: Work, at instant: SchedulerInstant) -> Key {
        let sequence = nextSequence
        nextSequence += 1
        work[sequence] = item
        heap.append(Entry(instant: instant, sequence: sequence))
        siftUp(from: heap.count - 1)
        checkInvariantsAfterOperation()
        return Key(sequence: sequence)
    }

    /// Removes the work for `key`, if it is still pending, and returns it.
    mutating func remove(_ key: Key) -> Work? {
        guard let removed = work.removeValue(forKey: key.sequence) else { return nil }
        dropCancelledTop()
        if heap.count > 64 && heap.count > 2 * work.count { rebuild() }
        checkInvariantsAfterOperation()
        return removed
    }

    /// Removes and returns the earliest work due at or before `limit` (any, if `nil`).
    mutating func popFirst(dueBy limit: SchedulerInstant?) -> (SchedulerInstant, Work)? {
        guard let top = heap.first else { return nil }
        if let limit, top.instant > limit { return nil }
        removeTop()
        let item = work.removeValue(forKey: top.sequence)!
        dropCancelledTop()
        checkInvariantsAfterOperation()
        return (top.instant, item)
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, work[top.sequence] == nil {
            removeTop()
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func rebuild() {
        heap.removeAll { work[$0.sequence] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: index)
        }
    }

    private mutating func siftUp(from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}

// MARK: - Invariants (Documentation/Internals/ReactiveCore.md)

extension ScheduleQueue {
    /// Called after every insert, remove and pop: checks the queue after each one while it
    /// holds up to 512 entries, and once every `heap.count` operations when it holds more, so
    /// that the checks cost about one entry's visit per operation.
    @inline(__always)
    private mutating func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            checksSkipped += 1
            if heap.count <= 512 || checksSkipped >= heap.count {
                checksSkipped = 0
                _checkInvariants()
            }
        #endif
    }

    /// Checks Q1 to Q3, stopping with a message that names the one broken. Does nothing
    /// unless the module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            for index in heap.indices.dropFirst() {
                let parent = (index - 1) / 2
                reactiveCoreCheck(
                    !heap[index].precedes(heap[parent]), "Q1",
                    "heap entry \(index) precedes its parent \(parent)")
            }
            var entered = Set<UInt64>()
            for entry in heap {
                reactiveCoreCheck(
                    entered.insert(entry.sequence).inserted, "Q2", "work \(entry.sequence) is in the heap twice")
                reactiveCoreCheck(entry.sequence < nextSequence, "Q2", "work \(entry.sequence) was never scheduled")
            }
            for sequence in work.keys {
                reactiveCoreCheck(entered.contains(sequence), "Q2", "pending work \(sequence) is missing from the heap")
            }
            if let top = heap.first {
                reactiveCoreCheck(work[top.sequence] != nil, "Q3", "the heap's top is cancelled work")
            }
        #endif
    }
}

extension ScheduleQueue: Sendable where Work: Sendable {}
