import Foundation
import ReactiveCore
import Resin
import TestSupport
import Testing

private struct Memo: Codable, Equatable, Sendable {
    var text = ""
    var pinned = false
}

private struct Edit: Action, Equatable { var text: String }
private struct Pin: Action, Equatable {}

/// A store of one note on a test scheduler, with `storage`, an edit reducer, and lists of
/// the persistence actions it saw and the persistence errors it reported.
@MainActor
private final class MemoStore {
    let scheduler = TestScheduler()
    let store: Store<Memo>
    private let incomingBox = Box<[String]>([])
    private let reportedBox = Box<[PersistenceError]>([])
    private var connections: [Connection] = []

    init(_ storage: PersistenceStorage, initial: Memo = Memo()) {
        var dependencies = Dependencies()
        dependencies.persistenceStorage = storage
        store = Store(initialState: initial, scheduler: scheduler, dependencies: dependencies)
        let incoming = incomingBox
        let reported = reportedBox
        connections = [
            store.register(Reducer<Memo, Edit> { $0.text = $1.text }),
            store.register(
                Reducer<Memo, Pin> { memo, _ in
                    memo.text += " (pinned)"
                    memo.pinned = true
                }),
            store.register(
                Middleware { action, _ in
                    if action is PersistedStateLoaded<Memo> { incoming.value.append("loaded") }
                    if action is PersistedStateReset<Memo> { incoming.value.append("reset") }
                    return .pass
                }),
        ]
        store.unhandledErrorHandler = { error in
            if let error = error as? PersistenceError { reported.value.append(error) }
        }
    }

    var incoming: [String] { incomingBox.value }
    var reported: [PersistenceError] { reportedBox.value }
    var note: Memo { store.state.value }
}

private final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

private func json(_ note: Memo) -> Data {
    // A string and a Boolean always encode.
    (try? PersistenceCoder<Memo>.json.data(for: note)) ?? Data()
}

/// A fresh folder under the temporary directory, removed by the caller.
private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resin-follow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("Resin: persistence follows what is stored")
@MainActor
struct PersistenceFollowingTests {
    @Test("an outside write to the storage is loaded at once when the storage reports it, with no poll")
    func outsideWriteReported() {
        let storage = PersistenceStorage.inMemory()
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(.inMemory("note"), pollInterval: nil)
        notes.scheduler.advance(by: .seconds(5))
        #expect(persistence.writeCount == 1)
        try? storage.store(json(Memo(text: "from elsewhere")), at: .memory("note"))
        #expect(notes.note.text == "")
        notes.scheduler.advance()
        #expect(notes.note.text == "from elsewhere")
        #expect(notes.incoming == ["loaded"])
        // Loaded, not written back.
        notes.scheduler.advance(by: .seconds(10))
        #expect(persistence.writeCount == 1)
        #expect(!persistence.hasPendingChanges)
    }

    @Test("a storage that cannot report changes is polled; with no poll, only reload() looks")
    func outsideWritePolled() throws {
        let memory = PersistenceStorage.inMemory()
        // A storage of its own, without `watch`.
        let plain = PersistenceStorage(
            read: { try memory.data(at: $0) }, write: { try memory.store($0, at: $1) })
        let polled = MemoStore(plain)
        let persistence = polled.store.persist(.inMemory("note"), pollInterval: .seconds(2))
        // The first write (nothing was stored): the store's state, at 1 s.
        polled.scheduler.advance(by: .seconds(1))
        #expect(persistence.writeCount == 1)
        try memory.store(json(Memo(text: "one")), at: .memory("note"))
        polled.scheduler.advance(by: .milliseconds(900))
        #expect(polled.note.text == "")
        polled.scheduler.advance(by: .milliseconds(100))
        #expect(polled.note.text == "one")

        let manual = MemoStore(plain)
        let unpolled = manual.store.persist(.inMemory("note"), pollInterval: nil)
        #expect(manual.note.text == "one")
        try memory.store(json(Memo(text: "two")), at: .memory("note"))
        manual.scheduler.advance(by: .seconds(60))
        #expect(manual.note.text == "one")
        unpolled.reload()
        #expect(manual.note.text == "two")
        _ = persistence
    }

