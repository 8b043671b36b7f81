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

extension Signal {
    /// Ends the signal: every chain connected to ``fired`` receives `.finished` after the
    /// messages fired before it, and a chain connected later receives it at once.
    ///
    /// ```swift
    /// download.fired
    ///     .onCompleted { print("done") }
    ///     .append(to: observables)
    /// download.finish()
    /// ```
    ///
    /// The end is the signal's last word: messages fired after it, and any other end, are
    /// dropped (as a ReactiveSwift signal does after its terminal event). A message that
    /// another thread fires at the same moment reaches a chain before the end or not at all;
    /// on a chain that runs inline (`noDispatch()`), where closures run on the firing threads,
    /// that thread may still be inside a closure of the chain while the end runs.
    public func finish() {
        fired.complete(.finished)
    }

    /// Ends the signal with `error`: every chain connected to ``fired`` receives
    /// `.failed(error)`, as ``finish()`` sends `.finished`.
    public func fail(_ error: any Error) {
        fired.complete(.failed(error))
    }

    /// Ends the signal as stopped from outside before it could finish (ReactiveSwift's
    /// `sendInterrupted()`): every chain connected to ``fired`` receives `.interrupted`, as
    /// ``finish()`` sends `.finished`.
    public func interrupt() {
        fired.complete(.interrupted)
    }

    /// Fires the value of `event`, or ends the signal with its completion: one call for code
    /// that forwards another stream's events (and for marble tests).
    ///
    /// ```swift
    /// let feeding = other.subscribe(events: { signal.send(event: $0) })
    /// ```
    public func send(event: StreamEvent<Message, any Error>) {
        switch event {
        case .value(let message): fire(with: message)
        case .completion(let completion): fired.complete(completion)
        }
    }

    /// How the signal ended, or `nil` while it has not.
    public var completion: Completion<any Error>? {
        fired.completion
    }
}

extension Signal where Message == Void {
    /// Fires an empty message.
    public func fire() {
        fire(with: ())
    }
}
