import Foundation

/// A button of an alert or a confirmation dialog: its label, its role, and the action it
/// sends when tapped (none: it only dismisses).
///
/// Two buttons are equal when their labels, roles and actions are; the `id` (which a view's
/// `ForEach` uses) is left out, so a test compares what a user sees.
public struct ButtonState<ButtonAction: Sendable>: Sendable, Identifiable {
    /// What a button does beyond its action, as SwiftUI's `ButtonRole` says.
    public enum Role: Hashable, Sendable {
        /// It cancels: it dismisses and sends its action (usually none).
        case cancel
        /// It does something that cannot be undone.
        case destructive
    }

    /// The button's identity in a view's list of buttons.
    public let id: UUID
    /// What the button says.
    public var label: String
    /// The button's role, if any.
    public var role: Role?
    /// What tapping it sends, after the alert is dismissed; `nil` to only dismiss.
    public var action: ButtonAction?

    /// A button labelled `label` that sends `action` (or nothing) when tapped.
    public init(role: Role? = nil, action: ButtonAction? = nil, label: String) {
        id = UUID()
        self.role = role
        self.action = action
        self.label = label
    }
}

extension ButtonState: Equatable where ButtonAction: Equatable {
    /// Whether the labels, roles and actions are equal (the ids are not compared).
    public static func == (lhs: ButtonState, rhs: ButtonState) -> Bool {
        lhs.label == rhs.label && lhs.role == rhs.role && lhs.action == rhs.action
    }
}

/// The state of an alert or a confirmation dialog that ``Store/alert(_:name:)`` runs: buttons
/// that each send an action, and a tap that dismisses it first.
public protocol DialogState: Sendable {
    /// What the buttons send.
    associatedtype ButtonAction: Action & Sendable
    /// The buttons, in order.
    var buttons: [ButtonState<ButtonAction>] { get }
}

/// An alert: a title, a message, and buttons that each send an action and dismiss it.
///
/// ```swift
/// state.alert = AlertState(title: "Delete \(item.name)?", message: "This cannot be undone.") {
///     ButtonState(role: .destructive, action: ListAction.confirmDelete(item.id), label: "Delete")
///     ButtonState(role: .cancel, label: "Cancel")
/// }
/// ```
///
/// Each alert made is a new one (its `id` is new): presenting another over it ends the first
/// as a dismissal does. With no buttons, a view shows one that says OK and only dismisses.
/// Equality compares the title, the message and the buttons, not the ids.
public struct AlertState<ButtonAction: Action & Sendable>: DialogState, Identifiable {
    /// This alert's identity: each alert made has its own.
    public let id: UUID
    /// The alert's title.
    public var title: String
    /// The text under the title, if any.
    public var message: String?
    /// The buttons, in order.
    public var buttons: [ButtonState<ButtonAction>]

    /// An alert with `title`, `message` and the buttons `buttons` lists.
    public init(
        title: String, message: String? = nil,
        @ButtonStateBuilder<ButtonAction> buttons: () -> [ButtonState<ButtonAction>] = { [] }
    ) {
        id = UUID()
        self.title = title
        self.message = message
        self.buttons = buttons()
    }
}

extension AlertState: Equatable where ButtonAction: Equatable {
    /// Whether the titles, messages and buttons are equal (the ids are not compared).
    public static func == (lhs: AlertState, rhs: AlertState) -> Bool {
        lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
    }
}

/// A confirmation dialog (an action sheet): like an ``AlertState``, with a title a view may
/// hide.
public struct ConfirmationDialogState<ButtonAction: Action & Sendable>: DialogState, Identifiable {
    /// Whether a view shows the title, as SwiftUI's `Visibility` says.
    public enum TitleVisibility: Hashable, Sendable {
        /// As the platform decides.
        case automatic
        /// Shown.
        case visible
        /// Hidden.
        case hidden
    }

    /// This dialog's identity: each dialog made has its own.
    public let id: UUID
    /// Whether a view shows the title.
    public var titleVisibility: TitleVisibility
    /// The dialog's title.
    public var title: String
    /// The text under the title, if any.
    public var message: String?
    /// The buttons, in order.
    public var buttons: [ButtonState<ButtonAction>]

    /// A dialog with `title`, `message` and the buttons `buttons` lists.
    public init(
        titleVisibility: TitleVisibility = .automatic, title: String, message: String? = nil,
        @ButtonStateBuilder<ButtonAction> buttons: () -> [ButtonState<ButtonAction>]
    ) {
        id = UUID()
        self.titleVisibility = titleVisibility
        self.title = title
        self.message = message
        self.buttons = buttons()
    }
}

