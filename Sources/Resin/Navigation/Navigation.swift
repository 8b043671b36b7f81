/// Names one screen the app can present, with an optional parameter: `"todo"`,
/// `PresentationID("todo", parameter: "42")`.
public struct PresentationID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The route that presents it.
    public var name: String
    /// What the screen shows, if it shows one of many (an item's id).
    public var parameter: String?

    /// A presentation of the route `name`, about `parameter`.
    public init(_ name: String, parameter: String? = nil) {
        self.name = name
        self.parameter = parameter
    }

    /// A presentation of the route named by the literal.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// `name` or `name(parameter)`.
    public var description: String {
        parameter.map { "\(name)(\($0))" } ?? name
    }
}

/// Navigation by name: the stack of pushed screens, bottom first, and a sheet presented over
/// them, each a ``PresentationID``.
///
/// A thin layer over typed navigation: the stack is a ``StackState`` of presentation ids
/// (``path``), so each screen has a stable ``StackElementID`` and can be followed with
/// ``Store/stack(_:name:_:)`` like any typed stack; ``Navigate`` actions are stack operations.
/// A platform layer observes it and turns each ``PresentationID`` into a screen through the
/// registered ``PresentationRoute``s.
public struct NavigationState: Equatable, Sendable {
    /// The pushed screens with their ids, bottom first.
    public var path: StackState<PresentationID>
    /// The screen presented as a sheet over the stack, if any.
    public var sheet: PresentationID?

    /// A stack holding `stack`, with `sheet` presented over it.
    public init(_ stack: [PresentationID] = [], sheet: PresentationID? = nil) {
        path = StackState(stack)
        self.sheet = sheet
    }

    /// The pushed screens, bottom first; the last is on top. Setting it replaces the path
    /// (``StackState/replace(with:)``).
    public var stack: [PresentationID] {
        get { Array(path) }
        set { path.replace(with: newValue) }
    }

    /// The screen on top, if any.
    public var top: PresentationID? { path.last }

    /// Whether both show the same screens and sheet (the stacks' ids are not compared).
    public static func == (lhs: NavigationState, rhs: NavigationState) -> Bool {
        lhs.sheet == rhs.sheet && lhs.path.elementsEqual(rhs.path)
    }
}

/// Changes the navigation stack by name; each case is a ``StackAction`` on
/// ``NavigationState/path`` (or sets the sheet).
public enum Navigate: Action, Equatable {
    /// Presents `id` on top.
    case push(PresentationID)
    /// Removes the top screen; does nothing on an empty stack.
    case pop
    /// Removes the screens above the topmost `id`; does nothing if `id` is not presented.
    case popTo(PresentationID)
    /// Removes every screen.
    case popToRoot
    /// Replaces the whole stack.
    case replace([PresentationID])
    /// Presents `id` as the sheet, replacing any sheet presented.
    case present(PresentationID)
    /// Dismisses the sheet; does nothing if none is presented.
    case dismiss
}

extension Parcel where State == NavigationState {
    /// The reducer for ``Navigate`` actions; focus it on the app state's navigation:
    /// `store.register(Parcel.navigation.focused(on: \AppState.navigation))`.
    public static var navigation: Parcel<NavigationState> {
        Parcel(reducers: [
            ParcelReducer(
                Reducer<NavigationState, Navigate> { navigation, action in
                    switch action {
                    case .push(let id):
                        navigation.path.apply(.push(id))
                    case .pop:
                        navigation.path.apply(.pop(count: 1))
                    case .popTo(let id):
                        if let index = navigation.path.lastIndex(of: id) {
                            navigation.path.apply(.popTo(navigation.path.ids[index]))
                        }
                    case .popToRoot:
                        navigation.path.apply(.popToRoot)
                    case .replace(let stack):
                        navigation.path.apply(.setPath(stack))
                    case .present(let sheet):
                        navigation.sheet = sheet
                    case .dismiss:
                        navigation.sheet = nil
                    }
                })
        ])
    }
}

