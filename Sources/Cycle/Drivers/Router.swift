/// Matches locations to a program's routes: the router that goes with a ``HistoryDriver``.
///
/// A pattern is a path whose segments are either literal (`items`), a capture (`:id`, any one
/// segment), or, last, a rest capture (`*rest`, every remaining segment, possibly none). The
/// routes are tried in the order added; the first whose pattern matches and whose closure
/// returns a route wins, so a closure can refuse a match (an id that is not a number) and let
/// a later pattern try.
///
/// ```swift
/// enum Screen: Equatable { case list, item(Int), files(String), missing }
///
/// let router = Router<Screen>()
///     .route("/") { _ in .list }
///     .route("/items/:id") { parameters in Int(parameters["id"]!).map(Screen.item) }
///     .route("/files/*path") { parameters in .files(parameters["path"]!) }
///
/// let screen = router.match("/items/42")          // .item(42)
/// let file = router.match("/files/a/b.txt")       // .files("a/b.txt")
/// let refused = router.match("/items/forty-two")  // nil: no later pattern matches
/// ```
///
/// A trailing slash is ignored (`/items/42/` is `/items/42`), and empty segments are skipped.
/// Captured segments are decoded (``Location`` decodes the path). The closure's parameters
/// also hold the location's query items, under their names; a captured segment wins over a
/// query item of the same name.
public struct Router<Route> {
    private var routes: [(pattern: RoutePattern, make: (RouteParameters) -> Route?)] = []

    /// A router with no routes: it matches nothing.
    public init() {}

    /// This router with a route for `pattern` after its others: `make` turns the parameters of
    /// a matching location into a route, or refuses it with `nil`.
    ///
    /// - Precondition: `pattern` starts with `/`, names each capture once and not emptily, and
    ///   has a rest capture (`*name`) only as its last segment.
    public func route(_ pattern: String, _ make: @escaping (RouteParameters) -> Route?) -> Router {
        var router = self
        router.routes.append((RoutePattern(pattern), make))
        return router
    }

    /// The route of the first pattern that matches `location` and whose closure accepts it,
    /// or `nil`.
    public func match(_ location: Location) -> Route? {
        let segments = location.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for (pattern, make) in routes {
            guard let captures = pattern.match(segments) else { continue }
            let parameters = RouteParameters(values: location.query.merging(captures) { _, captured in captured })
            if let route = make(parameters) { return route }
        }
        return nil
    }
}

/// The values a location gave a route: its pattern's captures and its query items, by name.
public struct RouteParameters: Hashable, Sendable {
    /// Every value, by name.
    public let values: [String: String]

    /// The value named `name`, or `nil`.
    public subscript(name: String) -> String? { values[name] }
}

/// A parsed route pattern.
struct RoutePattern {
    enum Segment: Equatable {
        case literal(String)
        case capture(String)
        case rest(String)
    }

    let segments: [Segment]

    init(_ pattern: String) {
        let isAbsolute = pattern.hasPrefix("/")
        precondition(isAbsolute, "Cycle: a route pattern must start with a slash: \(pattern)")
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var segments: [Segment] = []
        var names: Set<String> = []
        for (position, part) in parts.enumerated() {
            let segment: Segment
            switch part.first {
            case ":": segment = .capture(String(part.dropFirst()))
            case "*":
                precondition(
                    position == parts.count - 1, "Cycle: a rest capture must end its route pattern: \(pattern)")
                segment = .rest(String(part.dropFirst()))
            default: segment = .literal(part)
            }
            switch segment {
            case .capture(let name), .rest(let name):
                let isNew = !name.isEmpty && names.insert(name).inserted
                precondition(isNew, "Cycle: a route pattern names a capture emptily or twice: \(pattern)")
            case .literal: break
            }
            segments.append(segment)
        }
        self.segments = segments
    }

    /// The captures of `path`'s segments, or `nil` if they do not match.
    func match(_ path: [String]) -> [String: String]? {
        var captures: [String: String] = [:]
        for (position, segment) in segments.enumerated() {
            switch segment {
            case .literal(let literal):
                guard position < path.count, path[position] == literal else { return nil }
            case .capture(let name):
                guard position < path.count else { return nil }
                captures[name] = path[position]
            case .rest(let name):
                captures[name] = path[min(position, path.count)...].joined(separator: "/")
                return captures
            }
        }
        return path.count == segments.count ? captures : nil
    }
}
