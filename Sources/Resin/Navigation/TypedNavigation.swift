import Foundation

/// Changes a ``StackState``: push, pop, pop to or from an element, pop to the root, or set the
/// whole path (a deep link).
///
/// ```swift
/// store.dispatch(StackAction.push(Path.detail(Detail(id: 7))))
/// store.dispatch(StackAction<Path>.popToRoot())
/// ```
///
/// The reducer ``Store/stack(_:name:_:)`` registers handles them. A stack registered with a
/// `name` handles only the actions naming it (`in: name`), and an unnamed one only those naming
/// none, so several stacks of one element type (one per row, say) stay apart.
public struct StackAction<Element: Sendable>: RoutedAction {
    /// What to do to the stack.
    public enum Operation: Sendable {
        /// Push an element on top.
        case push(Element)
        /// Pop this many elements from the top (all, if there are fewer).
        case pop(count: Int)
        /// Pop every element above the one with this id.
        case popTo(StackElementID)
        /// Pop the element with this id and every element above it (what its `dismiss` does).
        case popFrom(StackElementID)
        /// Pop every element.
        case popToRoot
        /// Replace every element (``StackState/replace(with:)``).
        case setPath([Element])
        /// Remove the element with this id alone, wherever it is; the others keep their ids
        /// and their order (``StackState/remove(id:)``).
        case remove(StackElementID)
    }

    /// What to do to the stack.
    public var operation: Operation
    /// The name of the stack it is for; `nil` for an unnamed stack.
    public var stack: String?

    /// `operation`, on the stack named `stack`.
    public init(_ operation: Operation, in stack: String? = nil) {
        self.operation = operation
        self.stack = stack
    }

    /// The stack it is for.
    public var route: String? { stack }

    /// Pushes `element` on top of the stack named `stack`.
    public static func push(_ element: Element, in stack: String? = nil) -> StackAction {
        StackAction(.push(element), in: stack)
    }

    /// Pops `count` elements (default one) from the stack named `stack`.
    public static func pop(count: Int = 1, in stack: String? = nil) -> StackAction {
        StackAction(.pop(count: count), in: stack)
    }

    /// Pops every element above `id` in the stack named `stack`.
    public static func popTo(_ id: StackElementID, in stack: String? = nil) -> StackAction {
        StackAction(.popTo(id), in: stack)
    }

    /// Pops `id` and every element above it in the stack named `stack`.
    public static func popFrom(_ id: StackElementID, in stack: String? = nil) -> StackAction {
        StackAction(.popFrom(id), in: stack)
    }

    /// Pops every element of the stack named `stack`.
    public static func popToRoot(in stack: String? = nil) -> StackAction {
        StackAction(.popToRoot, in: stack)
    }

    /// Replaces the elements of the stack named `stack` with `elements`, bottom first.
    public static func setPath(_ elements: [Element], in stack: String? = nil) -> StackAction {
        StackAction(.setPath(elements), in: stack)
    }

    /// Removes the element `id` alone from the stack named `stack`, wherever it is.
    public static func remove(_ id: StackElementID, in stack: String? = nil) -> StackAction {
        StackAction(.remove(id), in: stack)
    }
}

extension StackAction.Operation: Equatable where Element: Equatable {}
extension StackAction: Equatable where Element: Equatable {}
extension StackAction.Operation: Codable where Element: Codable {
    /// The form the cases are encoded in: `Codable`'s own for the enum.
    private enum Coded: Codable {
        case push(Element)
        case pop(count: Int)
        case popTo(StackElementID)
        case popFrom(StackElementID)
        case popToRoot
        case setPath([Element])
        case remove(StackElementID)
    }

