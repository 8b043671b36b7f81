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

/// Navigation as state: the stack of presented screens, bottom first.
///
/// Navigation changes only through ``Navigate`` actions, like any other state, so it is
/// observable, testable and restorable. A platform layer observes the stack and turns each
/// ``PresentationID`` into a screen through the registered ``PresentationRoute``s.
public struct NavigationState: Equatable, Sendable {
    /// The presented screens, bottom first; the last is on top.
    public var stack: [PresentationID]

    /// A stack holding `stack`.
    public init(_ stack: [PresentationID] = []) {
        self.stack = stack
    }

    /// The screen on top, if any.
    public var top: PresentationID? { stack.last }
}

/// Changes the navigation stack.
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
                        navigation.stack.append(id)
                    case .pop:
                        _ = navigation.stack.popLast()
                    case .popTo(let id):
                        if let index = navigation.stack.lastIndex(of: id) {
                            navigation.stack.removeSubrange((index + 1)...)
                        }
                    case .popToRoot:
                        navigation.stack.removeAll()
                    case .replace(let stack):
                        navigation.stack = stack
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
public struct PresentationRoute<Presentation> {
    /// The name of the presentations this route handles.
    public let name: String
    let present: (PresentationID) -> Presentation

    /// A route for presentations named `name`.
    public init(_ name: String, present: @escaping (PresentationID) -> Presentation) {
        self.name = name
        self.present = present
    }

    /// The route, type-erased for a ``Parcel``.
    public var erased: AnyPresentationRoute {
        AnyPresentationRoute(name: name, route: self)
    }
}

/// A presentation route of any platform type, as a parcel lists it.
public struct AnyPresentationRoute {
    let name: String
    let route: Any
}

extension Store {
    /// Registers a presentation route while the returned connection is connected; the
    /// newest connected route for a name is the one used.
    public func register(_ route: AnyPresentationRoute) -> Connection {
        engine.register(route: route)
    }

    /// Registers a presentation route while the returned connection is connected; the
    /// newest connected route for a name is the one used.
    public func register<Presentation>(_ route: PresentationRoute<Presentation>) -> Connection {
        register(route.erased)
    }

    /// The screens for `stack`, bottom first, made by the registered routes.
    ///
    /// - Precondition: Every presentation in `stack` has a route for `Presentation`.
    public func presentations<Presentation>(
        of stack: NavigationState, as type: Presentation.Type = Presentation.self
    ) -> [Presentation] {
        stack.stack.map { id in
            guard let route = engine.route(named: id.name)?.route as? PresentationRoute<Presentation> else {
                preconditionFailure(
                    "Resin: no presentation route named '\(id.name)' for \(Presentation.self); register one in a parcel or with register(_:)"
                )
            }
            return route.present(id)
        }
    }
}