/// Turns presentations of one route into a platform's screens.
///
/// The store holds routes; a platform layer asks it for the screens of a navigation stack
/// with ``Store/presentations(of:as:)``. `Presentation` is whatever the platform renders: a
/// view controller, a view, or, in the examples, text for a terminal.
///
/// A route can make its screen from the store it was registered on, so that a module's
/// screens read their own slice without reaching for a global:
///
/// ```swift
/// PresentationRoute<String>("todo") { (id, todos: Store<[Todo]>) in
///     todos.state.value.first { "\($0.id)" == id.parameter }?.title ?? "(gone)"
/// }
/// ```
public struct PresentationRoute<Presentation> {
    /// The name of the presentations this route handles.
    public let name: String
    /// Makes the screen; gets the store the route was registered on.
    let present: (PresentationID, AnyObject) -> Presentation
    /// The state type of the store `present` needs, if it needs one.
    let storeState: Any.Type?

    /// A route for presentations named `name`.
    public init(_ name: String, present: @escaping (PresentationID) -> Presentation) {
        self.name = name
        self.present = { id, _ in present(id) }
        storeState = nil
    }

    /// A route for presentations named `name` that makes its screen from the store it is
    /// registered on (a parcel's focused store).
    ///
    /// - Precondition: It is registered on a store of `State`.
    public init<State>(_ name: String, present: @escaping (PresentationID, Store<State>) -> Presentation) {
        self.name = name
        // Registration checks that the store is a `Store<State>`.
        self.present = { id, store in present(id, store as! Store<State>) }
        storeState = State.self
    }

    /// The route, type-erased for a ``Parcel``.
    public var erased: AnyPresentationRoute {
        AnyPresentationRoute(name: name, route: self, storeState: storeState)
    }
}

/// A presentation route of any platform type, as a parcel lists it.
public struct AnyPresentationRoute {
    let name: String
    let route: Any
    let storeState: Any.Type?
}

/// A registered route and the store it was registered on.
struct RegisteredRoute {
    let route: AnyPresentationRoute
    /// The store the route was registered on (made again if released: the route keeps its
    /// focus).
    let store: () -> AnyObject
}

extension Store {
    /// Registers a presentation route while the returned connection is connected; the
    /// newest connected route for a name is the one used.
    ///
    /// - Precondition: A route that makes its screen from a store is registered on a store of
    ///   the state type it needs.
    public func register(_ route: AnyPresentationRoute) -> Connection {
        if let needed = route.storeState {
            precondition(
                needed == State.self,
                "Resin: the presentation route '\(route.name)' needs a Store<\(needed)>, but it is registered on a Store<\(State.self)>"
            )
        }
        let access = access
        unowned let engine = engine
        return engine.register(
            route: RegisteredRoute(route: route) { access.node.store ?? Store(engine: engine, access: access) })
    }

    /// Registers a presentation route while the returned connection is connected; the
    /// newest connected route for a name is the one used.
    public func register<Presentation>(_ route: PresentationRoute<Presentation>) -> Connection {
        register(route.erased)
    }

    /// The screens for the stack of `navigation`, bottom first, made by the registered
    /// routes (the sheet is ``presentation(of:as:)``'s).
    ///
    /// - Precondition: Every presentation in the stack has a route for `Presentation`.
    public func presentations<Presentation>(
        of navigation: NavigationState, as type: Presentation.Type = Presentation.self
    ) -> [Presentation] {
        navigation.path.map { presentation(of: $0, as: type) }
    }

    /// The screen for `id` (a sheet, or one screen of a stack), made by its registered route.
    ///
    /// - Precondition: `id` has a route for `Presentation`.
    public func presentation<Presentation>(
        of id: PresentationID, as type: Presentation.Type = Presentation.self
    ) -> Presentation {
        guard let registered = engine.route(named: id.name),
            let route = registered.route.route as? PresentationRoute<Presentation>
        else {
            preconditionFailure(
                "Resin: no presentation route named '\(id.name)' for \(Presentation.self); register one in a parcel or with register(_:)"
            )
        }
        return route.present(id, registered.store())
    }
}
