/// Nodes waiting to recompute, taken lowest height first.
///
/// Buckets indexed by height make insertion O(1) and taking the next node O(1) amortized
/// (the scan for the lowest non-empty bucket only moves up, except when a node below it is
/// added, which moves it down). A node whose height was raised while queued is found in its
/// old bucket and moved when taken.
struct RecomputeHeap {
    private var buckets: [[IncrementalNode]] = []
    private var lowest = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ node: IncrementalNode) {
        let height = node.height
        while buckets.count <= height { buckets.append([]) }
        buckets[height].append(node)
        node.queuedHeight = height
        if height < lowest { lowest = height }
        count += 1
    }

    /// The queued node of lowest height.
    mutating func removeFirst() -> IncrementalNode? {
        while count > 0 {
            while buckets[lowest].isEmpty { lowest += 1 }
            let node = buckets[lowest].removeLast()
            count -= 1
            if node.height != lowest {
                // Raised while queued: queue it again at its new height.
                insert(node)
                continue
            }
            node.queuedHeight = nil
            return node
        }
        lowest = 0
        return nil
    }
}
