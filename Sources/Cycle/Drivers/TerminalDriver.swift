import Foundation

/// A screenful of text for a ``TerminalDriver``.
public struct TerminalFrame: Equatable, Sendable {
    /// The lines, top first.
    public var lines: [String]

    /// A frame of `lines`.
    public init(_ lines: [String] = []) {
        self.lines = lines
    }
}

/// What a ``TerminalDriver`` reports.
public enum TerminalEvent: Equatable, Sendable {
    /// A line (or key) the user typed.
    case key(String)
    /// The input ended.
    case endOfInput
}

/// Where a terminal driver's keys come from.
public protocol TerminalInput: Sendable {
    /// Starts reading; `deliver` is called for each key, from any thread.
    func start(_ deliver: @escaping @Sendable (TerminalEvent) -> Void)
}

/// Keys typed on standard input, one per line, read on a background thread.
public struct StandardInput: TerminalInput {
    /// Reads standard input.
    public init() {}

    /// Starts a thread that reads lines until the input ends.
    public func start(_ deliver: @escaping @Sendable (TerminalEvent) -> Void) {
        Thread.detachNewThread {
            while let line = readLine() { deliver(.key(line)) }
            deliver(.endOfInput)
        }
    }
}

/// Keys given up front, for scripts and tests.
public struct ScriptedInput: TerminalInput {
    /// The keys, in order.
    public let keys: [String]

    /// Input that types `keys`, then ends.
    public init(_ keys: [String]) {
        self.keys = keys
    }

    /// Delivers every key, then the end of input.
    public func start(_ deliver: @escaping @Sendable (TerminalEvent) -> Void) {
        for key in keys { deliver(.key(key)) }
        deliver(.endOfInput)
    }
}

/// Renders text frames and reads key presses.
///
/// Each new frame is written in full (after a clear-screen sequence when `clearsScreen` is
/// set); an equal frame is not written again. Keys arrive on whatever thread the input uses
/// and enter the loop through an ``Inbox`` on `scheduler`, in order.
public struct TerminalDriver: Driver {
    private let input: any TerminalInput
    private let output: (String) -> Void
    private let scheduler: any Scheduler
    private let clearsScreen: Bool

    /// A terminal driver reading `input` and writing frames with `output`.
    public init(
        input: some TerminalInput = StandardInput(), output: @escaping (String) -> Void = { print($0, terminator: "") },
        scheduler: some Scheduler = DispatchScheduler(queue: .main), clearsScreen: Bool = false
    ) {
        self.input = input
        self.output = output
        self.scheduler = scheduler
        self.clearsScreen = clearsScreen
    }

    /// Writes each new frame; reports keys.
    public func rendered(_ models: EventStream<TerminalFrame>) -> EventStream<TerminalEvent> {
        let (input, output, scheduler, clearsScreen) = (input, output, scheduler, clearsScreen)
        return EventStream { sink in
            let inbox = Inbox(scheduler: scheduler, handler: sink)
            input.start { inbox.post($0) }
            let last = LastWritten<TerminalFrame>()
            let connection = models.subscribe { frame in
                guard frame != last.value else { return }
                last.value = frame
                output((clearsScreen ? "\u{1B}[2J\u{1B}[H" : "") + frame.lines.joined(separator: "\n") + "\n")
            }
            return Connection(isolated: {
                connection.disconnect()
                inbox.close()
            })
        }
    }
}
