/// A recording of a program's inputs, each with the virtual time it arrived: what
/// ``TapeRecorder`` makes, what `Codable` saves, and what ``TapeRecorder/replay(_:)`` plays
/// into a freshly built program to reproduce its outputs.
///
/// ```swift
/// let recorder = TapeRecorder(scheduler: scheduler)
/// let celsius = recorder.channel("celsius") { (value: Int) in input.write(value) }
/// celsius.send(21)                 // written, and recorded at the scheduler's time
/// let tape = recorder.tape         // save it with JSONEncoder
/// ```
///
/// An input is anything a program receives from outside: an Incremental input's write, a
/// Resin action, a Cycle driver's event, a Glue or Signals send, a SignalGraph mutation.
/// Each goes through a named ``TapeChannel``; a tape holds the channel's name and the value.
public struct Tape: Sendable {
    /// One input.
    public struct Entry: Sendable {
        /// When it arrived, from the start of the recording, on the recorder's scheduler.
        public let time: Duration
        /// The channel it came through.
        public let channel: String
        let box: ValueBox

        /// The value, whatever its type.
        public var anyValue: Any { box.value }

        /// The value, if it is a `Value`.
        public func value<Value>(as type: Value.Type = Value.self) -> Value? {
            box.value as? Value
        }

        init(time: Duration, channel: String, value: Any) {
            self.time = time
            self.channel = channel
            box = ValueBox(value)
        }
    }

    /// The inputs, in the order they arrived.
    public internal(set) var entries: [Entry]

    /// A tape of `entries`.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The key of a decoder's `userInfo` under which ``init(from:)`` finds each channel's
    /// value type: ``TapeRecorder/valueTypes`` of the program the tape is for.
    public static let valueTypesKey = CodingUserInfoKey(rawValue: "swift-paradigms.tape.valueTypes")!
}

/// Each channel's value type, by name: what decoding a tape needs (see
/// ``Tape/valueTypesKey``). Unchecked `Sendable`: it holds metatypes, which never change.
public struct TapeValueTypes: @unchecked Sendable {
    let types: [String: any Decodable.Type]

    /// The names of the channels.
    public var channels: [String] { types.keys.sorted() }
}

/// A recorded value. Unchecked: a value is recorded and replayed in the program's isolation
/// domain (a Signals program's values are `Sendable`), and a tape only hands it back there.
struct ValueBox: @unchecked Sendable {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}

/// An error saving or loading a tape.
public enum TapeError: Error, CustomStringConvertible {
    /// The channel's values are not `Codable`: a tape with them lives in memory only.
    case notCodable(channel: String)
    /// The decoder's `userInfo` has no value type for the channel (see ``Tape/valueTypesKey``).
    case unknownChannel(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .notCodable(let channel):
            "Tape: the values of channel \"\(channel)\" are not Codable; make its type Codable to save the tape"
        case .unknownChannel(let channel):
            "Tape: no value type for channel \"\(channel)\"; decode with the recorder's valueTypes in userInfo"
        }
    }
}

extension Tape: Codable {
    private enum Keys: String, CodingKey {
        case entries, time, channel, value
    }

    /// Encodes every entry: its time in nanoseconds, its channel and its value.
    ///
    /// - Throws: ``TapeError/notCodable(channel:)`` for a value that is not `Encodable`, and
    ///   `EncodingError.invalidValue` for a time past what 64 bits of nanoseconds hold (292
    ///   years).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var list = container.nestedUnkeyedContainer(forKey: .entries)
        for entry in entries {
            var item = list.nestedContainer(keyedBy: Keys.self)
            let (seconds, attoseconds) = entry.time.components
            let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (nanoseconds, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
            guard !overflow, !overflowAgain else {
                throw EncodingError.invalidValue(
                    entry.time,
                    .init(
                        codingPath: item.codingPath + [Keys.time],
                        debugDescription:
                            "Tape: an entry's time, \(entry.time), is more nanoseconds than an Int64 holds"))
            }
            try item.encode(nanoseconds, forKey: .time)
            try item.encode(entry.channel, forKey: .channel)
            guard let value = entry.box.value as? any Encodable else {
                throw TapeError.notCodable(channel: entry.channel)
            }
            try item.encode(value, forKey: .value)
        }
    }

