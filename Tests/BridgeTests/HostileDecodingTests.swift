import Cycle
import DevTools
import Foundation
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals
import TestSupport
import Testing

/// Every public `Codable` type of the package, fed hostile input: a value that decodes is one
/// its initializers could have made, so its first use never stops the program; what does not
/// decode throws a `DecodingError`. A layout check fails when a public `Codable` type is added
/// to the sources without a row here.
@Suite("Hostile decoding")
struct HostileDecodingTests {
    enum Choice: Codable, Equatable, Sendable {
        case one, two
    }

    /// One public `Codable` type: a valid value's encoding, and the first use of a decoded one.
    struct Subject {
        let name: String
        let sample: () throws -> Data
        let decodeAndUse: (Data) throws -> Void

        init<Value: Codable>(
            _ name: String, _ value: @escaping () -> Value, use: @escaping (Value) -> Void
        ) {
            self.name = name
            sample = { try JSONEncoder().encode(value()) }
            decodeAndUse = { data in use(try JSONDecoder().decode(Value.self, from: data)) }
        }

        init(name: String, sample: @escaping () throws -> Data, decodeAndUse: @escaping (Data) throws -> Void) {
            self.name = name
            self.sample = sample
            self.decodeAndUse = decodeAndUse
        }
    }

    static var subjects: [Subject] {
        [
            Subject("ArrayDelta", { ArrayDelta<Int>([.insert(1, at: 0), .move(from: 0, to: 0), .reset([1, 2])]) }) {
                _ = $0.count(after: 5)
            },
            Subject("ArrayDelta.Edit", { ArrayDelta<Int>.Edit.update(3, at: 1) }) { _ = ArrayDelta([$0]).edits.count },
            Subject("DictionaryDelta", { DictionaryDelta<String, Int>([.insert("a", 1), .remove("b")]) }) {
                var entries = ["b": 2]
                $0.apply(to: &entries)
            },
            Subject("DictionaryDelta.Edit", { DictionaryDelta<String, Int>.Edit.update("a", 2) }) {
                var entries: [String: Int] = [:]
                DictionaryDelta([$0]).apply(to: &entries)
            },
            Subject("SetDelta", { SetDelta<Int>([.insert(1), .remove(2)]) }) {
                var set: Set = [2]
                $0.apply(to: &set)
            },
            Subject("SetDelta.Edit", { SetDelta<Int>.Edit.insert(1) }) {
                var set: Set<Int> = []
                SetDelta([$0]).apply(to: &set)
            },
            Subject(
                "Inspection",
                {
                    Inspection(
                        paradigm: "Glue",
                        nodes: [.init(id: 1, kind: "variable", value: "1"), .init(id: 2, kind: "map")],
                        edges: [.init(from: 1, to: 2, label: "x")], statistics: ["propagations": 1])
                }
            ) {
                _ = $0.dot
                _ = $0.json()
                _ = $0.nodes(ofKind: "map")
            },
            Subject(
                "Inspection.Node", { Inspection.Node(id: 3, kind: "input", name: "n", value: "v", details: ["a": "b"]) }
            ) {
                _ = Inspection(paradigm: "p", nodes: [$0, $0], edges: [], statistics: [:]).dot
            },
            Subject("Inspection.Edge", { Inspection.Edge(from: 1, to: 9) }) {
                _ = Inspection(paradigm: "p", nodes: [], edges: [$0], statistics: [:]).dot
            },
            Subject(
                "Trace",
                {
                    Trace(
                        paradigm: "Glue",
                        graph: Inspection(
                            paradigm: "Glue",
                            nodes: [.init(id: 1, kind: "variable", value: "1"), .init(id: 2, kind: "map")],
                            edges: [.init(from: 1, to: 2)], statistics: [:]),
                        steps: [
                            .init(
                                time: .seconds(1), channel: "a", input: "1", changed: [1, 2], told: [2],
                                values: [.init(id: 2, value: "2")], counters: ["recomputations": 1],
                                diff: [.init(path: "x", old: "1", new: nil)], gone: 1)
                        ], dropped: 2)
                }
            ) {
                _ = DevToolsPage(trace: $0).html
            },
            Subject(
                "Trace.Step",
                {
                    Trace.Step(
                        time: .milliseconds(5), channel: "c", input: "i", changed: [0],
                        values: [.init(id: 0, value: "v")])
                }
            ) {
                _ =
                    DevToolsPage(
                        trace: Trace(
                            paradigm: "p", graph: .init(paradigm: "p", nodes: [], edges: [], statistics: [:]),
                            steps: [$0])
                    ).html
            },
            Subject("Trace.NodeValue", { Trace.NodeValue(id: 4, value: "v") }) {
                _ =
                    DevToolsPage(
                        trace: Trace(
                            paradigm: "p", graph: .init(paradigm: "p", nodes: [], edges: [], statistics: [:]),
                            steps: [.init(time: .zero, channel: "c", input: "", values: [$0])])
                    ).html
            },
            Subject("Trace.Change", { Trace.Change(path: "a.b", old: nil, new: "1") }) {
                _ =
                    DevToolsPage(
                        trace: Trace(
                            paradigm: "p", graph: .init(paradigm: "p", nodes: [], edges: [], statistics: [:]),
                            steps: [.init(time: .zero, channel: "c", input: "", diff: [$0])])
                    ).html
            },
            Subject(
                name: "Tape",
                sample: {
                    let recorder = TapeRecorder(scheduler: TestScheduler())
                    recorder.channel("count") { (_: Int) in }.send(1)
                    return try JSONEncoder().encode(recorder.tape)
                },
                decodeAndUse: { data in
                    let scheduler = TestScheduler()
                    let recorder = TapeRecorder(scheduler: scheduler)
                    _ = recorder.channel("count") { (_: Int) in }
                    let decoder = JSONDecoder()
                    decoder.userInfo[Tape.valueTypesKey] = recorder.valueTypes
                    let tape = try decoder.decode(Tape.self, from: data)
                    let replay = recorder.replay(tape)
                    scheduler.advance(by: .seconds(1))
                    replay.disconnect()
                }),
            Subject("Location", { Location(path: "/items/42", query: ["tab": "notes"]) }) {
                #expect(Location(parsing: $0.description) == $0)
                #expect(!$0.description.hasPrefix("//"))
            },
            Subject("HistoryModel", { HistoryModel(entries: ["/", "/a", "/b"], index: 1) }) {
                var model = $0
                _ = model.location
                model.go(Int.max)
                model.go(Int.min)
                model.push("/c")
                model.back()
                _ = model.location
            },
            Subject("StackElementID", { StackElementID(rawValue: 3) }) { _ = $0.description },
            Subject("StackState", { StackState(["a", "b", "c"]) }) {
                var stack = $0
                stack.append("d")
                stack.append("e")
                _ = stack.description
                stack.removeAll()
            },
            Subject("StackAction", { StackAction<String>.pop(count: 2, in: "rows") }) {
                var stack = StackState(["a", "b", "c"])
                stack.apply($0.operation)
            },
            Subject("StackAction.Operation", { StackAction<String>.Operation.pop(count: 1) }) {
                var stack = StackState(["a", "b"])
                stack.apply($0)
            },
            Subject("PresentationAction", { PresentationAction<String>.present("sheet") }) { _ = "\($0)" },
            Subject("PresentationAction.Operation", { PresentationAction<String>.Operation.dismiss }) { _ = "\($0)" },
            Subject("PersistedStateLoaded", { PersistedStateLoaded(Choice.one, from: .memory("k")) }) {
                _ = $0.route.description
            },
            Subject("PersistedStateReset", { PersistedStateReset(Choice.one, at: .memory("k")) }) {
                _ = $0.route.description
            },
            Subject("HistoryOperation", { HistoryOperation.reorder(id: 3, before: nil) }) { _ = "\($0)" },
            Subject("PersistenceLocation", { PersistenceLocation.file(URL(filePath: "/tmp/state.json")) }) {
                #expect(!$0.description.isEmpty)
                if case .file(let url) = $0 { #expect(url.isFileURL) }
            },
        ]
    }

    /// Variants of a JSON document: each field removed, each number replaced by extremes, each
    /// array emptied and its first element repeated, each string emptied, and whole documents
    /// that are no value at all or nested deeply.
    static func hostileVariants(of data: Data) throws -> [Data] {
        let root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        var variants: [Any] = [[String: Any](), [Any](), NSNull(), "", 0, Int.max, Int.min]
        var nested: Any = [Any]()
        for _ in 0..<600 { nested = [nested] }
        variants.append(nested)
        func mutations(of value: Any) -> [Any] {
            var result: [Any] = []
            switch value {
            case let object as [String: Any]:
                for key in object.keys {
                    var removed = object
                    removed[key] = nil
                    result.append(removed)
                    for replacement in mutations(of: object[key]!) {
                        var changed = object
                        changed[key] = replacement
                        result.append(changed)
                    }
                }
            case let array as [Any]:
                result.append([Any]())
                if let first = array.first { result.append([first, first] + array) }
                for index in array.indices {
                    for replacement in mutations(of: array[index]) {
                        var changed = array
                        changed[index] = replacement
                        result.append(changed)
                    }
                }
            case is NSNumber, is Int, is Double:
                result += [Int.max, Int.min, -1, 0, 7, 1e300, Int.max - 1]
            case is String:
                result += ["", "//evil.example/x", "https://evil.example/", "%", "\u{0}"]
            default:
                break
            }
            return result
        }
        variants += mutations(of: root)
        return try variants.map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
    }

    @Test(
        "every public Codable type: hostile input either throws a DecodingError or decodes to a value whose first use works"
    )
    func hostileInputs() throws {
        for subject in Self.subjects {
            let sample = try subject.sample()
            try subject.decodeAndUse(sample)
            for variant in try Self.hostileVariants(of: sample) {
                do {
                    try subject.decodeAndUse(variant)
                } catch is DecodingError {
                } catch is TapeError {
                } catch {
                    Issue.record("\(subject.name): \(String(decoding: variant, as: UTF8.self)) threw \(error)")
                }
            }
        }
    }

    /// The coding path of the error decoding `json` as `Value`, as key names.
    static func failingField<Value: Decodable>(_ type: Value.Type, _ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(type, from: Data(json.utf8))
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return context.codingPath.last?.stringValue
        } catch {
            return "\(error)"
        }
    }