extension ConfirmationDialogState: Equatable where ButtonAction: Equatable {
    /// Whether the visibilities, titles, messages and buttons are equal (the ids are not
    /// compared).
    public static func == (lhs: ConfirmationDialogState, rhs: ConfirmationDialogState) -> Bool {
        lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title && lhs.message == rhs.message
            && lhs.buttons == rhs.buttons
    }
}

/// Lists the buttons of an alert or a confirmation dialog, one per line.
@resultBuilder
public enum ButtonStateBuilder<ButtonAction: Sendable> {
    /// The buttons, in order.
    public static func buildBlock(_ buttons: [ButtonState<ButtonAction>]...) -> [ButtonState<ButtonAction>] {
        buttons.flatMap { $0 }
    }

    /// One button.
    public static func buildExpression(_ button: ButtonState<ButtonAction>) -> [ButtonState<ButtonAction>] {
        [button]
    }

    /// A button shown only when a condition holds.
    public static func buildOptional(_ buttons: [ButtonState<ButtonAction>]?) -> [ButtonState<ButtonAction>] {
        buttons ?? []
    }

    /// The buttons of the branch taken.
    public static func buildEither(first buttons: [ButtonState<ButtonAction>]) -> [ButtonState<ButtonAction>] {
        buttons
    }

    /// The buttons of the branch taken.
    public static func buildEither(second buttons: [ButtonState<ButtonAction>]) -> [ButtonState<ButtonAction>] {
        buttons
    }

    /// Buttons made in a loop.
    public static func buildArray(_ buttons: [[ButtonState<ButtonAction>]]) -> [ButtonState<ButtonAction>] {
        buttons.flatMap { $0 }
    }
}

/// What a view sends for an alert or a confirmation dialog that ``Store/alert(_:name:)`` runs:
/// a button was tapped, or the dialog was dismissed without one (a tap outside it).
///
/// ```swift
/// store.dispatch(DialogAction.tap(ListAction.confirmDelete(id)))
/// ```
public struct DialogAction<ButtonAction: Action & Sendable>: RoutedAction {
    /// What happened.
    public enum Operation: Sendable {
        /// A button was tapped: the dialog is dismissed, then the button's action (if any) is
        /// sent.
        case tap(ButtonAction?)
        /// The dialog went away without a button (a tap outside it, a swipe).
        case dismiss
    }

    /// What happened.
    public var operation: Operation
    /// The name of the dialog it is for; `nil` for an unnamed one.
    public var dialog: String?

    /// `operation`, for the dialog named `dialog`.
    public init(_ operation: Operation, in dialog: String? = nil) {
        self.operation = operation
        self.dialog = dialog
    }

    /// The dialog it is for.
    public var route: String? { dialog }

    /// The button that sends `action` was tapped in the dialog named `dialog`.
    public static func tap(_ action: ButtonAction?, in dialog: String? = nil) -> DialogAction {
        DialogAction(.tap(action), in: dialog)
    }

    /// The dialog named `dialog` was dismissed without a button.
    public static func dismiss(in dialog: String? = nil) -> DialogAction {
        DialogAction(.dismiss, in: dialog)
    }
}

extension DialogAction.Operation: Equatable where ButtonAction: Equatable {}
extension DialogAction: Equatable where ButtonAction: Equatable {}

extension Store {
    /// Runs the alert or confirmation dialog at `path`: registers the reducer for its
    /// ``DialogAction``s, which dismisses it on a tap and then sends the tapped button's
    /// action, as a following action.
    ///
    /// ```swift
    /// let alert = store.alert(\.alert)
    /// // the view, when the Delete button is tapped:
    /// store.dispatch(DialogAction.tap(ListAction.confirmDelete(id)))
    /// ```
    ///
    /// A test store sees the two steps: `send(DialogAction.tap(…)) { $0.alert = nil }`, then
    /// `receive` of the button's action. A tap or a dismissal while no dialog is shown goes
    /// nowhere (a test store fails the test). Dialogs whose buttons send one action type share
    /// its `DialogAction` type: each tap goes to the one shown (name them to keep two shown at
    /// once apart). With a `name`, the reducer handles only the
    /// actions naming it; without one, only those naming none. The returned connection
    /// unregisters it.
    public func alert<Dialog: DialogState>(
        _ path: WritableKeyPath<State, Dialog?>, name: String? = nil
    ) -> Connection {
        register(
            Reducer<State, DialogAction<Dialog.ButtonAction>>(route: name) { [unowned engine] state, action in
                guard state[keyPath: path] != nil else {
                    // Nowhere, unless another dialog's reducer for the same button actions
                    // takes it (see "Actions that go nowhere").
                    engine.absentSkips += 1
                    return .none
                }
                state[keyPath: path] = nil
                guard case .tap(let tapped?) = action.operation else { return .none }
                return .send(tapped)
            })
    }
}