    /// Decodes an operation encoded by `encode(to:)`.
    ///
    /// Throws `DecodingError.dataCorrupted` for a `pop` of a negative count, which
    /// ``StackState/apply(_:)`` would refuse.
    public init(from decoder: any Decoder) throws {
        switch try Coded(from: decoder) {
        case .push(let element): self = .push(element)
        case .pop(let count):
            guard count >= 0 else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "A stack's pop count must not be negative, not \(count)"))
            }
            self = .pop(count: count)
        case .popTo(let id): self = .popTo(id)
        case .popFrom(let id): self = .popFrom(id)
        case .popToRoot: self = .popToRoot
        case .setPath(let elements): self = .setPath(elements)
        case .remove(let id): self = .remove(id)
        }
    }

    /// Encodes the case and its values.
    public func encode(to encoder: any Encoder) throws {
        let coded: Coded =
            switch self {
            case .push(let element): .push(element)
            case .pop(let count): .pop(count: count)
            case .popTo(let id): .popTo(id)
            case .popFrom(let id): .popFrom(id)
            case .popToRoot: .popToRoot
            case .setPath(let elements): .setPath(elements)
            case .remove(let id): .remove(id)
            }
        try coded.encode(to: encoder)
    }
}
extension StackAction: Codable where Element: Codable {}

extension StackState {
    /// Applies `operation`.
    ///
    /// - Precondition: A `.pop` count is not negative.
    public mutating func apply(_ operation: StackAction<Element>.Operation) {
        switch operation {
        case .push(let element): append(element)
        case .pop(let count): removeLast(count)
        case .popTo(let id): pop(to: id)
        case .popFrom(let id): pop(from: id)
        case .popToRoot: removeAll()
        case .setPath(let elements): replace(with: elements)
        case .remove(let id): remove(id: id)
        }
    }
}

/// Presents or dismisses an optional child state (a sheet, an alert, a confirmation).
///
/// ```swift
/// store.dispatch(PresentationAction.present(Destination.alert(message)))
/// store.dispatch(PresentationAction<Destination>.dismiss())
/// ```
///
/// The reducer ``Store/presentation(_:name:_:)`` registers handles them; names keep several
/// presentations of one type apart, as ``StackAction``'s do.
public struct PresentationAction<Child: Sendable>: RoutedAction {
    /// What to do.
    public enum Operation: Sendable {
        /// Set the child (replacing any child presented).
        case present(Child)
        /// Set the child to `nil`.
        case dismiss
    }

    /// What to do.
    public var operation: Operation
    /// The name of the presentation it is for; `nil` for an unnamed one.
    public var presentation: String?

    /// `operation`, on the presentation named `presentation`.
    public init(_ operation: Operation, in presentation: String? = nil) {
        self.operation = operation
        self.presentation = presentation
    }

    /// The presentation it is for.
    public var route: String? { presentation }

    /// Presents `child` in the presentation named `presentation`.
    public static func present(_ child: Child, in presentation: String? = nil) -> PresentationAction {
        PresentationAction(.present(child), in: presentation)
    }

    /// Dismisses the child of the presentation named `presentation`.
    public static func dismiss(in presentation: String? = nil) -> PresentationAction {
        PresentationAction(.dismiss, in: presentation)
    }
}

extension PresentationAction.Operation: Equatable where Child: Equatable {}
extension PresentationAction: Equatable where Child: Equatable {}
extension PresentationAction.Operation: Codable where Child: Codable {}
extension PresentationAction: Codable where Child: Codable {}

/// Dismisses the presented child or the stack element whose effect calls it.
///
/// ```swift
/// return .run { send in
///     @Dependency(\.dismiss) var dismiss
///     try await api.save(draft)
///     dismiss()
/// }
/// ```
///
/// Inside an element of a stack followed with ``Store/stack(_:name:_:)`` it sends
/// ``StackAction/popFrom(_:in:)`` for that element; inside a child presented with
/// ``Store/presentation(_:name:_:)``, ``PresentationAction/dismiss(in:)``. It is a real action
/// (middleware, a test store and a history see it), sent as the effect's `send` would send it,
/// so it does nothing once the effect was cancelled. The pop or dismissal then cancels the
/// effect itself with every other effect of the child: code after `dismiss()` runs only until
/// its next suspension point checks for cancellation.
///
/// Called anywhere else (an effect of a focus that is neither presented nor in a stack), it
/// does nothing but write a warning to standard error.
public struct DismissEffect: Sendable {
    let dismiss: @Sendable () -> Void

    /// A dismissal that calls `dismiss`: for tests of a child on its own.
    public init(_ dismiss: @escaping @Sendable () -> Void) {
        self.dismiss = dismiss
    }

    /// Dismisses the child.
    public func callAsFunction() {
        dismiss()
    }
}

