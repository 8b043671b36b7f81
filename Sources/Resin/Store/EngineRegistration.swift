// Registration: reducers, middleware and presentation routes, each indexed by action type
// and route and ordered by its token; each returns a connection that removes it in O(1).
// Documentation/Internals/Resin.md says why a walk never runs what was registered during it.

extension Engine {
    func takeToken() -> Int {
        nextToken += 1
        return nextToken
    }

    /// Registers a reducer of `node`'s part; `mayLeaveUnchanged` is false only for a reducer
    /// that changes the part whenever it runs (see ``FocusNode/comparedReducers``).
    func register(
        reducer apply: @escaping (any Action) -> [EffectStep], for actionType: ObjectIdentifier, route: AnyHashable?,
        at node: FocusNode, mayLeaveUnchanged: Bool = true
    ) -> Connection {
        let token = takeToken()
        if mayLeaveUnchanged { node.comparedReducers += 1 }
        let table = reducers[actionType] ?? RouteTable()
        reducers[actionType] = table
        table.add(ReducerEntry(node: node, apply: apply), route: route, token: token)
        // Registered for a presented child or stack element: once that is gone, an action of
        // the type that finds no reducer went nowhere.
        if effectScope(of: node) != 0 { presentedActionTypes.insert(actionType) }
        checkInvariants()
        return Connection(isolated: { [weak self, weak node] in
            if mayLeaveUnchanged, let node { node.comparedReducers -= 1 }
            guard let self, let table = reducers[actionType] else { return }
            table.remove(route: route, token: token)
            if table.isEmpty { reducers[actionType] = nil }
            checkInvariants()
        })
    }

    func register(
        middleware handle: @escaping (any Action) -> MiddlewareDecision, after: ((any Action) -> Void)?,
        for actionType: ObjectIdentifier?, route: AnyHashable?, at node: FocusNode
    ) -> Connection {
        let token = takeToken()
        let entry = MiddlewareEntry(node: node, handle: handle)
        if let actionType {
            let table = middlewareByType[actionType] ?? RouteTable()
            middlewareByType[actionType] = table
            table.add(entry, route: route, token: token)
        } else {
            everyActionMiddleware.append(entry, token: token)
        }
        if let after { afterAction.append(after, token: token) }
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self else { return }
            defer { checkInvariants() }
            afterAction.remove(token: token)
            guard let actionType else {
                everyActionMiddleware.remove(token: token)
                return
            }
            guard let table = middlewareByType[actionType] else { return }
            table.remove(route: route, token: token)
            if table.isEmpty { middlewareByType[actionType] = nil }
        })
    }

    /// Runs `body` after every action has been processed, in registration order with the
    /// middleware's `after` hooks, while the returned connection is connected.
    func registerAfterAction(_ body: @escaping (any Action) -> Void) -> Connection {
        let token = takeToken()
        afterAction.append(body, token: token)
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self else { return }
            afterAction.remove(token: token)
            checkInvariants()
        })
    }

    func register(route: RegisteredRoute) -> Connection {
        let token = takeToken()
        let name = route.route.name
        let list = routes[name] ?? RegistrationList()
        routes[name] = list
        list.append(route, token: token)
        checkInvariants()
        return Connection(isolated: { [weak self] in
            guard let self, let list = routes[name] else { return }
            list.remove(token: token)
            if list.isEmpty { routes[name] = nil }
            checkInvariants()
        })
    }

    /// The newest connected route named `name`.
    func route(named name: String) -> RegisteredRoute? {
        routes[name]?.slots.last { $0 != nil }??.entry
    }

    /// How many registrations of each kind are connected; for tests of lifetimes.
    var registrationCounts: (reducers: Int, middleware: Int, routes: Int) {
        let reducerCount = reducers.values.reduce(0) {
            $0 + $1.unrouted.count + $1.routed.values.reduce(0) { $0 + $1.count }
        }
        let middlewareCount =
            everyActionMiddleware.count
            + middlewareByType.values.reduce(0) {
                $0 + $1.unrouted.count + $1.routed.values.reduce(0) { $0 + $1.count }
            }
        return (reducerCount, middlewareCount, routes.values.reduce(0) { $0 + $1.count })
    }
}
