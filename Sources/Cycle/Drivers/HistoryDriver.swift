import Foundation

/// A place in a program: a path and its query items, as a browser's address names a page.
///
/// ```swift
/// let location: Location = "/items/42?tab=notes"
/// // location.path == "/items/42", location.query == ["tab": "notes"]
/// ```
///
/// A location is parsed as a URL reference without scheme or host: percent-escapes in the path and the query are
/// decoded, a query item given twice keeps its last value, and a fragment (`#...`) is not kept.
public struct Location: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path, decoded: `/items/42`.
    public var path: String
    /// The query items, decoded; an item given without a value has the empty string.
    public var query: [String: String]

    /// The location at `path`, with `query`.
    public init(path: String, query: [String: String] = [:]) {
        self.path = path
        self.query = query
    }

    /// The location `string` names, or `nil` if it is not a URL reference to a path (one
    /// with a scheme or a host, `https://example.com/` or `//example.com/`, names no place
    /// inside the program).
    public init?(parsing string: String) {
        guard let components = URLComponents(string: string), components.scheme == nil, components.host == nil
        else { return nil }
        path = components.path
        query = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    }

    /// The location a string literal names.
    ///
    /// - Precondition: the literal is a URL reference to a path (`"/items/42?tab=notes"`).
    public init(stringLiteral string: String) {
        guard let location = Location(parsing: string) else {
            preconditionFailure("Cycle: a location literal is not a URL reference to a path: \(string)")
        }
        self = location
    }

    /// The location as an address: the path and the query items sorted by name, escaped
    /// where needed. `Location(parsing: location.description) == location` for every
    /// location, and the address never begins with `//` (which a browser or `URL` would read
    /// as the name of a host): a path that begins with two slashes is written `/%2F…`.
    public var description: String {
        var address = Self.escaped(path, keeping: Self.pathCharacters, isPath: true)
        if !query.isEmpty {
            address += "?"
            address += query.sorted { $0.key < $1.key }
                .map {
                    Self.escaped($0.key, keeping: Self.queryCharacters, isPath: false) + "="
                        + Self.escaped($0.value, keeping: Self.queryCharacters, isPath: false)
                }
                .joined(separator: "&")
        }
        return address
    }

    /// What a path keeps unescaped: RFC 3986's unreserved characters, the sub-delimiters but
    /// `;` and `&`, `:`, `@` and `/`.
    private static let pathCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*+,=:@/".utf8)
    /// What a query item's name or value keeps unescaped: the unreserved characters and a few
    /// that separate nothing in a query (not `&`, `=`, `+`, `#` or `%`).
    private static let queryCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*,:@/?".utf8)

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// `text` with every byte not in `kept` percent-escaped. In a path, a second slash right
    /// after the first (`//` would name a host) is escaped, and so is a `:` in the first
    /// segment of a path that does not begin with `/` (it would name a scheme).
    private static func escaped(_ text: String, keeping kept: Set<UInt8>, isPath: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var inFirstSegment = true
        let isRelative = isPath && !text.hasPrefix("/")
        for (offset, byte) in text.utf8.enumerated() {
            var keep = kept.contains(byte)
            if isPath {
                if byte == UInt8(ascii: "/") {
                    if offset == 1 && text.utf8.first == UInt8(ascii: "/") { keep = false }
                    inFirstSegment = false
                } else if byte == UInt8(ascii: ":") && isRelative && inFirstSegment {
                    keep = false
                }
            }
            if keep {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }
}

/// A program's history: the locations visited, in order, and which one is current, as a
/// browser's back and forward buttons see them. The model of a ``HistoryDriver``.
///
/// A push drops the locations ahead of the current one, as a browser does when a link is
/// followed after going back. Going back or forward past the ends does nothing.
public struct HistoryModel: Hashable, Sendable, Codable {
    /// The locations, oldest first; never empty.
    public private(set) var entries: [Location]
    /// The current location's position in ``entries``.
    public private(set) var index: Int

    /// A history holding only `location`.
    public init(_ location: Location = "/") {
        entries = [location]
        index = 0
    }

    /// A history of `entries` (not empty), at `index` (within them), as a deep link or a
    /// restored session sets it.
    ///
    /// - Precondition: `entries` is not empty and `index` is one of its positions.
    public init(entries: [Location], index: Int) {
        precondition(
            entries.indices.contains(index),
            "Cycle: a history's index must be one of its entries' positions, and it needs an entry")
        self.entries = entries
        self.index = index
    }

    /// The current location.
    public var location: Location { entries[index] }

    /// Whether ``back()`` would move.
    public var canGoBack: Bool { index > 0 }

    /// Whether ``forward()`` would move.
    public var canGoForward: Bool { index + 1 < entries.count }

    /// Makes `location` current, after the current one; the locations ahead are dropped.
    public mutating func push(_ location: Location) {
        entries.removeSubrange((index + 1)...)
        entries.append(location)
        index += 1
    }

    /// Puts `location` in place of the current one.
    public mutating func replace(with location: Location) {
        entries[index] = location
    }

    /// Moves `offset` entries back (negative) or forward; an offset past either end does
    /// nothing, as in a browser (`Int.min` and `Int.max` included).
    public mutating func go(_ offset: Int) {
        let (target, overflow) = index.addingReportingOverflow(offset)
        guard !overflow, entries.indices.contains(target) else { return }
        index = target
    }

    /// Moves one entry back, if there is one.
    public mutating func back() { go(-1) }

    /// Moves one entry forward, if there is one.
    public mutating func forward() { go(1) }
}

extension HistoryModel {
    private enum CodingKeys: String, CodingKey {
        case entries, index
    }

    /// Decodes a history encoded by `encode(to:)`, through the checks of
    /// ``init(entries:index:)``.
    ///
    /// Throws `DecodingError.dataCorrupted` naming `entries` when there are none, and `index`
    /// when it is not one of their positions: a session file or a deep link never yields a
    /// history whose ``location`` would stop the program.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([Location].self, forKey: .entries)
        let index = try container.decode(Int.self, forKey: .index)
        guard !entries.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .entries, in: container, debugDescription: "A history needs at least one entry")
        }
        guard entries.indices.contains(index) else {
            throw DecodingError.dataCorruptedError(
                forKey: .index, in: container,
                debugDescription:
                    "A history's index must be one of its entries' positions (0..<\(entries.count)), not \(index)")
        }
        self.init(entries: entries, index: index)
    }
}

