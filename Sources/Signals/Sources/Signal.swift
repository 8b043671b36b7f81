/// The simplest message source: fire a message, and every chain connected to ``fired``
/// receives it.
///
/// ```swift
/// let signal = Signal<Int>(value: 15)
/// let observables = ObservableCollection()
/// signal.fired
///     .then { print($0) }      // prints 15 (the last message), then 20
///     .append(to: observables)
/// signal.fire(with: 20)
/// ```
///
/// `Signal` is `Sendable`: fire from any thread.
public final class Signal<Message: Sendable>: Sendable {
    /// The endpoint modifiers connect to.
    public let fired: Endpoint<Message>

    /// A signal that has sent nothing yet: new chains receive nothing until it fires.
    public init() {
        fired = Endpoint()
    }

    /// A signal whose last message is `value`: new chains receive it at once.
    public init(value: Message) {
        fired = Endpoint(last: value)
    }

    /// Sends `message` to every chain connected to ``fired``.
    @inlinable
    public func fire(with message: Message) {
        fired.fire(message)
    }
}

extension Signal where Message == Void {
    /// Fires an empty message.
    public func fire() {
        fire(with: ())
    }
}