/// The key of ``Dependencies/dismiss``.
public enum DismissKey: DependencyKey {
    /// Warns that nothing is presented.
    public static var liveValue: DismissEffect {
        DismissEffect {
            FileHandle.standardError.write(
                Data(
                    "Resin: dismiss() was called by an effect of a focus that is neither presented nor in a stack; nothing happens\n"
                        .utf8))
        }
    }

    /// The same as the live value: every store gives presented children their own.
    public static var testValue: DismissEffect { liveValue }
}

extension Dependencies {
    /// Dismisses the presented child or stack element whose effect reads it (see
    /// ``DismissEffect``).
    public var dismiss: DismissEffect {
        get { self[DismissKey.self] }
        set { self[DismissKey.self] = newValue }
    }
}

extension Store {
    /// A store on the element with `id` of the stack at `path`: `nil` once it is popped.
    ///
    /// Setting the element to `nil` pops it and every element above it; setting a value while
    /// it is absent does nothing. Finding the element costs O(1) however deep the stack is,
    /// and an action on one element refreshes no other element's focus.
    public func focus<Element>(_ path: WritableKeyPath<State, StackState<Element>>, id: StackElementID) -> Store<
        Element?
    > {
        focus(
            key: FocusKey(path: path, id: AnyHashable(id)),
            region: .element(collection: path, collectionBytes: FocusRegion.storedBytes(of: path), id: AnyHashable(id)),
            get: { $0[keyPath: path][id: id] },
            modify: { state, body in body(&state[keyPath: path][id: id]) })
    }

    /// Runs the stack at `path`: registers the reducer for its ``StackAction``s, and calls
    /// `body` with a focused store for each element, now and whenever one is pushed, ending
    /// what `body` returned when the element is popped.
    ///
    /// ```swift
    /// let navigation = store.stack(\.path) { id, screen in
    ///     switch screen.state.value {
    ///     case .detail: screen.focus(\.self, case: detailCase).register(presentOnly: detailReducer)
    ///     case .settings, nil: screen.register(presentOnly: settingsReducer)
    ///     }
    /// }
    /// ```
    ///
    /// Popping an element ends its registrations and cancels every effect they started (its
    /// focus's part is gone); effects started by registrations inside an element read a
    /// ``Dependencies/dismiss`` that pops it. `body` runs for the elements there now, bottom
    /// first, then while the action that pushes one propagates, so the element's reducers see
    /// the next action. A deep link (``StackAction/setPath(_:in:)``, or any action that sets
    /// the path) is one action: every element is followed before the next action.
    ///
    /// With a `name`, the stack handles only the ``StackAction``s naming it and its elements
    /// dismiss with it; without one, only the actions naming no stack. The returned connection
    /// unregisters the reducer and ends every element's registrations; while connected it
    /// keeps the store alive.
    public func stack<Element: Sendable>(
        _ path: WritableKeyPath<State, StackState<Element>>, name: String? = nil,
        _ body: @escaping (StackElementID, Store<Element?>) -> Connection
    ) -> Connection {
        // The reducer works on this store's state and the elements are followed through a
        // focus on the ids alone: a focus on the whole stack would hold a second reference to
        // its elements, so that changing one would copy them all and compare them all.
        let reducer = register(
            Reducer<State, StackAction<Element>>(route: name) { [unowned engine] state, action in
                switch action.operation {
                case .popFrom(let id), .popTo(let id), .remove(let id):
                    guard state[keyPath: path][id: id] != nil else {
                        engine.reportWentNowhere(action, "no element \(id) is in the stack")
                        return
                    }
                default:
                    break
                }
                state[keyPath: path].apply(action.operation)
            })
        let elements = follow(focus(path.appending(path: \StackState<Element>.ids)).state) { id in
            let element = self.focus(path, id: id)
            return element.presented(dismissal: { send in send(StackAction<Element>.popFrom(id, in: name)) }) {
                body(id, element)
            }
        }
        return Connection(isolated: {
            elements.disconnect()
            reducer.disconnect()
        })
    }

