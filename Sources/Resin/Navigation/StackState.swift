/// The identity of one element of a ``StackState``: given when the element is pushed, never
/// given again by that stack, and kept while the element stays, whatever is pushed or popped
/// above it.
///
/// Tests can write an id as an integer literal: a stack made from elements numbers them from
/// 0, and each push takes the next number (`stack[id: 1]`).
public struct StackElementID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The number the stack gave the element.
    public let rawValue: Int

    /// The id numbered `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The id numbered by the literal.
    public init(integerLiteral value: Int) {
        rawValue = value
    }

    /// Whether `lhs` was given before `rhs` (by the same stack).
    public static func < (lhs: StackElementID, rhs: StackElementID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#` and the number.
    public var description: String { "#\(rawValue)" }
}

/// A navigation stack of typed screens: the child states, bottom first, each with a stable
/// ``StackElementID``.
///
/// ```swift
/// enum Path: Equatable, Sendable {
///     case detail(Detail)
///     case settings(Settings)
/// }
///
/// struct AppState: Equatable {
///     var path = StackState<Path>()
/// }
/// ```
///
/// A stack is a random-access collection of its elements; ``ids`` gives their ids in the same
/// order, and ``subscript(id:)`` finds an element by id in O(1). A store focuses on one element
/// by id (``Store/focus(_:id:)-(WritableKeyPath<State,StackState<Element>>,_)``), and
/// ``Store/stack(_:name:_:)`` follows every element, as `forEach` does an array.
///
/// Ids are numbered by the stack itself, so a stack built the same way in a test has the same
/// ids. Replace the elements of a stack that is in use with ``replace(with:)`` (or
/// ``StackAction/setPath(_:in:)``), which numbers the new elements after every id the stack
/// has given: assigning a newly made `StackState` numbers from 0 again, so an element that
/// takes the id of one that was there is treated as the same screen.
///
/// Two stacks are equal when they hold equal elements under the same ids; the next number to
/// give is not compared.
public struct StackState<Element> {
    /// The ids of the elements, bottom first. (Settable inside the module, so that a store
    /// can focus on them alone.)
    public internal(set) var ids: [StackElementID]
    private var elements: [StackElementID: Element]
    private var nextID: Int

    /// A stack of `elements`, bottom first, numbered from 0.
    public init(_ elements: some Sequence<Element>) {
        ids = []
        self.elements = [:]
        nextID = 0
        for element in elements { append(element) }
    }

    /// An empty stack.
    public init() {
        self.init([])
    }

    /// The element with `id`, or `nil` if the stack has none.
    ///
    /// Setting a value replaces the element (setting one for an id the stack does not hold
    /// does nothing: ids are the stack's to give); setting `nil` pops the element and every
    /// element above it, as ``pop(from:)`` does.
    public subscript(id id: StackElementID) -> Element? {
        get { elements[id] }
        set {
            guard elements[id] != nil else { return }
            if let newValue {
                elements[id] = newValue
            } else {
                pop(from: id)
            }
        }
    }

    /// Pushes `element` on top; returns its new id.
    @discardableResult
    public mutating func append(_ element: Element) -> StackElementID {
        let id = StackElementID(rawValue: nextID)
        nextID += 1
        ids.append(id)
        elements[id] = element
        return id
    }

    /// Pops the top element and returns it; `nil` on an empty stack.
    @discardableResult
    public mutating func popLast() -> Element? {
        guard let id = ids.popLast() else { return nil }
        return elements.removeValue(forKey: id)
    }

    /// Pops `count` elements from the top, or every element if there are fewer.
    ///
    /// - Precondition: `count` is not negative.
    public mutating func removeLast(_ count: Int) {
        precondition(count >= 0, "Resin: a stack cannot pop a negative number of elements")
        for _ in 0..<Swift.min(count, ids.count) { popLast() }
    }

    /// Pops the element with `id` and every element above it; does nothing if there is none.
    public mutating func pop(from id: StackElementID) {
        guard let index = ids.firstIndex(of: id) else { return }
        removeLast(ids.count - index)
    }

