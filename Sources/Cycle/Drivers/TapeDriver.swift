import ReactiveCore

/// A driver whose events are recorded on a tape, or played from one: how a Cycle program's
/// inputs (its drivers' events) are recorded and replayed.
///
/// ```swift
/// let recorder = TapeRecorder(scheduler: scheduler)
/// let screen = TapeDriver(recording: TerminalDriver(), on: recorder, channel: "screen")
/// // later, in a program built afresh on a new recorder and a fresh TestScheduler:
/// let replayed = TapeDriver<TerminalDriver>(replayingOn: replayRecorder, channel: "screen")
/// let playing = replayRecorder.replay(tape)
/// ```
///
/// Recording, it renders the models with the driver it wraps and records each event that
/// driver reports, at the recorder's time, before the loop receives it. Replaying, it runs no
/// driver (nothing is drawn, fetched or stored) and reports the tape's events at their times,
/// as the recorder plays them: the loop receives the events it received when recorded, when
/// it received them, and computes the same models.
public final class TapeDriver<Inner: Driver>: Driver {
    /// The models it renders: the wrapped driver's.
    public typealias Model = Inner.Model
    /// The events it reports: the wrapped driver's.
    public typealias Event = Inner.Event

    private let inner: Inner?
    private var channel: TapeChannel<Inner.Event>!
    private var sink: ((Inner.Event) -> Void)?

    private init(inner: Inner?) {
        self.inner = inner
    }

    /// Records the events `inner` reports on `recorder`'s channel named `channel`.
    public convenience init(recording inner: Inner, on recorder: TapeRecorder, channel: String) {
        self.init(inner: inner)
        self.channel = recorder.channel(channel) { [weak self] (event: Inner.Event) in self?.sink?(event) }
    }

    /// Records the events `inner` reports on `recorder`'s channel named `channel`; the events
    /// can be saved.
    public convenience init(recording inner: Inner, on recorder: TapeRecorder, channel: String)
    where Inner.Event: Codable {
        self.init(inner: inner)
        self.channel = recorder.channel(channel) { [weak self] (event: Inner.Event) in self?.sink?(event) }
    }

    /// Reports what `recorder` replays on the channel named `channel`, running no driver.
    public convenience init(replayingOn recorder: TapeRecorder, channel: String) {
        self.init(inner: nil)
        self.channel = recorder.channel(channel) { [weak self] (event: Inner.Event) in self?.sink?(event) }
    }

    /// Reports what `recorder` replays on the channel named `channel`, running no driver; the
    /// channel's events can be decoded.
    public convenience init(replayingOn recorder: TapeRecorder, channel: String) where Inner.Event: Codable {
        self.init(inner: nil)
        self.channel = recorder.channel(channel) { [weak self] (event: Inner.Event) in self?.sink?(event) }
    }

    /// Renders with the wrapped driver and records its events, or, replaying, reports the
    /// tape's events.
    public func rendered(_ models: EventStream<Inner.Model>) -> EventStream<Inner.Event> {
        EventStream { [self] sink in
            self.sink = sink
            let channel = channel!
            let connection =
                inner?.rendered(models).subscribe { event in channel.send(event) } ?? models.subscribe { _ in }
            return Connection(isolated: { [self] in
                connection.disconnect()
                self.sink = nil
            })
        }
    }
}