    @Test("nothing stored at start: an outside write before the first save is loaded, not overwritten")
    func firstWriteDoesNotClobber() throws {
        let memory = PersistenceStorage.inMemory()
        let plain = PersistenceStorage(read: { try memory.data(at: $0) }, write: { try memory.store($0, at: $1) })
        let notes = MemoStore(plain)
        let persistence = notes.store.persist(.inMemory("note"), pollInterval: nil)
        try memory.store(json(Memo(text: "written meanwhile")), at: .memory("note"))
        notes.scheduler.advance(by: .seconds(1))
        #expect(notes.note.text == "written meanwhile")
        #expect(persistence.writeCount == 0)
        #expect(try memory.data(at: .memory("note")) == json(Memo(text: "written meanwhile")))
    }

    @Test("an outside write is newer than a change not yet written: the change is dropped")
    func outsideWriteWinsOverPending() throws {
        let storage = PersistenceStorage.inMemory([.memory("note"): json(Memo(text: "stored"))])
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(.inMemory("note"))
        notes.store.dispatch(Edit(text: "mine"))
        #expect(persistence.hasPendingChanges)
        try storage.store(json(Memo(text: "theirs")), at: .memory("note"))
        notes.scheduler.advance()
        #expect(notes.note.text == "theirs")
        #expect(!persistence.hasPendingChanges)
        notes.scheduler.advance(by: .seconds(10))
        #expect(try storage.data(at: .memory("note")) == json(Memo(text: "theirs")))
        #expect(persistence.writeCount == 0)
    }

    @Test("a removal drops the pending write and resets to the default; nothing is written until the next change")
    func removalDropsPending() throws {
        let storage = PersistenceStorage.inMemory([.memory("note"): json(Memo(text: "stored"))])
        let notes = MemoStore(storage, initial: Memo(text: "initial"))
        let persistence = notes.store.persist(PersistenceKey(.inMemory("note"), default: Memo(text: "default")))
        #expect(notes.note.text == "stored")
        notes.store.dispatch(Edit(text: "pending"))
        try storage.removeData(at: .memory("note"))
        notes.scheduler.advance()
        #expect(notes.note.text == "default")
        #expect(notes.incoming == ["loaded", "reset"])
        #expect(!persistence.hasPendingChanges)
        notes.scheduler.advance(by: .seconds(10))
        #expect(try storage.data(at: .memory("note")) == nil)
        notes.store.dispatch(Edit(text: "after"))
        notes.scheduler.advance(by: .seconds(1))
        #expect(try storage.data(at: .memory("note")) == json(Memo(text: "after")))
    }

    @Test("without a key default, a removal resets to the state the store had when persistence started")
    func removalWithoutDefault() throws {
        let storage = PersistenceStorage.inMemory()
        let notes = MemoStore(storage, initial: Memo(text: "initial"))
        let persistence = notes.store.persist(.inMemory("note"))
        notes.store.dispatch(Edit(text: "changed"))
        persistence.flush()
        try storage.removeData(at: .memory("note"))
        notes.scheduler.advance()
        #expect(notes.note.text == "initial")
        #expect(notes.incoming == ["reset"])
    }

    @Test("a key's default is the state when nothing is stored at start, and is then written")
    func keyDefaultAtStart() throws {
        let storage = PersistenceStorage.inMemory()
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(
            PersistenceKey(.inMemory("note"), default: Memo(text: "welcome", pinned: true)))
        #expect(notes.note == Memo(text: "welcome", pinned: true))
        #expect(notes.incoming == ["reset"])
        persistence.flush()
        #expect(try storage.data(at: .memory("note")) == json(Memo(text: "welcome", pinned: true)))
    }

    @Test("two persistences of one location stay in sync, and neither writes the other's state back")
    func twoPersistencesInSync() {
        let storage = PersistenceStorage.inMemory()
        let first = MemoStore(storage)
        let second = MemoStore(storage)
        let one = first.store.persist(.inMemory("note"))
        let two = second.store.persist(.inMemory("note"))
        first.store.dispatch(Edit(text: "from the first"))
        one.flush()
        second.scheduler.advance()
        #expect(second.note.text == "from the first")
        second.store.dispatch(Edit(text: "from the second"))
        two.flush()
        first.scheduler.advance()
        #expect(first.note.text == "from the second")
        for scheduler in [first.scheduler, second.scheduler] { scheduler.advance(by: .seconds(30)) }
        first.scheduler.advance(by: .seconds(30))
        #expect(one.writeCount == 1)
        #expect(two.writeCount == 1)
        #expect(!one.hasPendingChanges && !two.hasPendingChanges)
    }