    /// Pops every element above the one with `id`; does nothing if there is none.
    public mutating func pop(to id: StackElementID) {
        guard let index = ids.firstIndex(of: id) else { return }
        removeLast(ids.count - index - 1)
    }

    /// Removes the element with `id` alone, wherever it is in the stack, and returns it; the
    /// elements above it move down one place and keep their ids. Does nothing, returning `nil`,
    /// if there is none.
    @discardableResult
    public mutating func remove(id: StackElementID) -> Element? {
        guard let index = ids.firstIndex(of: id) else { return nil }
        ids.remove(at: index)
        return elements.removeValue(forKey: id)
    }

    /// Pops every element.
    public mutating func removeAll() {
        removeLast(ids.count)
    }

    /// Replaces every element with `elements`, numbered after every id this stack has given,
    /// so that none of them is taken for an element that was there: a deep link.
    public mutating func replace(with elements: some Sequence<Element>) {
        removeAll()
        for element in elements { append(element) }
    }
}

extension StackState: RandomAccessCollection, MutableCollection {
    /// The position of the bottom element.
    public var startIndex: Int { 0 }
    /// The position after the top element.
    public var endIndex: Int { ids.count }

    /// The element at `position`, counted from the bottom.
    public subscript(position: Int) -> Element {
        get { elements[ids[position]]! }
        set { elements[ids[position]] = newValue }
    }
}

extension StackState: ExpressibleByArrayLiteral {
    /// A stack of the literal's elements, bottom first, numbered from 0.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension StackState: Equatable where Element: Equatable {
    /// Whether both stacks hold equal elements under the same ids, in the same order.
    public static func == (lhs: StackState, rhs: StackState) -> Bool {
        lhs.ids == rhs.ids && lhs.ids.allSatisfy { lhs.elements[$0] == rhs.elements[$0] }
    }
}

extension StackState: Hashable where Element: Hashable {
    /// Hashes the ids and the elements, bottom first.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
        for element in self { hasher.combine(element) }
    }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Codable where Element: Codable {
    private enum CodingKeys: String, CodingKey {
        case ids, elements, nextID
    }

    /// Decodes a stack encoded by ``encode(to:)``, through the rules a stack keeps when it
    /// numbers its own elements.
    ///
    /// Throws `DecodingError.dataCorrupted` naming the field: `elements` when they are not as
    /// many as the ids, `ids` when an id is negative, given twice, or not below the next number
    /// to give, and `nextID` when it is negative or above 2⁵³ (more than a stack numbering one
    /// id per push reaches, and than a JSON number holds exactly), so that every push after
    /// decoding has a number to give.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let ids = try container.decode([StackElementID].self, forKey: .ids)
        let elements = try container.decode([Element].self, forKey: .elements)
        let nextID = try container.decode(Int.self, forKey: .nextID)
        guard (0...Self.largestNextID).contains(nextID) else {
            throw DecodingError.dataCorruptedError(
                forKey: .nextID, in: container,
                debugDescription: "A stack's nextID must be in 0...\(Self.largestNextID), not \(nextID)")
        }
        guard ids.count == elements.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .elements, in: container,
                debugDescription: "A stack has \(ids.count) ids and \(elements.count) elements; they must be as many")
        }
        guard Set(ids).count == ids.count, ids.allSatisfy({ (0..<nextID).contains($0.rawValue) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .ids, in: container,
                debugDescription: "A stack's ids must be distinct and in 0..<nextID (\(nextID))")
        }
        self.ids = ids
        self.elements = Dictionary(uniqueKeysWithValues: zip(ids, elements))
        self.nextID = nextID
    }

    /// The largest next number a decoded stack may have: 2⁵³.
    static var largestNextID: Int { 1 << 53 }

    /// Encodes the ids, the elements (bottom first) and the next number to give.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ids, forKey: .ids)
        try container.encode(Array(self), forKey: .elements)
        try container.encode(nextID, forKey: .nextID)
    }
}

extension StackState: CustomStringConvertible {
    /// The elements with their ids, bottom first.
    public var description: String {
        "[" + zip(ids, self).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}