    /// Runs the presentation of the optional child at `path` (a sheet, an alert, a
    /// confirmation; for several kinds, an enum): registers the reducer for its
    /// ``PresentationAction``s, and calls `body` with the child's store whenever the child
    /// becomes present, ending what `body` returned when it is dismissed.
    ///
    /// ```swift
    /// let sheet = store.presentation(\.destination) { destination in
    ///     destination.focus(\.self, case: Destination.editor).whilePresent { editor in
    ///         editor.register(presentOnly: editorReducer)
    ///     }
    /// }
    /// ```
    ///
    /// Dismissing the child (``PresentationAction/dismiss(in:)``, a reducer setting it to
    /// `nil`, or ``Dependencies/dismiss`` in an effect started inside it) ends its
    /// registrations and cancels every effect they started.
    ///
    /// A child is the same child while its identity is: its `id` if it is `Identifiable`, its
    /// case (and that case's payload's `id`) if it is an enum, else its type. Presenting a
    /// child of another identity over a presented one, or a child changing its own `id`,
    /// ends the old child as a dismissal would (its registrations, its effects) and calls
    /// `body` for the new one; presenting one of the same identity replaces its state and
    /// keeps its registrations and effects. Names work as ``stack(_:name:_:)``'s do.
    public func presentation<Child: Sendable>(
        _ path: WritableKeyPath<State, Child?>, name: String? = nil,
        _ body: @escaping (Store<Child?>) -> Connection
    ) -> Connection {
        let child = focus(path)
        let reducer = child.register(
            Reducer<Child?, PresentationAction<Child>>(route: name) { [unowned engine] child, action in
                switch action.operation {
                case .present(let presented): child = presented
                case .dismiss:
                    if child == nil { engine.reportWentNowhere(action, "nothing is presented") }
                    child = nil
                }
            })
        let presence = follow(child.state.map { $0.map { [PresentationIdentity(of: $0)] } ?? [] }) { identity in
            let presented = child.presented(dismissal: { send in send(PresentationAction<Child>.dismiss(in: name)) }) {
                body(child)
            }
            return Connection(isolated: {
                presented.disconnect()
                // Still present, with another identity: the old child ends as if dismissed.
                // (Absent, its effects were cancelled with its part; the presentation ending
                // while the child stays leaves them, as it leaves every registration's.)
                if let current = child.currentState, PresentationIdentity(of: current) != identity {
                    child.engine.cancelEffects(inside: child.node)
                }
            })
        }
        return Connection(isolated: {
            presence.disconnect()
            reducer.disconnect()
        })
    }

    /// Makes this focus a presented child or stack element (a feature instance): gives the
    /// effects of registrations on it and inside it a ``Dependencies/dismiss`` that sends what
    /// `dismissal` sends, and an effect scope of its own, then calls `make` for its
    /// registrations; returns the connection that ends them all.
    private func presented(
        dismissal: @escaping @Sendable (Send<any Action>) -> Void, _ make: () -> Connection
    ) -> Connection {
        let node = node
        let override: DependencyOverride = { dependencies, send in
            dependencies.dismiss = DismissEffect { dismissal(send) }
        }
        node.dependencyOverride = override
        engine.nextEffectScope += 1
        node.effectScope = engine.nextEffectScope
        engine.overridingFoci += 1
        // After the scope is set, so that what `make` registers knows it is inside.
        let connection = make()
        return Connection(isolated: {
            connection.disconnect()
            node.dependencyOverride = nil
            node.effectScope = 0
            node.engine?.overridingFoci -= 1
        })
    }
}

/// What makes a presented child the same child (see ``Store/presentation(_:name:_:)``): its
/// `id` if it is `Identifiable`; for an enum, its case and that case's payload's identity;
/// else its type alone.
struct PresentationIdentity: Hashable {
    private let type: ObjectIdentifier
    private let parts: [AnyHashable]

    init(of value: Any) {
        type = ObjectIdentifier(Swift.type(of: value))
        parts = PresentationIdentity.parts(of: value)
    }

    private static func parts(of value: Any) -> [AnyHashable] {
        if let identifiable = value as? any Identifiable { return [id(of: identifiable)] }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return [] }
        // A case with a payload has one child, labelled with the case's name; one without
        // has none, and its description is its name.
        guard let payload = mirror.children.first else { return [AnyHashable(String(describing: value))] }
        return [AnyHashable(payload.label ?? "")] + parts(of: payload.value)
    }

    private static func id<Value: Identifiable>(of value: Value) -> AnyHashable { AnyHashable(value.id) }
}
