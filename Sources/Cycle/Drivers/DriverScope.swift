/// The name under which an isolated component's driver ids live: Cycle.js's `isolate` scope,
/// for the drivers.
///
/// A component that makes HTTP requests, runs timers or keeps stored entries writes them
/// under ids of its own (`"load"`, `"poll"`, `"draft"`), in its own slice of the models. The
/// program places each isolated copy under a scope: it merges the copies' driver models with
/// their ids qualified by the scope (`"left/load"`, `"right/load"`), and routes each driver
/// event back to the copy whose scope it carries, with the id as that copy wrote it. Two
/// copies that use the same id never see each other's responses, ticks or entries.
///
/// ```swift
/// // The drivers' models: each child's requests, qualified by its scope.
/// let requests = [String: HTTPRequest].merging([
///     models.left.requests.scoped("left"), models.right.requests.scoped("right"),
/// ])
/// // A driver event reaches the child whose scope it names, with the child's own id.
/// let forLeft = event.unscoped(from: "left")   // .response(id: "load", ...) or nil
/// ```
///
/// Scopes nest: a child that isolates children of its own qualifies their ids again, and the
/// program's qualification comes first (`"left/suggestions/load"`).
public struct DriverScope: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The scope's name: not empty, and without `/`, which separates a scope from the id.
    public let name: String

    /// A scope named `name`.
    ///
    /// - Precondition: `name` is not empty and has no `/`.
    public init(_ name: String) {
        let isValid = !name.isEmpty && !name.contains("/")
        precondition(
            isValid, "Cycle: a driver scope must be a non-empty name without a slash, which separates it from the id")
        self.name = name
    }

    /// A scope named by a string literal.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// A scope named after `id`'s description: the scope of one element of a collection.
    public init(_ id: some CustomStringConvertible) {
        self.init(id.description)
    }

    /// The scope's name.
    public var description: String { name }

    /// `id` qualified by this scope.
    public func qualify(_ id: String) -> String { name + "/" + id }

    /// The id a qualified id had before this scope qualified it, or `nil` if this scope did
    /// not qualify it.
    public func unqualify(_ id: String) -> String? {
        guard id.hasPrefix(name), id.dropFirst(name.count).first == "/" else { return nil }
        return String(id.dropFirst(name.count + 1))
    }

    /// The scope that qualified `id` and the id before it did, or `nil` for an id no scope
    /// qualified.
    public static func split(_ id: String) -> (scope: DriverScope, id: String)? {
        guard let separator = id.firstIndex(of: "/"), separator != id.startIndex else { return nil }
        return (DriverScope(String(id[..<separator])), String(id[id.index(after: separator)...]))
    }
}

/// A driver model whose ids can be qualified by a scope, and whose scoped copies merge into
/// the one model the driver renders.
public protocol ScopedDriverModel {
    /// This model with every id qualified by `scope`.
    func scoped(_ scope: DriverScope) -> Self

    /// One model holding every one of `models` (each scoped by a different scope).
    static func merging(_ models: [Self]) -> Self
}

/// A driver event that carries an id, so that it can be routed back to the scope that
/// qualified it.
public protocol ScopedDriverEvent {
    /// This event as the component isolated under `scope` sees it (its id as that
    /// component wrote it), or `nil` if it belongs to another scope. An event that concerns
    /// every scope (the whole store could not be read) is returned to each.
    func unscoped(from scope: DriverScope) -> Self?

    /// The scope this event belongs to, or `nil` if it concerns every scope or none: what a
    /// collection of isolated children routes on.
    var scope: DriverScope? { get }
}

extension Dictionary: ScopedDriverModel where Key == String {
    /// The entries with their keys qualified by `scope`.
    public func scoped(_ scope: DriverScope) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: map { (scope.qualify($0.key), $0.value) })
    }

    /// Every entry of every one of `models`.
    ///
    /// - Precondition: no key is in two of them (each was scoped by its own scope).
    public static func merging(_ models: [[String: Value]]) -> [String: Value] {
        var merged: [String: Value] = [:]
        merged.reserveCapacity(models.reduce(0) { $0 + $1.count })
        for model in models {
            merged.merge(model) { _, _ in
                preconditionFailure(
                    "Cycle: two merged driver models hold the same id; isolate each component under a scope of its own")
            }
        }
        return merged
    }

    /// The entries whose keys `scope` qualified, with the keys as the component wrote them.
    public func unscoped(from scope: DriverScope) -> [String: Value] {
        var entries: [String: Value] = [:]
        for (key, value) in self {
            if let key = scope.unqualify(key) { entries[key] = value }
        }
        return entries
    }
}

extension Optional: ScopedDriverModel where Wrapped: ScopedDriverModel {
    /// The model scoped, or `nil`.
    public func scoped(_ scope: DriverScope) -> Wrapped? {
        map { $0.scoped(scope) }
    }

    /// `nil` while any of `models` is `nil` (a component that has not taken its loaded
    /// entries in yet must not have them erased), else the models merged.
    public static func merging(_ models: [Wrapped?]) -> Wrapped? {
        var present: [Wrapped] = []
        present.reserveCapacity(models.count)
        for model in models {
            guard let model else { return nil }
            present.append(model)
        }
        return Wrapped.merging(present)
    }
}

extension HTTPEvent: ScopedDriverEvent {
    /// This event for the component isolated under `scope`, or `nil` if another scope made
    /// the request.
    public func unscoped(from scope: DriverScope) -> HTTPEvent? {
        guard let id = scope.unqualify(id) else { return nil }
        switch self {
        case .response(_, let status, let body): return .response(id: id, status: status, body: body)
        case .failure(_, let reason): return .failure(id: id, reason: reason)
        }
    }

    /// The scope that made the request.
    public var scope: DriverScope? { DriverScope.split(id)?.scope }
}

extension KeyValueEvent: ScopedDriverEvent {
    /// This event for the component isolated under `scope`: its own entries of a load, its
    /// own failed writes, and every ``KeyValueEvent/unreadable(reason:)``.
    public func unscoped(from scope: DriverScope) -> KeyValueEvent? {
        switch self {
        case .loaded(let entries): .loaded(entries.unscoped(from: scope))
        case .unreadable: self
        case .failed(let key, let reason): scope.unqualify(key).map { .failed(key: $0, reason: reason) }
        }
    }

    /// The scope of a failed write's key; `nil` for a load or an unreadable store, which
    /// concern every scope.
    public var scope: DriverScope? {
        if case .failed(let key, _) = self { DriverScope.split(key)?.scope } else { nil }
    }
}
