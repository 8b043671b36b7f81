/// Runs items one at a time, first in first out, in one isolation domain: an item submitted
/// while another is being processed (by the processing itself, or by code it calls) waits
/// until the current one is done. The "queue while delivering" loop that ``Broadcaster``,
/// SignalGraph's emitters and storages, and Resin's action dispatch share.
///
/// ```swift
/// let actions = SerialQueue<String>()
/// func dispatch(_ action: String) {
///     actions.submit(action) { action in
///         print("handling", action)
///         if action == "load" { dispatch("loaded") }   // waits until "load" is done
///     }
/// }
/// dispatch("load")   // handling load, handling loaded
/// ```
///
/// Processing never nests. Submitting allocates only when the queue grows beyond the
/// capacity it reached before.
public final class SerialQueue<Element> {
    // Unchecked exclusivity: no access to these is held across the call to `process`.
    @exclusivity(unchecked) @usableFromInline var items: [Element] = []
    @exclusivity(unchecked) @usableFromInline var head = 0
    /// Whether an item is being processed.
    @exclusivity(unchecked) public private(set) var isProcessing = false

    /// An empty queue.
    public init() {}

    /// Processes `element` with `process` now, then every item submitted meanwhile, in order;
    /// or, if an item is being processed, queues `element` and returns at once (it is then
    /// processed by the `process` of the call under way).
    @inlinable
    public func submit(_ element: Element, _ process: (Element) -> Void) {
        if isProcessing {
            items.append(element)
            return
        }
        setProcessing(true)
        process(element)
        if head < items.count { drain(process) }
        setProcessing(false)
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// If no item is being processed, runs `body` as if it were one (items submitted
    /// meanwhile wait), then processes those with `process`, in order, and returns `true`;
    /// otherwise does nothing and returns `false`.
    ///
    /// For a caller whose item needs no queue entry when it can run at once.
    @inlinable
    public func runIfIdle(_ body: () -> Void, then process: (Element) -> Void) -> Bool {
        if isProcessing { return false }
        setProcessing(true)
        body()
        if head < items.count { drain(process) }
        setProcessing(false)
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
        return true
    }

    @usableFromInline
    func setProcessing(_ processing: Bool) {
        isProcessing = processing
    }

    @usableFromInline
    func drain(_ process: (Element) -> Void) {
        while head < items.count {
            let next = items[head]
            head += 1
            process(next)
        }
        items.removeAll(keepingCapacity: true)
        head = 0
    }
}

// MARK: - Invariants (Documentation/Internals/ReactiveCore.md)

extension SerialQueue {
    /// Checks B6. Does nothing unless the module is built with
    /// `REACTIVECORE_INTERNAL_CHECKS`.
    @usableFromInline
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            reactiveCoreCheck(head <= items.count, "B6", "the queue's head \(head) is past its \(items.count) items")
            reactiveCoreCheck(
                isProcessing || (items.isEmpty && head == 0), "B6",
                "the queue is idle but holds \(items.count - head) unprocessed item(s)")
        #endif
    }
}
