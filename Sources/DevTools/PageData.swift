import ReactiveCore

/// The trace as the page's script reads it: JSON, written by hand (no Foundation) in one
/// pass, safe to put inside a `<script>` element: `<`, `>` and `&` are written as `\u003c`,
/// `\u003e` and `\u0026`, so a label `</script>` stays text, and U+2028 and U+2029 (line
/// breaks to a script) are escaped too.
///
/// Shape (short keys: a 100,000-step trace is mostly steps):
///
/// ```
/// { "paradigm": "…", "title": "…", "live": false, "dropped": 0,
///   "statistics": { "recomputations": 12, … },
///   "nodes": [ { "id": 0, "kind": "map", "name": "total", "value": "3", "details": { … } }, … ],
///   "edges": [ [from, to, "label" or null], … ],
///   "initial": [ [id, "value"], … ],
///   "channels": [ "price", … ],
///   "steps": [ { "t": nanoseconds, "c": channel index, "i": "input", "ch": [ids], "to": [ids],
///                "v": [[id, "value"], …], "n": { counter: delta }, "d": [["path", old, new], …],
///                "g": gone }, … ] }
/// ```
struct PageData {
    /// The JSON's UTF-8 bytes, written in one pass.
    private var bytes: [UInt8] = []

    /// The JSON.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    init(trace: Trace, title: String, live: Bool) {
        bytes.reserveCapacity(64 + trace.graph.nodes.count * 96 + trace.steps.count * 64)
        raw("{\"paradigm\":")
        string(trace.paradigm)
        raw(",\"title\":")
        string(title)
        raw(",\"live\":\(live),\"dropped\":")
        number(trace.dropped)
        raw(",\"statistics\":")
        counters(trace.graph.statistics)
        raw(",\"nodes\":[")
        for (index, node) in trace.graph.nodes.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"id\":")
            number(node.id)
            raw(",\"kind\":")
            string(node.kind)
            raw(",\"name\":")
            optional(node.name)
            raw(",\"value\":")
            optional(node.value.map(Trace.shortened))
            raw(",\"details\":{")
            for (position, key) in node.details.keys.sorted().enumerated() {
                if position > 0 { raw(",") }
                string(key)
                raw(":")
                string(Trace.shortened(node.details[key]!))
            }
            raw("}}")
        }
        raw("],\"edges\":[")
        for (index, edge) in trace.graph.edges.enumerated() {
            if index > 0 { raw(",") }
            raw("[")
            number(edge.from)
            raw(",")
            number(edge.to)
            raw(",")
            optional(edge.label)
            raw("]")
        }
        var channels: [String: Int] = [:]
        var names: [String] = []
        for step in trace.steps where channels[step.channel] == nil {
            channels[step.channel] = names.count
            names.append(step.channel)
        }
        raw("],\"initial\":[")
        nodeValues(trace.initial)
        raw("],\"channels\":[")
        for (index, name) in names.enumerated() {
            if index > 0 { raw(",") }
            string(name)
        }
        raw("],\"steps\":[")
        for (index, step) in trace.steps.enumerated() {
            if index > 0 { raw(",\n") }
            self.step(step, channel: channels[step.channel]!)
        }
        raw("]}")
    }

    private init() {}

    /// A step as the live page's `step` event carries it, on one line:
    /// `{"channel": "…", "step": {…}}` (the page numbers the channel).
    static func stepEvent(_ step: Trace.Step) -> String {
        var data = PageData()
        data.raw("{\"channel\":")
        data.string(step.channel)
        data.raw(",\"step\":")
        data.step(step, channel: 0)
        data.raw("}")
        return data.text
    }

    /// One step, as in the type's documentation.
    private mutating func step(_ step: Trace.Step, channel: Int) {
        raw("{\"t\":")
        number(Self.nanoseconds(step.time))
        raw(",\"c\":")
        number(channel)
        raw(",\"i\":")
        string(step.input)
        raw(",\"ch\":[")
        ids(step.changed)
        raw("],\"to\":[")
        ids(step.told)
        raw("],\"v\":[")
        nodeValues(step.values)
        raw("],\"n\":")
        counters(step.counters)
        raw(",\"d\":[")
        for (index, change) in step.diff.enumerated() {
            if index > 0 { raw(",") }
            raw("[")
            string(change.path)
            raw(",")
            optional(change.old)
            raw(",")
            optional(change.new)
            raw("]")
        }
        raw("],\"g\":")
        number(step.gone)
        raw("}")
    }

    /// `time` in nanoseconds, held at `Int64`'s bounds (292 years either way): within them,
    /// its components fit, and the page's numbers are exact up to 2^53 ns, 104 days.
    static func nanoseconds(_ time: Duration) -> Int {
        if time >= .nanoseconds(Int64.max) { return Int(Int64.max) }
        if time <= .nanoseconds(Int64.min) { return Int(Int64.min) }
        let (seconds, attoseconds) = time.components
        return Int(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    /// Node values as `[id, "value"]` pairs, comma-separated.
    private mutating func nodeValues(_ values: [Trace.NodeValue]) {
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            raw("[")
            number(value.id)
            raw(",")
            string(Trace.shortened(value.value))
            raw("]")
        }
    }

    private mutating func ids(_ ids: [Int]) {
        for (index, id) in ids.enumerated() {
            if index > 0 { raw(",") }
            number(id)
        }
    }

    private mutating func counters(_ counters: [String: Int]) {
        raw("{")
        for (index, key) in counters.keys.sorted().enumerated() {
            if index > 0 { raw(",") }
            string(key)
            raw(":")
            number(counters[key]!)
        }
        raw("}")
    }

    private mutating func optional(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Text the JSON holds as it is: punctuation and keys.
    private mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// `value` as a JSON string that is also safe inside a `<script>` element.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = Array(value.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case UInt8(ascii: "<"): raw("\\u003c")
            case UInt8(ascii: ">"): raw("\\u003e")
            case UInt8(ascii: "&"): raw("\\u0026")
            case 0xE2
            where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (0xA8...0xA9).contains(utf8[index + 2]):
                // U+2028 and U+2029, line breaks to a script.
                raw(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 2
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
            index += 1
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
