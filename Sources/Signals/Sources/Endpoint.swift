/// A source's observable end, which modifiers connect to: `signal.fired`,
/// `property.didSet`, `timer.fired`.
///
/// An endpoint sends from whatever thread fires it; modifiers connected to it run on the
/// main queue unless the chain says otherwise.
public final class Endpoint<Message: Sendable>: MessageSource<Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: no stored state of its own.
    init(last: Message? = nil) {
        super.init(relay: Relay(last: last, emittingExecutor: nil), downstreamExecutor: .main)
    }

    /// Sends `message` from the calling thread.
    @inlinable
    func fire(_ message: Message) {
        relay.send(message)
    }

    /// Ends the stream with `completion`.
    func complete(_ completion: Completion<any Error>) {
        relay.complete(completion)
    }

    /// Sends `message`, numbered `sequence` by a source whose writes race (``Property``).
    func fire(_ message: Message, sequence: UInt64) {
        relay.send(message, sequence: sequence)
    }
}
