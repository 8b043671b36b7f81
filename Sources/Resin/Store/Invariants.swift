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

extension Engine {
    #if RESIN_INTERNAL_CHECKS
        var registrationLimitForChecks: Int { nextToken }
        var reducersForChecks: [ObjectIdentifier: RouteTable<ReducerEntry>] { reducers }
        var middlewareForChecks: [ObjectIdentifier: RouteTable<MiddlewareEntry>] { middlewareByType }
        var everyActionMiddlewareForChecks: RegistrationList<MiddlewareEntry> { everyActionMiddleware }
        var routesForChecks: [String: RegistrationList<RegisteredRoute>] { routes }
        /// How many registrations and effects the checks visit.
        var sizeForChecks: Int {
            let counts = registrationCounts
            return counts.reducers + counts.middleware + counts.routes + running.count
        }

        /// R4: the running effects, their ids and their foci agree (also for `foci`, the foci
        /// registrations work on, and those they are inside); every pacer has its pause.
        /// R5: between actions, no effect waits to start and no focus to be refreshed.
        func checkEffects(registeredFoci foci: [FocusNode]) {
            var visited = Set<ObjectIdentifier>()
            var overriding = 0
            for focus in foci {
                var current: FocusNode? = focus
                while let node = current, visited.insert(ObjectIdentifier(node)).inserted {
                    // R7: the count of foci that change their effects' dependencies covers
                    // every one seen; a sharing focus's local focus is of the same engine.
                    if node.dependencyOverride != nil { overriding += 1 }
                    if let local = node.localParent {
                        resinCheck(
                            local.engine === self, "R7", "a sharing focus's local focus belongs to another engine")
                    }
                    for number in node.ownedEffects {
                        resinCheck(
                            running[number].map { $0.owner === node } == true, "R4",
                            "a focus counts as its own an effect that is not running for it")
                    }
                    current = node.parent
                }
            }
            for (id, numbers) in runningByID {
                for number in numbers {
                    resinCheck(
                        running[number]?.ids.contains(id) == true, "R4",
                        "an effect id names an effect that runs under another id or not at all")
                }
            }
            for (number, effect) in running {
                for id in effect.ids {
                    resinCheck(
                        runningByID[id]?.contains(number) == true, "R4", "a running effect's id does not name it")
                }
                if let owner = effect.owner {
                    resinCheck(
                        owner.ownedEffects.contains(number), "R4", "a running effect is not among its focus's effects")
                }
                if let cause = effect.cause {
                    resinCheck(cause.runs.contains(number), "R6", "a running effect is not among its action's task's")
                }
                if let sequence = effect.sequence {
                    resinCheck(
                        sequences[sequence]?.members.contains(.run(number)) == true, "R6",
                        "an effect started by a concatenation is not among what it waits for")
                }
            }
            for (number, sequence) in sequences {
                // A concatenation always waits for something: one with nothing running has
                // started its next group, or ended.
                resinCheck(!sequence.members.isEmpty, "R6", "a concatenation waits for nothing")
                for member in sequence.members {
                    switch member {
                    case .run(let run):
                        resinCheck(
                            running[run]?.sequence == number, "R6",
                            "a concatenation waits for an effect it did not start")
                    case .sequence(let child):
                        resinCheck(
                            sequences[child]?.parent == number, "R6", "a concatenation waits for one it did not start")
                    }
                }
                for id in sequence.ids {
                    resinCheck(
                        sequencesByID[id]?.contains(number) == true, "R6", "a concatenation's id does not name it")
                }
            }
            resinCheck(
                Set(pacers.keys) == Set(pauses.keys), "R4", "the debounces and throttles disagree with their pauses")
            resinCheck(
                overridingFoci >= overriding, "R7",
                "\(overriding) registered foci override their effects' dependencies, but the engine counts \(overridingFoci)"
            )
            resinCheck(!isRunningAfterHooks, "R7", "the after-action hooks are marked running between actions")
            if !isProcessing {
                resinCheck(pendingEffects.isEmpty, "R5", "effects wait to start between actions")
                resinCheck(dirty.isEmpty, "R5", "foci wait to be refreshed between actions")
            }
        }
    #endif
}