    @Test("reentrant: an observer that edits the state a load put in writes the edit, and the other side loads it")
    func observerEditsLoadedState() {
        let storage = PersistenceStorage.inMemory()
        let first = MemoStore(storage)
        let second = MemoStore(storage)
        let one = first.store.persist(.inMemory("note"))
        let two = second.store.persist(.inMemory("note"))
        // The second store pins every note it is given.
        let pinner = second.store.state.observe { note in
            if !note.text.isEmpty && !note.pinned { second.store.dispatch(Pin()) }
        }
        first.store.dispatch(Edit(text: "hello"))
        one.flush()
        second.scheduler.advance()
        #expect(second.note.text == "hello (pinned)")
        two.flush()
        first.scheduler.advance()
        #expect(first.note.text == "hello (pinned)")
        for _ in 0..<3 {
            first.scheduler.advance(by: .seconds(10))
            second.scheduler.advance(by: .seconds(10))
        }
        #expect(one.writeCount == 1)
        #expect(two.writeCount == 1)
        _ = pinner
    }

    @Test("no-op: an outside write of the same bytes, or of an equal value spelled otherwise, dispatches nothing")
    func sameDataDoesNothing() throws {
        let storage = PersistenceStorage.inMemory([.memory("note"): json(Memo(text: "same"))])
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(.inMemory("note"))
        try storage.store(json(Memo(text: "same")), at: .memory("note"))
        notes.scheduler.advance()
        try storage.store(Data(#"{ "text" : "same",  "pinned" : false }"#.utf8), at: .memory("note"))
        notes.scheduler.advance(by: .seconds(10))
        #expect(notes.incoming == ["loaded"])
        #expect(persistence.writeCount == 0)
        #expect(persistence.status.value == PersistenceStatus())
    }

    @Test("load and save errors are state: set when one fails, cleared when one succeeds")
    func errorsAsState() throws {
        let failing = LockedState(false)
        let memory = PersistenceStorage.inMemory([.memory("note"): Data("not json".utf8)])
        let storage = PersistenceStorage(
            read: { try memory.data(at: $0) },
            write: { data, location in
                if failing.withLock({ $0 }) { throw CocoaError(.fileWriteOutOfSpace) }
                try memory.store(data, at: location)
            },
            watch: { memory.watch($0, $1) })
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(.inMemory("note"))
        var seen: [PersistenceStatus] = []
        let observer = persistence.status.observe { seen.append($0) }
        #expect(persistence.loadError?.operation == .load)
        #expect(persistence.loadError?.location == .memory("note"))
        #expect(!persistence.isLoading)
        #expect(notes.reported.count == 1)

        // An outside write that decodes clears the load error; the loading shows while it runs.
        try memory.store(json(Memo(text: "fixed")), at: .memory("note"))
        notes.scheduler.advance()
        #expect(persistence.loadError == nil)
        #expect(notes.note.text == "fixed")
        #expect(seen.map(\.isLoading) == [false, true, false])

        failing.withLock { $0 = true }
        notes.store.dispatch(Edit(text: "unsaved"))
        notes.scheduler.advance(by: .seconds(1))
        #expect(persistence.saveError?.operation == .save)
        #expect("\(persistence.saveError!)".contains("could not be saved"))
        failing.withLock { $0 = false }
        persistence.flush()
        #expect(persistence.saveError == nil)
        #expect(try memory.data(at: .memory("note")) == json(Memo(text: "unsaved")))
        _ = observer
    }

    @Test("a location is normalised: two spellings of one file are one location")
    func normalisedLocations() throws {
        let storage = PersistenceStorage.inMemory()
        let first = MemoStore(storage)
        let second = MemoStore(storage)
        let one = first.store.persist(.file(URL(filePath: "/data//notes/./note.json")))
        let two = second.store.persist(.file(URL(filePath: "/data/notes/note.json")))
        #expect(one.location == two.location)
        #expect(one.location == .file(URL(filePath: "/data/notes/note.json")))
        first.store.dispatch(Edit(text: "one file"))
        one.flush()
        second.scheduler.advance()
        #expect(second.note.text == "one file")
        #expect(try storage.data(at: .file(URL(filePath: "/data/notes//note.json"))) == json(Memo(text: "one file")))
        #expect(PersistenceLocation.memory("a//b").normalized == .memory("a//b"))
    }

    @Test("custom coders: a property list round-trips; a coder of one's own; a decode that throws is a load error")
    func customCoders() throws {
        let storage = PersistenceStorage.inMemory()
        let first = MemoStore(storage)
        let plist = first.store.persist(PersistenceKey(.inMemory("plist"), coder: .propertyList))
        first.store.dispatch(Edit(text: "in a property list"))
        plist.flush()
        let bytes = try #require(try storage.data(at: .memory("plist")))
        #expect(bytes.starts(with: Data("bplist".utf8)))
        let second = MemoStore(storage)
        let reloaded = second.store.persist(PersistenceKey(.inMemory("plist"), coder: .propertyList))
        #expect(second.note.text == "in a property list")

        struct Garbled: Error {}
        let lines = PersistenceCoder<Memo>(
            encode: { Data("\($0.pinned ? "*" : "-")\($0.text)".utf8) },
            decode: { data in
                let text = String(decoding: data, as: UTF8.self)
                guard let mark = text.first, mark == "*" || mark == "-" else { throw Garbled() }
                return Memo(text: String(text.dropFirst()), pinned: mark == "*")
            })
        let third = MemoStore(storage)
        let own = third.store.persist(PersistenceKey(.inMemory("lines"), coder: lines))
        third.store.dispatch(Edit(text: "plain"))
        own.flush()
        #expect(try storage.data(at: .memory("lines")) == Data("-plain".utf8))
        try storage.store(Data("?broken".utf8), at: .memory("lines"))
        third.scheduler.advance()
        #expect(own.loadError?.underlying is Garbled)
        #expect(third.note.text == "plain")
        _ = reloaded
    }

    @Test("concurrent: outside writes from many threads end with the store holding the last one")
    func concurrentOutsideWrites() async throws {
        let storage = PersistenceStorage.inMemory()
        let notes = MemoStore(storage)
        let persistence = notes.store.persist(.inMemory("note"))
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        try? storage.store(json(Memo(text: "\(writer)-\(index)")), at: .memory("note"))
                    }
                }
            }
            for _ in 0..<20 {
                notes.scheduler.advance()
                await Task.yield()
            }
        }
        try storage.store(json(Memo(text: "last")), at: .memory("note"))
        notes.scheduler.advance()
        #expect(notes.note.text == "last")
        #expect(persistence.writeCount == 0)
    }

    @Test("a released persistence stops following: the storage tells it nothing, and it is freed")
    func releasedStopsFollowing() throws {
        let storage = PersistenceStorage.inMemory()
        let notes = MemoStore(storage)
        weak var released: Persistence<Memo>?
        do {
            let persistence = notes.store.persist(.inMemory("note"))
            released = persistence
        }
        #expect(released == nil)
        try storage.store(json(Memo(text: "after")), at: .memory("note"))
        notes.scheduler.advance(by: .seconds(5))
        #expect(notes.note.text == "")
        #expect(notes.scheduler.pendingCount == 0)
    }

    @Test("user defaults: an outside write and a removal are seen at the next poll")
    func userDefaultsFollowed() throws {
        let suite = "org.swift-paradigms.tests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let notes = MemoStore(.live, initial: Memo(text: "initial"))
        let persistence = notes.store.persist(.userDefaults(key: "note", suite: suite))
        persistence.flush()
        defaults.set(json(Memo(text: "outside")), forKey: "note")
        notes.scheduler.advance(by: .seconds(1))
        #expect(notes.note.text == "outside")
        defaults.removeObject(forKey: "note")
        notes.scheduler.advance(by: .seconds(1))
        #expect(notes.note.text == "initial")
        #expect(notes.incoming == ["loaded", "reset"])
    }

    @Test("a poll interval of zero is a precondition failure")
    func zeroPollInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let store = Store(initialState: Memo())
                _ = store.persist(.inMemory("x"), pollInterval: .zero)
            }
        }
        expectStandardError(
            of: result, contains: "Resin: persistence needs a poll interval of more than zero, or nil for none")
    }
}

