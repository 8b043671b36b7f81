import Incremental
import ReactiveCore

// Dispatch: one action at a time through middleware and reducers, then the commit that
// refreshes only the foci whose state can have changed. Documentation/Internals/Resin.md
// states the phases and why dispatch is O(1) in the registrations of other actions.

extension Engine {
    /// Queues `action`; if no action is being processed, processes the queue in order.
    func dispatch(_ action: any Action, task: StoreTask? = nil) {
        // Dispatched while another action's middleware, reducers or observers run: a follow-up,
        // which a replay of that action makes again.
        actions.submit((action, task, isProcessing || isRunningAfterHooks)) {
            process($0.action, task: $0.task, followUp: $0.followUp)
        }
    }

    func process(_ action: any Action, task: StoreTask?, followUp: Bool = false) {
        processingFollowUp = followUp
        isProcessing = true
        let processed = reduce(action)
        let effects = pendingEffects
        pendingEffects.removeAll()
        isProcessing = false
        for (steps, owner) in effects {
            // A task cancelled before its action was processed starts nothing; its
            // cancellations still apply.
            start(task?.isCancelled == true ? steps.filter(\.isCancellation) : steps, owner: owner, cause: task)
        }
        task?.markProcessed()
        if !afterAction.isEmpty {
            isRunningAfterHooks = true
            walkInOrder(afterAction, limit: nextToken) { body in
                body(processed)
                return true
            }
            isRunningAfterHooks = false
        }
        checkInvariants()
    }

    /// Runs the middleware and reducers for `action` and commits the state; returns the
    /// action as the reducers saw it.
    func reduce(_ action: any Action) -> any Action {
        var action = action
        var handled = false
        var replaced = false
        let limit = nextToken
        var route = (action as? any RoutedAction).map { AnyHashable($0.route) }
        let typed = middlewareByType[ObjectIdentifier(type(of: action))]?.lists(for: route)
        var swallowed = false
        walkInOrder(everyActionMiddleware, typed?.0, typed?.1, limit: limit) { entry in
            switch entry.handle(action) {
            case .pass: break
            case .handled: handled = true
            case .replace(let replacement):
                action = replacement
                handled = true
                replaced = true
            case .swallow:
                swallowed = true
                return false
            }
            return true
        }
        if swallowed { return action }
        if replaced { route = (action as? any RoutedAction).map { AnyHashable($0.route) } }
        guard let table = reducers[ObjectIdentifier(type(of: action))] else {
            if !handled { unhandled(action, route: route) }
            return action
        }
        let (unrouted, routed) = table.lists(for: route)
        guard !unrouted.isEmpty || routed != nil else {
            if !handled { unhandled(action, route: route) }
            return action
        }
        let reduced = action
        var reached = 0
        absentSkips = 0
        graph.batch {
            stamp += 1
            walkInOrder(unrouted, routed, limit: limit) { entry in
                let steps = entry.apply(reduced)
                reached += 1
                markDirty(entry.node)
                if !steps.isEmpty { pendingEffects.append((scoped(steps, for: entry.node), entry.node)) }
                return true
            }
            commit()
        }
        if !handled, reached > 0, absentSkips == reached {
            reportWentNowhere(
                action,
                "every reducer for it runs only while its state is present, and none was (a dismissed child, a popped element, another case)"
            )
        }
        return action
    }

    /// An action no reducer is registered for: to the unhandled-action hook, and reported as
    /// going nowhere if it names a route (the element or child it is for is gone) or if its
    /// reducers were registered inside presented children or stack elements, none of which
    /// is there now.
    private func unhandled(_ action: any Action, route: AnyHashable?) {
        unhandledActionHandler(action)
        // A route that is an optional's `nil` (an unnamed stack's) names nothing.
        if let route, !isNil(route.base) {
            reportWentNowhere(
                action, "no reducer is registered for its route \(route.base) (the element or child it names is gone)")
        } else if presentedActionTypes.contains(ObjectIdentifier(type(of: action))) {
            reportWentNowhere(
                action, "its reducers run in presented children or stack elements, and none is there now")
        }
    }

    private func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    /// Reports that `action` changed nothing because what it names is not there: to
    /// ``actionWentNowhereHandler``.
    func reportWentNowhere(_ action: any Action, _ reason: String) {
        actionWentNowhereHandler(action, reason)
    }

    func markDirty(_ node: FocusNode) {
        guard node.dirtyStamp != stamp else { return }
        node.dirtyStamp = stamp
        dirty.append(node)
    }

    /// Writes the changed state into every focus it can have changed.
    ///
    /// A focus whose reducers ran is refreshed; if its slice is unchanged (by its cutoff),
    /// nothing else is. If it changed: the foci inside it, top-down, each descending only
    /// when its own slice changed; its ancestors; and at every level on the way up, the foci
    /// beside the path whose part may share state with it (see ``FocusRegion``), top-down.
    /// So the cost follows the foci that can have changed, not how many exist.
    func commit() {
        let stamp = stamp
        var refreshed = 0
        func refreshOnce(_ node: FocusNode) -> Bool {
            guard node.refreshStamp != stamp else { return node.lastRefreshChanged }
            node.refreshStamp = stamp
            refreshed += 1
            guard let refresher = node.refresher else {
                node.lastRefreshChanged = true
                return true
            }
            let changed = refresher.refresh()
            node.lastRefreshChanged = changed
            if changed, node.hasOwnedEffects, refresher.isAbsent { cancelEffects(ownedBy: node) }
            return changed
        }
        func refreshDown(_ node: FocusNode) {
            guard node.subtreeStamp != stamp else { return }
            node.subtreeStamp = stamp
            guard refreshOnce(node), node.hasChildren else { return }
            for child in node.childList() { refreshDown(child) }
        }
        var index = 0
        while index < dirty.count {
            let node = dirty[index]
            index += 1
            refreshDown(node)
            guard node.lastRefreshChanged else { continue }
            var current = node
            while let parent = current.parent {
                _ = refreshOnce(parent)
                parent.forEachChild(overlapping: current) { sibling in
                    // An element replaced in place leaves the identities of its collection.
                    if let tracking = sibling.identityTracking, case .element(let collection, _, _) = current.region,
                        collection == tracking.collection, tracking.generation.identitiesUnchanged
                    {
                        return
                    }
                    refreshDown(sibling)
                }
                current = parent
            }
        }
        dirty.removeAll(keepingCapacity: true)
        lastRefreshCount = refreshed
    }
}