    @Test("the checks that fail name the field: a history's entries and index, a stack's ids, elements and nextID")
    func errorsNameTheField() {
        let location = #"{"path":"/","query":{}}"#
        #expect(Self.failingField(HistoryModel.self, #"{"entries":[],"index":0}"#) == "entries")
        #expect(Self.failingField(HistoryModel.self, #"{"entries":[\#(location)],"index":7}"#) == "index")
        #expect(Self.failingField(HistoryModel.self, #"{"entries":[\#(location)],"index":-1}"#) == "index")
        let ids = #""ids":[{"rawValue":0},{"rawValue":1}]"#
        #expect(
            Self.failingField(StackState<String>.self, #"{\#(ids),"elements":["a","b"],"nextID":\#(Int.max)}"#)
                == "nextID")
        #expect(Self.failingField(StackState<String>.self, #"{\#(ids),"elements":["a","b"],"nextID":-1}"#) == "nextID")
        #expect(Self.failingField(StackState<String>.self, #"{\#(ids),"elements":["a"],"nextID":2}"#) == "elements")
        #expect(
            Self.failingField(
                StackState<String>.self, #"{"ids":[{"rawValue":0},{"rawValue":0}],"elements":["a","b"],"nextID":2}"#)
                == "ids")
        #expect(
            Self.failingField(StackState<String>.self, #"{"ids":[{"rawValue":-3}],"elements":["a"],"nextID":2}"#)
                == "ids")
        #expect(Self.failingField(ArrayDelta<Int>.self, #"{"edits":[{"remove":{"at":-1}}]}"#) == "edits")
        #expect(Self.failingField(StackState<String>.self, #"{\#(ids),"elements":["a","b"],"nextID":2}"#) == nil)
    }

