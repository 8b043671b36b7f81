// The engine's invariants, checked in code when the module is built with
// `RESIN_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/Resin.md states each
// one (R1, R2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag, `checkInvariants()` is an empty inline function: the checks cost nothing.

extension Engine {
    /// Whether this build of the module checks the engine's invariants
    /// (`RESIN_INTERNAL_CHECKS`).
    package static var _isCheckingInvariants: Bool {
        #if RESIN_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }

    /// Checks every invariant that holds now, stopping with a message that names the one
    /// broken. Called after every action processed, registration made or removed, effect
    /// started, finished or cancelled. Does nothing unless the module is built with
    /// `RESIN_INTERNAL_CHECKS`.
    ///
    /// An engine with over 2,000 registrations and effects is checked once every that many
    /// calls, so that the checks cost about one registration's visit per operation.
    @inline(__always)
    func checkInvariants() {
        #if RESIN_INTERNAL_CHECKS
            _checksSkipped += 1
            let size = sizeForChecks
            if size <= 2_000 || _checksSkipped >= size {
                _checksSkipped = 0
                _checkInvariants()
            }
        #endif
    }
}

#if RESIN_INTERNAL_CHECKS
    func resinCheck(_ condition: Bool, _ invariant: String, _ message: @autoclosure () -> String) {
        if !condition { preconditionFailure("Resin internal check \(invariant) failed: \(message())") }
    }

    extension RouteTable {
        /// R2: a table keeps no empty route list.
        func _checkInvariants(below limit: Int, entryNodes: (Entry) -> FocusNode?) -> [FocusNode] {
            var nodes: [FocusNode] = []
            unrouted._checkInvariants(below: limit)
            nodes += unrouted.slots.compactMap { $0.flatMap { entryNodes($0.entry) } }
            for list in routed.values {
                resinCheck(!list.isEmpty, "R2", "a route keeps an empty list of registrations")
                list._checkInvariants(below: limit)
                nodes += list.slots.compactMap { $0.flatMap { entryNodes($0.entry) } }
            }
            return nodes
        }
    }

    extension Engine {
        func _checkInvariants() {
            let limit = registrationLimitForChecks
            var nodes: [FocusNode] = []
            // R2: the registry keeps no empty table or list, and each is consistent (R1).
            for table in reducersForChecks.values {
                resinCheck(!table.isEmpty, "R2", "an action type keeps an empty table of reducers")
                nodes += table._checkInvariants(below: limit) { $0.node }
            }
            for table in middlewareForChecks.values {
                resinCheck(!table.isEmpty, "R2", "an action type keeps an empty table of middleware")
                nodes += table._checkInvariants(below: limit) { $0.node }
            }
            everyActionMiddlewareForChecks._checkInvariants(below: limit)
            nodes += everyActionMiddlewareForChecks.slots.compactMap { $0?.entry.node }
            for list in routesForChecks.values {
                resinCheck(!list.isEmpty, "R2", "a route name keeps an empty list of routes")
                list._checkInvariants(below: limit)
            }
            // R3: every focus a registration works on is in the focus tree: each focus on the
            // way to the root that still has its access is the one its parent finds by its key.
            for node in nodes {
                var current = node
                while let parent = current.parent {
                    if current.refresher != nil, let key = current.key {
                        resinCheck(
                            parent.child(for: key) === current, "R3",
                            "a registered focus, or one it is inside, is not the child its parent finds by its key")
                    }
                    resinCheck(current.engine === self, "R3", "a registered focus belongs to another engine")
                    current = parent
                }
            }
            checkEffects(registeredFoci: nodes)
        }
    }
#endif