@Suite("Resin: persistence follows its file")
@MainActor
struct PersistenceFileFollowingTests {
    /// Advances `notes`' scheduler, by zero, until `condition` holds: the watcher reports on a
    /// queue of its own, and its look is scheduled when it does.
    private func watched(_ notes: MemoStore, _ condition: () -> Bool) async -> Bool {
        await eventually {
            notes.scheduler.advance()
            return condition()
        }
    }

    @Test("a file written in place, replaced by a rename, moved away, removed and moved back onto is followed")
    func fileChangesFollowed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.json")
        try json(Memo(text: "first")).write(to: file)
        let notes = MemoStore(.live, initial: Memo(text: "initial"))
        // No poll: what is seen here the watcher reported (on Linux; elsewhere the poll does it).
        let poll: Duration? = FileWatcher.shared == nil ? .seconds(1) : nil
        let persistence = notes.store.persist(.file(file), pollInterval: poll)
        #expect(notes.note.text == "first")
        func step() { if poll != nil { notes.scheduler.advance(by: .seconds(1)) } }

        // In place: the same file, opened and written.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: json(Memo(text: "in place")))
        try handle.close()
        step()
        #expect(await watched(notes) { notes.note.text == "in place" })

        // An atomic replace: a new file renamed over the old.
        let other = folder.appendingPathComponent("other.json")
        try json(Memo(text: "replaced")).write(to: other)
        #expect(rename(other.path, file.path) == 0)
        step()
        #expect(await watched(notes) { notes.note.text == "replaced" })