    /// Decodes a tape, each value as the type `userInfo[Tape.valueTypesKey]` gives for its
    /// channel.
    ///
    /// - Throws: ``TapeError/unknownChannel(_:)`` for a channel with no type there, and
    ///   `DecodingError.dataCorrupted` naming `time` for a negative time.
    public init(from decoder: any Decoder) throws {
        let types = (decoder.userInfo[Self.valueTypesKey] as? TapeValueTypes)?.types ?? [:]
        let container = try decoder.container(keyedBy: Keys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .entries)
        var entries: [Entry] = []
        while !list.isAtEnd {
            let item = try list.nestedContainer(keyedBy: Keys.self)
            let nanoseconds = try item.decode(Int64.self, forKey: .time)
            guard nanoseconds >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time, in: item,
                    debugDescription:
                        "Tape: an entry's time is an offset from the recording's start, never negative: \(nanoseconds)")
            }
            let channel = try item.decode(String.self, forKey: .channel)
            guard let type = types[channel] else { throw TapeError.unknownChannel(channel) }
            let value = try item.decode(type, forKey: .value)
            entries.append(Entry(time: .nanoseconds(nanoseconds), channel: channel, value: value))
        }
        self.init(entries: entries)
    }
}

/// Records a program's inputs on a ``Tape``, and plays a tape back into a program built
/// afresh.
///
/// A program takes its inputs through channels made here: each ``TapeChannel`` applies what
/// is sent through it and records it, at the time the recorder's scheduler shows, as an
/// offset from the recorder's start. To replay, build the program again on a new recorder
/// (same channel names, a fresh `TestScheduler`), call ``replay(_:)``, and advance the
/// scheduler: each input is applied at its recorded time, through its channel, so the program
/// sees what it saw, when it saw it, and records it again (the new tape equals the old).
///
/// The recorder is thread-safe: a Signals program may send on any thread. Each channel's
/// `apply` runs where `send` is called, or, in a replay, where the scheduler runs its work.
public final class TapeRecorder: Sendable {
    private struct State {
        var entries: [Tape.Entry] = []
        var channels: [String: ChannelEntry] = [:]
        /// In the order added: copying the array to run them takes no allocation.
        var followers: [(id: Int, follower: Follower)] = []
        var nextFollower = 0
    }

    /// What runs after each input is applied (see ``afterEachInput(_:)``).
    struct Follower: @unchecked Sendable {
        // Unchecked: it runs where the input was applied, as `apply` does.
        let body: (Tape.Entry) -> Void
    }

    /// A channel's apply, for replays, and its value type, for decoding.
    private struct ChannelEntry: @unchecked Sendable {
        // Unchecked: `apply` runs in the program's domain, as `send` does (see the class's
        // documentation); the recorder only stores it.
        let apply: (Any) -> Void
        let decodable: (any Decodable.Type)?
        /// The channel's value type, and whether a value is one.
        let valueType: Any.Type
        let accepts: (Any) -> Bool
    }

    private let state = LockedState(State())
    private let scheduler: any Scheduler
    private let start: SchedulerInstant

    /// A recorder that stamps each input with `scheduler`'s time since now.
    public init(scheduler: some Scheduler) {
        self.scheduler = scheduler
        start = scheduler.now
    }

    /// What has been recorded so far.
    public var tape: Tape {
        Tape(entries: state.withLock { $0.entries })
    }

    /// Each channel's value type, for decoding a tape of this program: put it in a decoder's
    /// `userInfo` under ``Tape/valueTypesKey``. Channels whose values are not `Decodable` are
    /// left out.
    public var valueTypes: TapeValueTypes {
        TapeValueTypes(types: state.withLock { $0.channels.compactMapValues(\.decodable) })
    }

    /// A channel named `name` whose values `apply` applies to the program.
    ///
    /// The recorder keeps `apply` (a replay runs it), and a channel keeps its recorder: an
    /// `apply` that captures a channel of the same recorder keeps all three alive. Reach
    /// another channel through the program, held weakly, instead.
    ///
    /// - Precondition: No other channel of this recorder has the name.
    public func channel<Value>(_ name: String, apply: @escaping (Value) -> Void) -> TapeChannel<Value> {
        register(name, apply: apply, decodable: nil)
    }