/// What a ``HistoryDriver`` reports.
public enum HistoryEvent: Hashable, Sendable {
    /// The history when the driver was wired: where the program starts (a deep link, or a
    /// restored history).
    case started(HistoryModel)
    /// Someone other than the program moved the history (a back button, an address typed):
    /// the history as it now is. The program takes it in as its model.
    case navigated(HistoryModel)
}

/// The history a ``HistoryDriver`` keeps, shared with what moves it from outside the program:
/// the platform's back and forward buttons, an address bar, a deep link.
///
/// Those call ``back()``, ``forward()``, ``go(_:)`` and ``open(_:)``; the driver reports each
/// move to the program. Moves by the program's models are not reported back. Use it from the
/// loop's domain (its scheduler's), like the loop.
public final class MemoryHistory {
    /// The history now.
    public private(set) var model: HistoryModel
    private var observers: [Int: (HistoryModel) -> Void] = [:]
    private var nextObserver = 0

    /// A history at `model`: where the program starts.
    public init(_ model: HistoryModel = HistoryModel()) {
        self.model = model
    }

    /// What a back button does.
    public func back() { move { $0.back() } }

    /// What a forward button does.
    public func forward() { move { $0.forward() } }

    /// Moves `offset` entries; past either end, nothing.
    public func go(_ offset: Int) { move { $0.go(offset) } }

    /// What following a link from outside, or typing an address, does: pushes `location`.
    public func open(_ location: Location) { move { $0.push(location) } }

    private func move(_ change: (inout HistoryModel) -> Void) {
        var moved = model
        change(&moved)
        guard moved != model else { return }
        model = moved
        for observer in observers.values { observer(moved) }
    }

    /// Sets the history as the program's model says, reporting nothing.
    func render(_ model: HistoryModel) {
        self.model = model
    }

    func observe(_ observer: @escaping (HistoryModel) -> Void) -> Int {
        nextObserver += 1
        observers[nextObserver] = observer
        return nextObserver
    }

    func stopObserving(_ key: Int) {
        observers[key] = nil
    }
}

/// Keeps a history in step with the program: the history and router driver, as Cycle.js's
/// `@cycle/history` keeps the browser's.
///
/// When wired it reports ``HistoryEvent/started(_:)`` with the history as it is (where a deep
/// link put it). Each model the program renders becomes the history (a push, a replace, going
/// back are the program's to write, with ``HistoryModel``'s methods); a model equal to the
/// history renders nothing. A move from outside the program (``MemoryHistory``'s buttons) is
/// reported as ``HistoryEvent/navigated(_:)``, which the program takes in as its model, and
/// which then renders nothing. If the program renders a model before taking in a move that
/// came first, the model wins until the program takes the move in: the program's events are
/// processed in order, and the history follows the last model rendered.
///
/// Match a location to the program's screens with a ``Router``. In tests, give the driver a
/// ``MemoryHistory`` and press its buttons, or put a ``DriverScript`` in its place.
public struct HistoryDriver: Driver {
    private let history: MemoryHistory

    /// A driver that keeps `history`.
    public init(history: MemoryHistory) {
        self.history = history
    }

    /// Reports the history at once, then renders each model and reports each move from
    /// outside.
    public func rendered(_ models: EventStream<HistoryModel>) -> EventStream<HistoryEvent> {
        let history = history
        return EventStream { sink in
            sink(.started(history.model))
            let observer = history.observe { sink(.navigated($0)) }
            let connection = models.subscribe { model in
                guard model != history.model else { return }
                history.render(model)
            }
            return Connection(isolated: {
                connection.disconnect()
                history.stopObserving(observer)
            })
        }
    }
}