    @Test("a stack decoded with the largest next number it allows still pushes")
    func largestNextID() throws {
        let json = #"{"ids":[],"elements":[],"nextID":\#(1 << 53)}"#
        var stack = try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
        let id = stack.append("a")
        #expect(id.rawValue == 1 << 53)
        #expect(stack[id: id] == "a")
    }

    /// Every public type of the sources that conforms to `Codable` (or `Decodable`), found by
    /// reading them.
    static func codableTypesInSources() throws -> Set<String> {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appending(path: "Sources")
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            var enclosing: [(name: String, indent: Int)] = []
            for line in text.split(separator: "\n") where line.contains("public ") || line.hasPrefix("extension ") {
                let indent = line.prefix { $0 == " " }.count
                enclosing.removeAll { $0.indent >= indent }
                // The declaration without its generic parameters and `where` clause, whose
                // constraints (`Value: Codable`) are not conformances.
                let declaration = String(line).replacing(/<[^<>]*>/, with: "").replacing(/\bwhere\b.*/, with: "")
                if let match = declaration.firstMatch(of: /^\s*public (?:final )?(?:struct|enum|class) (\w+)(.*)/) {
                    let name = String(match.output.1)
                    let qualified = (enclosing.map(\.name) + [name]).joined(separator: ".")
                    if match.output.2.contains(/^\s*:[^{]*\b(Codable|Decodable)\b/) { found.insert(qualified) }
                    enclosing.append((qualified, indent))
                } else if let match = declaration.firstMatch(of: /^extension ([\w.]+)\s*:[^{]*\b(Codable|Decodable)\b/)
                {
                    found.insert(String(match.output.1))
                }
            }
        }
        return found
    }

    @Test("every public Codable type in the sources is a subject of the hostile-decoding test")
    func everyCodableTypeIsListed() throws {
        let found = try Self.codableTypesInSources()
        let listed = Set(Self.subjects.map(\.name))
        #expect(found.count >= 15, "the scan found the package's Codable types")
        for name in found.subtracting(listed).sorted() {
            Issue.record("\(name) is a public Codable type without a subject in HostileDecodingTests")
        }
        for name in listed.subtracting(found).sorted() {
            Issue.record("\(name) is listed in HostileDecodingTests but is not a public Codable type of the sources")
        }
    }
}
