/// Registrations of one kind, in the order they were made, each found and removed in O(1) by
/// its token, also while a dispatch walks them.
///
/// Tokens come from one counter per engine, so they order registrations across lists: a
/// dispatch that must run the entries of several lists (every-action middleware and the
/// middleware for the action's type) merges them by token, which is registration order.
/// A removed entry leaves a hole that walks skip; holes are compacted away when they
/// outnumber the entries and no walk is under way.
final class RegistrationList<Entry> {
    private(set) var slots: [(token: Int, entry: Entry)?] = []
    private var positions: [Int: Int] = [:]
    private var holes = 0
    /// Walks under way; compaction waits for them to end, so positions stay valid.
    private var walkers = 0

    var isEmpty: Bool { positions.isEmpty }
    var count: Int { positions.count }

    func append(_ entry: Entry, token: Int) {
        positions[token] = slots.count
        slots.append((token, entry))
    }

    /// Removes the entry registered under `token`; returns whether there was one.
    @discardableResult
    func remove(token: Int) -> Bool {
        guard let position = positions.removeValue(forKey: token) else { return false }
        slots[position] = nil
        holes += 1
        compactIfWorthIt()
        return true
    }

    func beginWalk() { walkers += 1 }

    func endWalk() {
        walkers -= 1
        compactIfWorthIt()
    }

    private func compactIfWorthIt() {
        guard walkers == 0, holes > 8, holes * 2 > slots.count else { return }
        slots.removeAll { $0 == nil }
        holes = 0
        positions.removeAll(keepingCapacity: true)
        for (position, slot) in slots.enumerated() { positions[slot!.token] = position }
    }

    /// R1: the index of positions names exactly the entries present, tokens increase
    /// along the slots, and the count of holes is the count of removed slots.
    /// Does nothing unless the module is built with `RESIN_INTERNAL_CHECKS`.
    func _checkInvariants(below limit: Int) {
        #if RESIN_INTERNAL_CHECKS
            resinCheck(walkers >= 0, "R1", "a registration list ended more walks than it began")
            var holeCount = 0
            var previous = 0
            for (position, slot) in slots.enumerated() {
                guard let slot else {
                    holeCount += 1
                    continue
                }
                resinCheck(
                    slot.token > previous, "R1", "registration tokens out of order (\(previous), then \(slot.token))")
                resinCheck(slot.token <= limit, "R1", "a registration token \(slot.token) the engine has not given")
                resinCheck(positions[slot.token] == position, "R1", "token \(slot.token) is not indexed at its slot")
                previous = slot.token
            }
            resinCheck(holeCount == holes, "R1", "\(holeCount) removed slots but \(holes) holes counted")
            resinCheck(
                positions.count == slots.count - holeCount, "R1",
                "\(positions.count) tokens indexed for \(slots.count - holeCount) entries")
        #endif
    }
}

/// The registrations for one action type: those for every action of the type, and those
/// for one route (see ``RoutedAction``), found by the route in O(1).
final class RouteTable<Entry> {
    let unrouted = RegistrationList<Entry>()
    var routed: [AnyHashable: RegistrationList<Entry>] = [:]

    var isEmpty: Bool { unrouted.isEmpty && routed.isEmpty }

    func add(_ entry: Entry, route: AnyHashable?, token: Int) {
        guard let route else { return unrouted.append(entry, token: token) }
        if let list = routed[route] {
            list.append(entry, token: token)
        } else {
            let list = RegistrationList<Entry>()
            list.append(entry, token: token)
            routed[route] = list
        }
    }

    func remove(route: AnyHashable?, token: Int) {
        guard let route else {
            unrouted.remove(token: token)
            return
        }
        guard let list = routed[route] else { return }
        list.remove(token: token)
        if list.isEmpty { routed[route] = nil }
    }

    /// The lists an action with `route` reaches.
    func lists(for route: AnyHashable?) -> (RegistrationList<Entry>, RegistrationList<Entry>?) {
        (unrouted, route.flatMap { routed[$0] })
    }
}

/// Calls `body` with the entries of `first`, `second` and `third` in token order
/// (registration order), skipping entries removed on the way and entries registered after
/// `limit` (made during this walk).
///
/// Entries removed while the walk runs are not called once removed; lists may gain entries
/// (they are past `limit`). The walk stops early when `body` returns false. With one
/// non-empty list (the common case) it allocates nothing.
func walkInOrder<Entry>(
    _ first: RegistrationList<Entry>, _ second: RegistrationList<Entry>? = nil,
    _ third: RegistrationList<Entry>? = nil, limit: Int, _ body: (Entry) -> Bool
) {
    let a = first.isEmpty ? nil : first
    let b = second.flatMap { $0.isEmpty ? nil : $0 }
    let c = third.flatMap { $0.isEmpty ? nil : $0 }
    let nonEmpty = (a == nil ? 0 : 1) + (b == nil ? 0 : 1) + (c == nil ? 0 : 1)
    if nonEmpty == 0 { return }
    if nonEmpty == 1, let list = a ?? b ?? c {
        list.beginWalk()
        defer { list.endWalk() }
        var position = 0
        while position < list.slots.count {
            if let slot = list.slots[position] {
                if slot.token > limit { return }
                if !body(slot.entry) { return }
            }
            position += 1
        }
        return
    }
    merge([a, b, c].compactMap { $0 }, limit: limit, body)
}

/// ``walkInOrder(_:_:_:limit:_:)`` over several non-empty lists: a merge by token.
private func merge<Entry>(_ lists: [RegistrationList<Entry>], limit: Int, _ body: (Entry) -> Bool) {
    for list in lists { list.beginWalk() }
    defer { for list in lists { list.endWalk() } }
    var positions = [Int](repeating: 0, count: lists.count)
    while true {
        var best = -1
        var bestToken = Int.max
        for index in lists.indices {
            let list = lists[index]
            while positions[index] < list.slots.count, list.slots[positions[index]] == nil { positions[index] += 1 }
            guard positions[index] < list.slots.count, let slot = list.slots[positions[index]] else { continue }
            if slot.token < bestToken {
                best = index
                bestToken = slot.token
            }
        }
        guard best >= 0, bestToken <= limit, let slot = lists[best].slots[positions[best]] else { return }
        positions[best] += 1
        if !body(slot.entry) { return }
    }
}