    /// A channel named `name` whose values `apply` applies to the program; its values can be
    /// saved.
    ///
    /// - Precondition: No other channel of this recorder has the name.
    public func channel<Value: Codable>(_ name: String, apply: @escaping (Value) -> Void) -> TapeChannel<Value> {
        register(name, apply: apply, decodable: Value.self)
    }

    private func register<Value>(
        _ name: String, apply: @escaping (Value) -> Void, decodable: (any Decodable.Type)?
    ) -> TapeChannel<Value> {
        let entry = ChannelEntry(
            apply: { apply($0 as! Value) }, decodable: decodable, valueType: Value.self, accepts: { $0 is Value })
        let isNew = state.withLock { state in
            guard state.channels[name] == nil else { return false }
            state.channels[name] = entry
            return true
        }
        precondition(isNew, "TapeRecorder: a second channel named \(name); give each channel its own name")
        return TapeChannel(name: name, recorder: self, apply: apply)
    }

    /// Records `value` as arriving on `channel` now; returns its entry and the followers to
    /// run once it is applied, taken in the same critical section.
    func record(_ value: Any, on channel: String) -> (entry: Tape.Entry, followers: [(id: Int, follower: Follower)]) {
        let entry = Tape.Entry(time: start.duration(to: scheduler.now), channel: channel, value: value)
        let followers = state.withLock { state in
            state.entries.append(entry)
            return state.followers
        }
        return (entry, followers)
    }

    /// Runs each of `followers` with `entry`, which was just applied.
    func applied(_ recorded: (entry: Tape.Entry, followers: [(id: Int, follower: Follower)])) {
        for (_, follower) in recorded.followers { follower.body(recorded.entry) }
    }

    /// Runs `body` after each input a channel of this recorder applies, live or in a replay,
    /// with the input's entry, until the connection is disconnected. It runs where the input
    /// was applied, after the channel's `apply` returned; several run in the order they were
    /// added. What `TraceRecorder` takes its steps by.
    public func afterEachInput(_ body: @escaping (Tape.Entry) -> Void) -> Connection {
        let follower = Follower(body: body)
        let id = state.withLock { state in
            defer { state.nextFollower += 1 }
            state.followers.append((state.nextFollower, follower))
            return state.nextFollower
        }
        return Connection { [weak self] in
            self?.state.withLock { $0.followers.removeAll { $0.id == id } }
        }
    }

    /// Plays `tape` into this recorder's channels: each entry is applied (and recorded again)
    /// through its channel when the scheduler reaches its time from the recorder's start, in
    /// the tape's order. Advance the scheduler to run them; the connection cancels what has
    /// not run.
    ///
    /// - Precondition: Every channel of the tape has a channel of this name here, whose
    ///   values are of the type the tape's are (a tape of a program whose channel changed
    ///   type is refused before anything runs).
    public func replay(_ tape: Tape) -> Connection {
        let channels = state.withLock { $0.channels }
        for entry in tape.entries {
            guard let channel = channels[entry.channel] else {
                preconditionFailure(
                    "TapeRecorder.replay: the tape has channel \(entry.channel), which this program does not")
            }
            precondition(
                channel.accepts(entry.box.value),
                "TapeRecorder.replay: channel \(entry.channel) takes \(channel.valueType), but the tape holds a \(type(of: entry.box.value)) for it"
            )
        }
        let connections = tape.entries.map { entry in
            let apply = channels[entry.channel]!.apply
            let box = entry.box
            return scheduler.schedule(
                at: start + entry.time,
                isolated: { [self] in
                    let recorded = record(box.value, on: entry.channel)
                    apply(box.value)
                    applied(recorded)
                })
        }
        return Connection(grouping: connections)
    }
}

/// One named input of a program: ``send(_:)`` applies a value and records it on the
/// recorder's tape. Made by a recorder's `channel(_:apply:)`.
public struct TapeChannel<Value> {
    /// The channel's name on the tape.
    public let name: String
    let recorder: TapeRecorder
    let apply: (Value) -> Void

    /// Records `value` at the scheduler's time, then applies it.
    public func send(_ value: Value) {
        let recorded = recorder.record(value, on: name)
        apply(value)
        recorder.applied(recorded)
    }
}
