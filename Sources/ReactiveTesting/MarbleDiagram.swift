/// A stream's events over time, written as text: `"-a-b--c|"`.
///
/// Each character is one tick of virtual time (a ``MarbleTest``'s `tick`, one second by
/// default), counted from 0:
///
/// | text | meaning |
/// | --- | --- |
/// | `-` | a tick with nothing |
/// | `a` (any other character) | a value, named by the character |
/// | `[name]` | a value with a longer name, on one tick |
/// | `(ab)` | several events on one tick, in order; the group takes one tick |
/// | `\|` | the stream finishes |
/// | `#` | the stream fails |
/// | `~` | the stream is interrupted |
/// | `^` | time zero, in an input: what comes before it happens before anything subscribes |
/// | `!` | in a subscription diagram: the subscription disconnects |
/// | space | nothing: spaces only line diagrams up |
///
/// ```swift
/// let diagram = try MarbleDiagram(parsing: "-a-(bc)-|")
/// // diagram.events: a at 1, b and c at 3, finished at 5
/// ```
///
/// A value's name is looked up in the `values` a test passes; for streams of `String`, a
/// name without an entry is its own value.
public struct MarbleDiagram: Hashable, Sendable, CustomStringConvertible {
    /// One event of a diagram.
    public enum Symbol: Hashable, Sendable {
        /// A value, by name.
        case value(String)
        /// The stream finishes.
        case finished
        /// The stream fails.
        case failed
        /// The stream is interrupted.
        case interrupted
        /// A subscription disconnects (subscription diagrams only).
        case disconnect
    }

    /// An event and its tick.
    public struct Event: Hashable, Sendable {
        /// The tick, counted from the diagram's time zero (negative before a `^`).
        public var tick: Int
        /// What happens.
        public var symbol: Symbol

        /// An event at `tick`.
        public init(tick: Int, symbol: Symbol) {
            self.tick = tick
            self.symbol = symbol
        }
    }

    /// The events, in order of tick, and in their order within a tick.
    public let events: [Event]
    /// The text the diagram was parsed from, or rendered as.
    public let text: String

    /// Parses `text`.
    ///
    /// - Throws: ``MarbleSyntaxError`` for a group or a name that is not closed, a nested
    ///   group, a second `^`, or an event after the stream's end.
    public init(parsing text: String) throws(MarbleSyntaxError) {
        self.text = text
        var events: [Event] = []
        var origin: Int?
        var tick = 0
        var group: [Symbol]?
        var groupStart = 0
        var ended = false
        var characters = Array(text).makeIterator()
        var position = 0

        func fail(_ reason: String) -> MarbleSyntaxError {
            MarbleSyntaxError(diagram: text, position: position, reason: reason)
        }
        func add(_ symbol: Symbol) throws(MarbleSyntaxError) {
            if ended, symbol != .disconnect {
                throw fail("nothing can follow the end of a stream (|, # or ~)")
            }
            if symbol == .finished || symbol == .failed || symbol == .interrupted { ended = true }
            if group != nil { group!.append(symbol) } else { events.append(Event(tick: tick, symbol: symbol)) }
        }

        while let character = characters.next() {
            defer { position += 1 }
            switch character {
            case " ":
                continue
            case "-":
                guard group == nil else { throw fail("a group holds events, not ticks") }
            case "^":
                guard group == nil else { throw fail("time zero cannot be inside a group") }
                guard origin == nil else { throw fail("a diagram has one time zero (^)") }
                origin = tick
            case "(":
                guard group == nil else { throw fail("groups do not nest") }
                group = []
                groupStart = position
                continue
            case ")":
                guard let symbols = group else { throw fail("a group closes that was not opened") }
                for symbol in symbols { events.append(Event(tick: tick, symbol: symbol)) }
                group = nil
            case "[":
                let nameStart = position
                var name = ""
                var closed = false
                while let next = characters.next() {
                    position += 1
                    if next == "]" {
                        closed = true
                        break
                    }
                    name.append(next)
                }
                guard closed else {
                    throw MarbleSyntaxError(
                        diagram: text, position: nameStart, reason: "a value name opened with [ is not closed")
                }
                try add(.value(name))
                if group != nil { continue }
            case "|":
                try add(.finished)
                if group != nil { continue }
            case "#":
                try add(.failed)
                if group != nil { continue }
            case "~":
                try add(.interrupted)
                if group != nil { continue }
            case "!":
                try add(.disconnect)
                if group != nil { continue }
            case "]":
                throw fail("a value name closes that was not opened")
            default:
                try add(.value(String(character)))
                if group != nil { continue }
            }
            tick += 1
        }
        guard group == nil else {
            throw MarbleSyntaxError(diagram: text, position: groupStart, reason: "a group is not closed")
        }
        let shift = origin ?? 0
        self.events = events.map { Event(tick: $0.tick - shift, symbol: $0.symbol) }
    }

    /// The diagram of `events`, rendered as text: one character per tick from 0 to the last
    /// event's, several events on one tick as a group.
    ///
    /// - Precondition: no event is before tick 0, and the events are in order of tick.
    public init(rendering events: [Event]) {
        precondition(
            zip(events, events.dropFirst()).allSatisfy { $0.tick <= $1.tick } && (events.first?.tick ?? 0) >= 0,
            "ReactiveTesting: a rendered diagram needs events in order, from tick 0 on")
        self.events = events
        var text = ""
        var index = events.startIndex
        for tick in 0..<((events.last?.tick ?? -1) + 1) {
            var symbols: [Symbol] = []
            while index < events.endIndex, events[index].tick == tick {
                symbols.append(events[index].symbol)
                index += 1
            }
            switch symbols.count {
            case 0: text += "-"
            case 1: text += Self.render(symbols[0])
            default: text += "(" + symbols.map(Self.render).joined() + ")"
            }
        }
        self.text = text
    }

    private static func render(_ symbol: Symbol) -> String {
        switch symbol {
        case .value(let name): name.count == 1 && !"-^()[]|#~! ".contains(name) ? name : "[\(name)]"
        case .finished: "|"
        case .failed: "#"
        case .interrupted: "~"
        case .disconnect: "!"
        }
    }

    /// The text of the diagram.
    public var description: String { text }

    /// Two diagrams are equal when their events are; the text may differ in spaces.
    public static func == (lhs: MarbleDiagram, rhs: MarbleDiagram) -> Bool {
        lhs.events == rhs.events
    }

    /// Hashes the events.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
    }
}

/// A marble diagram that does not parse: where, and why.
public struct MarbleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The diagram's text.
    public let diagram: String
    /// The position of the character at fault, from 0.
    public let position: Int
    /// What is wrong.
    public let reason: String

    /// The error at `position` of `diagram`, for `reason`.
    public init(diagram: String, position: Int, reason: String) {
        self.diagram = diagram
        self.position = position
        self.reason = reason
    }

    /// The diagram, the position of the fault, and the reason.
    public var description: String {
        "marble diagram \"\(diagram)\", at character \(position): \(reason)"
    }
}
