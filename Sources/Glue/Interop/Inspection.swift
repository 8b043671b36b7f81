import ReactiveCore

// Glue's inspector: an operator tree, found by reflection from its root.

extension ObservableType {
    /// The operator tree behind this observable: see ``GlueInspector``.
    public func inspect() -> Inspection { GlueInspector.inspect(self) }
}

extension SourceType {
    /// The operator tree behind this source: see ``GlueInspector``.
    public func inspect() -> Inspection { GlueInspector.inspect(self) }
}

extension Variable: Inspectable {}
extension ArrayVariable: Inspectable {}
extension SetVariable: Inspectable {}
extension DictionaryVariable: Inspectable {}
extension Signal: Inspectable {}
extension Source: Inspectable {}

/// How Glue's observables and sources are inspected.
///
/// Glue's operators are values that hold what they read, so the inspector follows the stored
/// properties from the root down (with Swift's reflection), and makes a node for each
/// observable, source and signal it meets: its type (without generic arguments) as the kind,
/// an observable's current value, a signal's number of subscribers. An edge goes from what an
/// operator reads to the operator. Objects met twice (a variable read by two operators) are one
/// node; collections of more than 64 elements are not searched.
///
/// Statistics: `operators` (the nodes), `subscriptionsAlive` (the subscribers of every signal
/// found) and `deliveries` (the values those signals delivered).
public enum GlueInspector {
    /// The operator trees from `roots` (observables and sources), as one inspection: what
    /// they share is shown once.
    public static func inspect(_ roots: [Any]) -> Inspection {
        inspect(roots as Any)
    }

    /// The operator tree from `root`.
    static func inspect(_ root: Any) -> Inspection {
        var builder = InspectionBuilder(paradigm: "Glue")
        var visiting: Set<ObjectIdentifier> = []
        _ = visit(root, into: &builder, visiting: &visiting)
        builder.statistics["subscriptionsAlive", default: 0] += 0
        builder.statistics["deliveries", default: 0] += 0
        return builder.build()
    }

    /// Visits `value`; returns the node ids it stands for (its own, or, for a value that is no
    /// node, those of the nodes inside it).
    private static func visit(
        _ value: Any, into builder: inout InspectionBuilder, visiting: inout Set<ObjectIdentifier>
    ) -> [Int] {
        let mirror = Mirror(reflecting: value)
        // An optional: what it holds (a cast to a protocol would look through it).
        if mirror.displayStyle == .optional {
            return mirror.children.flatMap { visit($0.value, into: &builder, visiting: &visiting) }
        }
        // A type-erased observable stands for what it wraps.
        if let erased = value as? any TypeErasedObservable, let base = erased.erasedBase {
            return visit(base, into: &builder, visiting: &visiting)
        }
        guard isNode(value) else {
            // A container (an optional, an array, a helper of Glue's): look inside.
            if mirror.displayStyle == .collection || mirror.displayStyle == .set
                || mirror.displayStyle == .dictionary, mirror.children.count > 64
            {
                return []
            }
            let isGlue = String(reflecting: type(of: value)).hasPrefix("Glue.")
            guard isGlue || [.optional, .collection, .set, .tuple].contains(mirror.displayStyle) else { return [] }
            if let object = value as AnyObject?, mirror.displayStyle == .class {
                guard visiting.insert(ObjectIdentifier(object)).inserted else { return [] }
            }
            return mirror.children.flatMap { visit($0.value, into: &builder, visiting: &visiting) }
        }
        let kind = InspectionBuilder.kind(of: value)
        var details: [String: String] = [:]
        var shown: String?
        if let observable = value as? any ObservableType { shown = String(describing: observable.value) }
        if let signal = value as? any SignalInspection {
            details["subscribers"] = "\(signal.subscriberCount)"
        }
        let id: Int
        if mirror.displayStyle == .class {
            let object = value as AnyObject
            let (found, isNew) = builder.node(for: object, kind: kind, value: shown, details: details)
            guard isNew else { return [found] }
            id = found
            if let signal = value as? any SignalInspection {
                builder.count("subscriptionsAlive", signal.subscriberCount)
                builder.count("deliveries", signal.deliveredCount)
            }
        } else {
            id = builder.add(kind: kind, value: shown, details: details)
        }
        builder.count("operators")
        // A signal's stored properties are its owner and its sinks: nothing upstream.
        let children = value is any SignalInspection ? [] : mirror.children.map(\.value)
        for child in children {
            // A signal an object holds is where it sends: downstream of it.
            let isSignal = child is any SignalInspection
            for other in visit(child, into: &builder, visiting: &visiting) {
                if isSignal { builder.edge(from: id, to: other) } else { builder.edge(from: other, to: id) }
            }
        }
        return [id]
    }

    /// Whether `value` gets a node: an observable, a source or a signal.
    private static func isNode(_ value: Any) -> Bool {
        value is any ObservableType || value is any SourceType || value is any SignalInspection
    }
}

/// A type-erased observable, which keeps what it wraps for the inspector.
protocol TypeErasedObservable {
    var erasedBase: Any? { get }
}

extension AnyObservableValue: TypeErasedObservable {}
extension AnyUpdatableValue: TypeErasedObservable {}

/// A signal's counters, for the inspector.
protocol SignalInspection {
    var subscriberCount: Int { get }
    var deliveredCount: Int { get }
}

extension Signal: SignalInspection {
    var deliveredCount: Int { broadcaster.deliveredCount }
}
