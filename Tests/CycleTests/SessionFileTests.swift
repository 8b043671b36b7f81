import Foundation
import ReactiveCore
import Testing

@testable import Cycle

/// The session driver's promises about the file on disk: a corrupt file is never lost, a
/// failed write leaves nothing behind, links are written through, reasons are readable.
@Suite("Cycle session file")
struct SessionFileTests {
    struct State: Codable, Equatable, Sendable { var count: Int }

    /// A fresh folder, removed when `body` returns.
    private func inFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Starts `driver`, sends `models`, and returns every event.
    private func run(_ driver: SessionDriver<State>, sending models: [State?] = []) -> [SessionEvent<State>] {
        var events: [SessionEvent<State>] = []
        let subject = EventSubject<State?>()
        let connection = driver.rendered(subject.stream).subscribe { events.append($0) }
        for model in models { subject.send(model) }
        connection.disconnect()
        return events
    }

    @Test("two starts on corrupt files within one second keep both files, each under a name of its own")
    func corruptTwiceInOneSecond() throws {
        try inFolder { folder in
            let url = folder.appendingPathComponent("session.json")
            var preserved: [URL] = []
            for attempt in 0..<3 {
                try Data("corrupt \(attempt)".utf8).write(to: url)
                let events = run(SessionDriver(url: url), sending: [State(count: attempt)])
                guard case .corrupt(_, let aside?) = events.first else {
                    Issue.record("attempt \(attempt): expected the corrupt file kept aside, got \(events)")
                    return
                }
                #expect(events.last == .saved)
                preserved.append(aside)
            }
            #expect(Set(preserved).count == 3)
            for (attempt, aside) in preserved.enumerated() {
                #expect(try String(contentsOf: aside, encoding: .utf8) == "corrupt \(attempt)")
            }
            #expect(try JSONDecoder().decode(State.self, from: Data(contentsOf: url)) == State(count: 2))
        }
    }

    @Test("a corrupt file that cannot be moved aside is never written over; a later save moves it first")
    func corruptFileNotPreserved() throws {
        try inFolder { folder in
            let url = folder.appendingPathComponent("session.json")
            try Data("precious bytes".utf8).write(to: url)
            let movesFail = LockedFlag(true)
            var driver = SessionDriver<State>(url: url)
            driver.files.moveAside = { from, to in
                if movesFail.value { throw CocoaError(.fileWriteNoPermission) }
                try FileManager.default.moveItem(at: from, to: to)
            }
            var events: [SessionEvent<State>] = []
            let subject = EventSubject<State?>()
            let connection = driver.rendered(subject.stream).subscribe { events.append($0) }
            guard case .corrupt(let reason, nil) = events.first else {
                Issue.record("expected a corrupt event with nothing preserved, got \(events)")
                return
            }
            #expect(reason.contains("session.json"))
            subject.send(State(count: 1))
            guard case .failed(let failure) = events.last else {
                Issue.record("expected the save to fail, got \(events)")
                return
            }
            #expect(failure.contains("could not be moved aside"))
            #expect(failure.contains("permission"))
            #expect(try String(contentsOf: url, encoding: .utf8) == "precious bytes")
            movesFail.value = false
            subject.send(State(count: 2))
            #expect(events.last == .saved)
            connection.disconnect()
            let aside = try names(in: folder).filter { $0.hasPrefix("session.json.corrupt-") }
            #expect(aside.count == 1)
            #expect(
                try String(contentsOf: folder.appendingPathComponent(try #require(aside.first)), encoding: .utf8)
                    == "precious bytes")
            #expect(try JSONDecoder().decode(State.self, from: Data(contentsOf: url)) == State(count: 2))
        }
    }

    @Test("a failed write removes its temporary file: a full disk does not fill up, a small save still succeeds")
    func failedWriteLeavesNothing() async {
        // The file size limit applies to the whole process: the check runs in a child.
        await #expect(processExitsWith: .success) {
            struct Big: Codable, Equatable, Sendable { var text: String }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cycle-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("session.json")
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 4_096, rlim_max: 4_096)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(3) }
            var events: [SessionEvent<Big>] = []
            let subject = EventSubject<Big?>()
            let connection = SessionDriver<Big>(url: url).rendered(subject.stream).subscribe { events.append($0) }
            for attempt in 0..<20 { subject.send(Big(text: String(repeating: "x", count: 10_000 + attempt))) }
            let failures = events.filter { if case .failed = $0 { true } else { false } }
            guard failures.count == 20 else { exit(4) }
            guard case .failed(let reason) = failures.first,
                reason == "could not write session.json: File too large"
            else { exit(5) }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard left.isEmpty else { exit(6) }
            subject.send(Big(text: "small"))
            guard events.last == .saved else { exit(7) }
            connection.disconnect()
            try? FileManager.default.removeItem(at: folder)
            exit(0)
        }
    }

    @Test("a session file that is a symbolic link is read and written through the link, which stays")
    func symbolicLink() throws {
        try inFolder { folder in
            let target = folder.appendingPathComponent("data/real.json")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let link = folder.appendingPathComponent("session.json")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
            #expect(run(SessionDriver(url: link), sending: [State(count: 1)]) == [.missing, .saved])
            #expect(run(SessionDriver(url: link), sending: [State(count: 2)]) == [.restored(State(count: 1)), .saved])
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try JSONDecoder().decode(State.self, from: Data(contentsOf: target)) == State(count: 2))
            #expect(try names(in: folder) == ["data", "session.json"])
            #expect(try names(in: target.deletingLastPathComponent()) == ["real.json"])

            // A corrupt target is moved aside next to itself; the link stays and is written again.
            try Data("{".utf8).write(to: target)
            let events = run(SessionDriver(url: link), sending: [State(count: 3)])
            guard case .corrupt(_, let aside?) = events.first else {
                Issue.record("expected a corrupt event, got \(events)")
                return
            }
            #expect(aside.deletingLastPathComponent().path == target.deletingLastPathComponent().path)
            #expect(events.last == .saved)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try JSONDecoder().decode(State.self, from: Data(contentsOf: target)) == State(count: 3))
        }
    }

    @Test("reasons name the file and the cause, without raw error dumps or temporary paths")
    func readableReasons() throws {
        try inFolder { folder in
            let url = folder.appendingPathComponent("session.json")
            let cases: [(bytes: String, reason: String)] = [
                ("{ not json", "session.json does not hold a State: not valid JSON"),
                (#"{"other": 1}"#, "session.json does not hold a State: no value for count"),
                (#"{"count": "three"}"#, "session.json does not hold a State: a value of the wrong type at count"),
            ]
            for (bytes, expected) in cases {
                try Data(bytes.utf8).write(to: url)
                guard case .corrupt(let reason, _) = run(SessionDriver(url: url)).first else {
                    Issue.record("expected a corrupt event for \(bytes)")
                    continue
                }
                #expect(reason == expected)
            }
            // Unreadable: a folder where the file should be.
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            guard case .corrupt(let reason, _) = run(SessionDriver(url: url)).first else {
                Issue.record("expected a corrupt event for a folder")
                return
            }
            #expect(reason == "could not read session.json: it is a folder, not a file")
        }
    }
}

/// A flag that a `@Sendable` fault injector reads and a test sets.
final class LockedFlag: Sendable {
    private let stored: LockedState<Bool>

    init(_ value: Bool) { stored = LockedState(value) }

    var value: Bool {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
