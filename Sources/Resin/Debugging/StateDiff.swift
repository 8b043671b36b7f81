/// The differences between two states, as the paths that changed: what the logging
/// middleware prints after each action and what `TestStore` shows when a state is not the
/// expected one.
///
/// ```swift
/// let diff = StateDiff(from: before, to: after)
/// print(diff)
/// //   count: 1 → 2
/// //   todos[2]: added Todo(title: "milk", done: false)
/// ```
///
/// The states are walked with `Mirror`: structs, tuples and classes by stored property,
/// arrays by index, dictionaries by key, optionals and enum payloads by their case. A part
/// that is `Equatable` and equal is skipped without walking it; parts that cannot be walked
/// further are compared by their descriptions. Only the changed leaves are listed, each
/// with its path from the root (`user.address.city`), so a change deep in a large state is
/// one line. Walking stops at a depth of 32, where the rest is compared as a whole.
public struct StateDiff: CustomStringConvertible, Sendable {
    /// One changed part of the state.
    public struct Change: Equatable, Sendable, CustomStringConvertible {
        /// The path from the root, as in source: `items[2].title`; empty for the root.
        public var path: String
        /// The part before, described; `nil` if it was added.
        public var old: String?
        /// The part after, described; `nil` if it was removed.
        public var new: String?

        /// The change as one line: `path: old → new`, `path: added new`, `path: removed old`.
        public var description: String {
            let name = path.isEmpty ? "(state)" : path
            switch (old, new) {
            case (let old?, let new?): return "\(name): \(old) → \(new)"
            case (nil, let new?): return "\(name): added \(new)"
            case (let old?, nil): return "\(name): removed \(old)"
            case (nil, nil): return name
            }
        }
    }

    /// The changed parts, in the order of the state's properties.
    public let changes: [Change]

    /// The differences between `old` and `new`.
    public init<State>(from old: State, to new: State) {
        var changes: [Change] = []
        Self.compare(old, new, path: "", depth: 0, into: &changes)
        self.changes = changes
    }

    /// Whether the two states were the same.
    public var isEmpty: Bool { changes.isEmpty }

    /// One indented line per change.
    public var description: String {
        changes.map { "  \($0)" }.joined(separator: "\n")
    }

    private static let maximumDepth = 32

    private static func compare(_ old: Any, _ new: Any, path: String, depth: Int, into changes: inout [Change]) {
        if let same = equal(old, new), same { return }
        let oldMirror = Mirror(reflecting: old)
        let newMirror = Mirror(reflecting: new)
        guard depth < maximumDepth, type(of: old) == type(of: new),
            oldMirror.displayStyle == newMirror.displayStyle
        else { return leaf(old, new, path: path, into: &changes) }
        switch oldMirror.displayStyle {
        case .struct, .class, .tuple:
            let oldChildren = Array(oldMirror.children)
            let newChildren = Array(newMirror.children)
            guard !oldChildren.isEmpty, oldChildren.count == newChildren.count,
                zip(oldChildren, newChildren).allSatisfy({ $0.label == $1.label })
            else { return leaf(old, new, path: path, into: &changes) }
            let before = changes.count
            for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
                let name = oldChild.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "\(index)"
                compare(
                    oldChild.value, newChild.value, path: path.isEmpty ? name : "\(path).\(name)", depth: depth + 1,
                    into: &changes)
            }
            // Equal by every property but not `==` (a custom equality): say so as a whole.
            if changes.count == before { leaf(old, new, path: path, into: &changes) }
        case .collection:
            let oldElements = oldMirror.children.map(\.value)
            let newElements = newMirror.children.map(\.value)
            for index in 0..<max(oldElements.count, newElements.count) {
                let elementPath = "\(path)[\(index)]"
                switch (index < oldElements.count, index < newElements.count) {
                case (true, true):
                    compare(oldElements[index], newElements[index], path: elementPath, depth: depth + 1, into: &changes)
                case (false, _):
                    changes.append(Change(path: elementPath, old: nil, new: describe(newElements[index])))
                case (_, false):
                    changes.append(Change(path: elementPath, old: describe(oldElements[index]), new: nil))
                }
            }
        case .dictionary:
            let oldPairs = keyedPairs(oldMirror)
            let newPairs = keyedPairs(newMirror)
            for key in (Set(oldPairs.keys).union(newPairs.keys)).sorted() {
                let elementPath = "\(path)[\(key)]"
                switch (oldPairs[key], newPairs[key]) {
                case (let oldValue?, let newValue?):
                    compare(oldValue, newValue, path: elementPath, depth: depth + 1, into: &changes)
                case (nil, let newValue?):
                    changes.append(Change(path: elementPath, old: nil, new: describe(newValue)))
                case (let oldValue?, nil):
                    changes.append(Change(path: elementPath, old: describe(oldValue), new: nil))
                case (nil, nil): break
                }
            }
        case .optional, .enum:
            // The same case with a payload: compare the payloads; otherwise the whole value.
            guard let oldChild = oldMirror.children.first, let newChild = newMirror.children.first,
                oldMirror.children.count == 1, newMirror.children.count == 1, oldChild.label == newChild.label
            else { return leaf(old, new, path: path, into: &changes) }
            let casePath = oldMirror.displayStyle == .optional ? path : "\(path)(\(oldChild.label ?? ""))"
            compare(oldChild.value, newChild.value, path: casePath, depth: depth + 1, into: &changes)
        default:
            leaf(old, new, path: path, into: &changes)
        }
    }

    /// A part compared as a whole: listed if its descriptions differ (or, when they do not,
    /// if it is `Equatable` and not equal).
    private static func leaf(_ old: Any, _ new: Any, path: String, into changes: inout [Change]) {
        let (oldText, newText) = (describe(old), describe(new))
        if oldText != newText || equal(old, new) == false {
            changes.append(Change(path: path, old: oldText, new: newText))
        }
    }

    /// `==` when both are the same `Equatable` type; `nil` when that cannot be decided.
    private static func equal(_ old: Any, _ new: Any) -> Bool? {
        guard let old = old as? any Equatable else { return nil }
        func open<Value: Equatable>(_ old: Value) -> Bool? {
            guard let new = new as? Value else { return nil }
            return old == new
        }
        return open(old)
    }

    private static func describe(_ value: Any) -> String {
        String(reflecting: value)
    }

    /// A dictionary's entries by the description of their keys.
    private static func keyedPairs(_ mirror: Mirror) -> [String: Any] {
        var pairs: [String: Any] = [:]
        for child in mirror.children {
            let pair = Mirror(reflecting: child.value).children.map(\.value)
            guard pair.count == 2 else { continue }
            pairs[String(reflecting: pair[0])] = pair[1]
        }
        return pairs
    }
}