        // Moved away: nothing is at the location any more.
        let away = folder.appendingPathComponent("away.json")
        try FileManager.default.moveItem(at: file, to: away)
        step()
        #expect(await watched(notes) { notes.note.text == "initial" })

        // Moved back onto the location.
        try FileManager.default.moveItem(at: away, to: file)
        step()
        #expect(await watched(notes) { notes.note.text == "replaced" })

        // A change not yet written, then the file is removed: the change is dropped.
        notes.store.dispatch(Edit(text: "pending"))
        try FileManager.default.removeItem(at: file)
        step()
        #expect(await watched(notes) { notes.note.text == "initial" })
        #expect(!persistence.hasPendingChanges)
        notes.scheduler.advance(by: .seconds(10))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(notes.incoming.filter { $0 == "reset" }.count == 2)
        #expect(notes.incoming.last == "reset")
        #expect(persistence.writeCount == 0)
    }

    @Test("two persistences of one file, spelled two ways, stay in sync through the file system")
    func twoPersistencesOfAFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = MemoStore(.live)
        let second = MemoStore(.live)
        let one = first.store.persist(.file(folder.appendingPathComponent("note.json")), debounce: .zero)
        let two = second.store.persist(
            .file(URL(filePath: folder.path + "//./note.json")), debounce: .zero)
        first.store.dispatch(Edit(text: "from the first"))
        first.scheduler.advance()
        second.scheduler.advance(by: .seconds(1))
        #expect(await watched(second) { second.note.text == "from the first" })
        second.store.dispatch(Edit(text: "from the second"))
        second.scheduler.advance()
        first.scheduler.advance(by: .seconds(1))
        #expect(await watched(first) { first.note.text == "from the second" })
        for notes in [first, second] { notes.scheduler.advance(by: .seconds(5)) }
        // Each wrote its own edit once: nothing was written back.
        #expect(one.writeCount == 1)
        #expect(two.writeCount == 1)
    }

    @Test("a corrupt file written from outside sets the load error; the store keeps its state")
    func corruptOutsideWrite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.json")
        try json(Memo(text: "good")).write(to: file)
        let notes = MemoStore(.live)
        let persistence = notes.store.persist(.file(file))
        try Data("{\"text\": ".utf8).write(to: file)
        notes.scheduler.advance(by: .seconds(1))
        #expect(await watched(notes) { persistence.loadError != nil })
        #expect(notes.note.text == "good")
        #expect(notes.reported.map(\.operation) == [.load])
    }
}
