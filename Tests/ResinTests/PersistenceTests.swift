import Foundation
import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Preferences: Codable, Equatable, Sendable {
    var theme = "light"
    var fontSize = 12
}

private struct PersistedApp: Equatable {
    var preferences = Preferences()
    var drafts: [String] = []
}

private struct SetTheme: Action, Equatable { var theme: String }
private struct SetFontSize: Action, Equatable { var size: Int }
private struct ThemeThenBack: Action, Equatable {}

private let preferencesLocation = PersistenceLocation.memory("preferences")

/// A persistence storage that counts its writes and can be told to fail.
private final class FlakyStorage: Sendable {
    private let state = LockedState<
        (data: [PersistenceLocation: Data], failWrites: Bool, failedWrites: Int, writes: Int)
    >(
        ([:], false, 0, 0))

    var failWrites: Bool {
        get { state.withLock { $0.failWrites } }
        set { state.withLock { $0.failWrites = newValue } }
    }
    var writes: Int { state.withLock { $0.writes } }
    var failedWrites: Int { state.withLock { $0.failedWrites } }

    func data(at location: PersistenceLocation) -> Data? { state.withLock { $0.data[location] } }

    func set(_ data: Data, at location: PersistenceLocation) { state.withLock { $0.data[location] = data } }

    var storage: PersistenceStorage {
        PersistenceStorage(
            read: { [self] location in data(at: location) },
            write: { [self] data, location in
                try state.withLock { state in
                    if state.failWrites {
                        state.failedWrites += 1
                        throw CocoaError(.fileWriteNoPermission)
                    }
                    state.writes += 1
                    state.data[location] = data
                }
            })
    }
}

/// Makes a store of `PersistedApp` on a test scheduler with `storage`, its reducers, and a
/// list of the errors it reports.
@MainActor
private func persistedStore(
    _ storage: PersistenceStorage, initial: PersistedApp = PersistedApp()
) -> (Store<PersistedApp>, TestScheduler, Connection, ErrorList) {
    let scheduler = TestScheduler()
    var dependencies = Dependencies()
    dependencies.persistenceStorage = storage
    let store = Store(initialState: initial, scheduler: scheduler, dependencies: dependencies)
    let errors = ErrorList()
    store.unhandledErrorHandler = { errors.append($0) }
    let reducers = Connection(grouping: [
        store.register(Reducer<PersistedApp, SetTheme> { $0.preferences.theme = $1.theme }),
        store.register(Reducer<PersistedApp, SetFontSize> { $0.preferences.fontSize = $1.size }),
        store.register(
            Reducer<PersistedApp, ThemeThenBack> { state, _ in
                let theme = state.preferences.theme
                state.preferences.theme = "changed"
                state.preferences.theme = theme
            }),
    ])
    return (store, scheduler, reducers, errors)
}

/// The errors a store reported.
private final class ErrorList {
    var errors: [any Error] = []
    func append(_ error: any Error) { errors.append(error) }
    var persistenceErrors: [PersistenceError] { errors.compactMap { $0 as? PersistenceError } }
}

private func decoded(_ data: Data?) -> Preferences? {
    data.flatMap { try? JSONDecoder().decode(Preferences.self, from: $0) }
}

private func encoded(_ preferences: Preferences) -> Data {
    // Two strings and an integer always encode.
    (try? JSONEncoder().encode(preferences)) ?? Data()
}

@Suite("Resin: persisted state")
struct PersistenceTests {
    @Test("a stored state is loaded at start with an action; a change is written once, a debounce after the last")
    @MainActor
    func loadAndDebounce() {
        let flaky = FlakyStorage()
        flaky.set(encoded(Preferences(theme: "dark", fontSize: 14)), at: preferencesLocation)
        let (store, scheduler, reducers, errors) = persistedStore(flaky.storage)
        var loads: [PersistedStateLoaded<Preferences>] = []
        let spy = store.register(
            Middleware { action, _ in
                if let loaded = action as? PersistedStateLoaded<Preferences> { loads.append(loaded) }
                return .pass
            })
        let persistence = store.focus(\.preferences).persist(.inMemory("preferences"), debounce: .seconds(1))
        #expect(store.state.value.preferences == Preferences(theme: "dark", fontSize: 14))
        #expect(loads == [PersistedStateLoaded(Preferences(theme: "dark", fontSize: 14), from: preferencesLocation)])
        #expect(flaky.writes == 0)
        for size in 15...20 {
            store.dispatch(SetFontSize(size: size))
            scheduler.advance(by: .milliseconds(500))
        }
        #expect(flaky.writes == 0)
        #expect(persistence.hasPendingChanges)
        scheduler.advance(by: .milliseconds(500))
        #expect(flaky.writes == 1)
        #expect(decoded(flaky.data(at: preferencesLocation)) == Preferences(theme: "dark", fontSize: 20))
        #expect(!persistence.hasPendingChanges)
        #expect(errors.errors.isEmpty)
        _ = (reducers, spy)
    }

    @Test("changes that never pause are written at least every maximum delay")
    @MainActor
    func maximumDelay() {
        let flaky = FlakyStorage()
        let (store, scheduler, reducers, _) = persistedStore(flaky.storage)
        let persistence = store.focus(\.preferences).persist(
            .inMemory("preferences"), debounce: .seconds(1), maximumDelay: .seconds(3))
        for size in 1...20 {
            store.dispatch(SetFontSize(size: size))
            scheduler.advance(by: .milliseconds(500))
        }
        // 10 s of changes every 0.5 s: a write at 3 s, 6.5 s and 10 s.
        #expect(flaky.writes == 3)
        persistence.flush()
        #expect(decoded(flaky.data(at: preferencesLocation))?.fontSize == 20)
        _ = reducers
    }

    @Test("a write of the same value, or an action that changes and reverts, writes nothing")
    @MainActor
    func noOpWrites() {
        let flaky = FlakyStorage()
        flaky.set(encoded(Preferences()), at: preferencesLocation)
        let (store, scheduler, reducers, _) = persistedStore(flaky.storage)
        let persistence = store.focus(\.preferences).persist(.inMemory("preferences"))
        store.dispatch(SetTheme(theme: "light"))
        store.dispatch(ThemeThenBack())
        #expect(!persistence.hasPendingChanges)
        store.dispatch(SetTheme(theme: "dark"))
        store.dispatch(SetTheme(theme: "light"))
        #expect(!persistence.hasPendingChanges)
        scheduler.advance(by: .seconds(10))
        persistence.flush()
        #expect(flaky.writes == 0)
        _ = reducers
    }

    @Test("a corrupt file is reported, left as it is, and the store starts from its own value")
    @MainActor
    func corruptFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("preferences.json")
        let corrupt = Data(#"{"theme": "dark", "fontSi"#.utf8)
        try corrupt.write(to: file)
        let (store, scheduler, reducers, errors) = persistedStore(.live)
        let persistence = store.focus(\.preferences).persist(.jsonFile(file))
        #expect(store.state.value.preferences == Preferences())
        #expect(errors.persistenceErrors.count == 1)
        #expect(errors.persistenceErrors.first?.operation == .load)
        #expect(errors.persistenceErrors.first?.location == .file(file))
        #expect(
            "\(errors.persistenceErrors[0])".hasPrefix("Resin: the persisted state at \(file.path) could not be loaded")
        )
        scheduler.advance(by: .seconds(10))
        persistence.flush()
        store.dispatch(SetTheme(theme: "light"))
        persistence.flush()
        #expect(try Data(contentsOf: file) == corrupt)
        // A real change is newer than the file that could not be read: it is written.
        store.dispatch(SetTheme(theme: "dark"))
        persistence.flush()
        #expect(decoded(try Data(contentsOf: file)) == Preferences(theme: "dark", fontSize: 12))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["preferences.json"])
        _ = reducers
    }

    @Test("an unreadable file (a folder in its place) is reported, and writing it fails without a crash")
    @MainActor
    func unreadableFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString)")
        let file = directory.appendingPathComponent("preferences.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _, reducers, errors) = persistedStore(.live)
        let persistence = store.focus(\.preferences).persist(.jsonFile(file))
        #expect(errors.persistenceErrors.map(\.operation) == [.load])
        store.dispatch(SetTheme(theme: "dark"))
        persistence.flush()
        #expect(errors.persistenceErrors.map(\.operation) == [.load, .save])
        #expect(persistence.hasPendingChanges)
        #expect(store.state.value.preferences.theme == "dark")
        _ = reducers
    }

    @Test("a failed write is reported and tried again at the next change and at a flush")
    @MainActor
    func failedWriteRetried() {
        let flaky = FlakyStorage()
        let (store, scheduler, reducers, errors) = persistedStore(flaky.storage)
        let persistence = store.focus(\.preferences).persist(.inMemory("preferences"))
        flaky.failWrites = true
        store.dispatch(SetTheme(theme: "dark"))
        scheduler.advance(by: .seconds(1))
        #expect(flaky.failedWrites == 1)
        #expect(errors.persistenceErrors.map(\.operation) == [.save])
        #expect(persistence.hasPendingChanges)
        store.dispatch(SetFontSize(size: 30))
        scheduler.advance(by: .seconds(1))
        #expect(flaky.failedWrites == 2)
        flaky.failWrites = false
        persistence.flush()
        #expect(decoded(flaky.data(at: preferencesLocation)) == Preferences(theme: "dark", fontSize: 30))
        #expect(!persistence.hasPendingChanges)
        _ = reducers
    }

    @Test("a write storm loses nothing: whatever the timing and failures, a flush stores the last state")
    @MainActor
    func writeStorm() {
        var generator = SeededGenerator(seed: 4040)
        for _ in 0..<20 {
            let flaky = FlakyStorage()
            let (store, scheduler, reducers, _) = persistedStore(flaky.storage)
            let persistence = store.focus(\.preferences).persist(
                .inMemory("preferences"), debounce: .milliseconds(100), maximumDelay: .milliseconds(400))
            var seen: [Preferences] = [Preferences()]
            for step in 0..<2_000 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: scheduler.advance(by: .milliseconds(Int.random(in: 0...150, using: &generator)))
                case 1: flaky.failWrites.toggle()
                case 2: store.dispatch(SetTheme(theme: ["light", "dark", "sepia"].randomElement(using: &generator)!))
                default: store.dispatch(SetFontSize(size: step % 40))
                }
                seen.append(store.state.value.preferences)
                // What is stored is always a state the store was in, never a mix or a default.
                if let stored = decoded(flaky.data(at: preferencesLocation)) { #expect(seen.contains(stored)) }
            }
            flaky.failWrites = false
            persistence.flush()
            #expect(decoded(flaky.data(at: preferencesLocation)) == store.state.value.preferences)
            #expect(flaky.writes < 2_000)
            _ = reducers
        }
    }

    @Test("a JSON file is written atomically: no temporary file stays, and a relaunch loads it")
    @MainActor
    func fileRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("nested/preferences.json")
        do {
            let (store, _, reducers, errors) = persistedStore(.live)
            let persistence = store.focus(\.preferences).persist(.jsonFile(file))
            store.dispatch(SetTheme(theme: "sepia"))
            persistence.disconnect()
            store.dispatch(SetTheme(theme: "dark"))
            #expect(errors.errors.isEmpty)
            _ = reducers
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == [
                "preferences.json"
            ])
        let (store, _, reducers, _) = persistedStore(.live)
        let persistence = store.focus(\.preferences).persist(.jsonFile(file))
        #expect(store.state.value.preferences.theme == "sepia")
        _ = (persistence, reducers)
    }

    @Test(
        "a JSON file is written by the package's durable writer: a link to a file not written yet is kept, and a failed write leaves nothing"
    )
    @MainActor
    func usesTheDurableWriter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("preferences.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "later.json")
        let blocked = directory.appendingPathComponent("blocked.json")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: false)
        do {
            let (store, _, reducers, errors) = persistedStore(.live)
            let persistence = store.focus(\.preferences).persist(.jsonFile(link))
            let failing = store.focus(\.preferences).persist(.jsonFile(blocked))
            store.dispatch(SetTheme(theme: "sepia"))
            persistence.disconnect()
            failing.disconnect()
            #expect(errors.errors.contains { "\($0)".contains("blocked.json") }, "the failed write is reported")
            _ = reducers
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "later.json")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("later.json").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "blocked.json", "later.json", "preferences.json",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocked.path).isEmpty)
    }

    @Test(
        "a JSON file behind a symbolic link is replaced where it lies, the link kept; two writes in a second both land")
    @MainActor
    func symlinkedFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("data/preferences.json")
        let link = directory.appendingPathComponent("preferences.json")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoded(Preferences(theme: "dark")).write(to: real)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let (store, _, reducers, errors) = persistedStore(.live)
        let persistence = store.focus(\.preferences).persist(.jsonFile(link), debounce: .zero)
        #expect(store.state.value.preferences.theme == "dark")
        store.dispatch(SetTheme(theme: "sepia"))
        persistence.flush()
        store.dispatch(SetFontSize(size: 30))
        persistence.flush()
        #expect(persistence.writeCount == 2)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(decoded(try Data(contentsOf: real)) == Preferences(theme: "sepia", fontSize: 30))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: real.deletingLastPathComponent().path) == [
                "preferences.json"
            ])
        #expect(errors.errors.isEmpty)
        _ = reducers
    }

    @Test("releasing a persistence writes what is pending; a store shares it with the next through the storage")
    @MainActor
    func relaunch() {
        let storage = PersistenceStorage.inMemory()
        weak var releasedEngine: AnyObject?
        do {
            let (store, _, reducers, _) = persistedStore(storage)
            var persistence: Persistence<Preferences>? = store.focus(\.preferences).persist(.inMemory("preferences"))
            store.dispatch(SetFontSize(size: 9))
            #expect(persistence?.hasPendingChanges == true)
            persistence = nil
            releasedEngine = store.engineForTesting.engine
            _ = reducers
        }
        #expect(releasedEngine == nil)
        let (store, _, reducers, _) = persistedStore(storage)
        let persistence = store.focus(\.preferences).persist(.inMemory("preferences"))
        #expect(store.state.value.preferences.fontSize == 9)
        _ = (persistence, reducers)
    }

    @Test("the in-memory strategy outlives a store; the user defaults strategy keeps JSON under its key")
    @MainActor
    func liveStrategies() throws {
        let key = "resin-tests-\(UUID().uuidString)"
        do {
            let (store, _, reducers, _) = persistedStore(.live)
            let persistence = store.focus(\.preferences).persist(.inMemory(key))
            store.dispatch(SetTheme(theme: "memory"))
            persistence.disconnect()
            _ = reducers
        }
        let (store, _, reducers, errors) = persistedStore(.live)
        let memory = store.focus(\.preferences).persist(.inMemory(key))
        #expect(store.state.value.preferences.theme == "memory")
        memory.disconnect()
        let suite = "org.swift-paradigms.tests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = store.focus(\.preferences).persist(.userDefaults(key: key, suite: suite))
        store.dispatch(SetFontSize(size: 21))
        defaults.flush()
        let data = try #require(UserDefaults(suiteName: suite)?.data(forKey: key))
        #expect(decoded(data) == Preferences(theme: "memory", fontSize: 21))
        #expect(errors.errors.isEmpty)
        _ = reducers
    }

    @Test("persistence started during an action loads after it, and a load replaces what the action did")
    @MainActor
    func reentrantStart() {
        let flaky = FlakyStorage()
        flaky.set(encoded(Preferences(theme: "stored", fontSize: 1)), at: preferencesLocation)
        let (store, _, reducers, _) = persistedStore(flaky.storage)
        var persistence: Persistence<Preferences>?
        let starter = store.register(
            Reducer<PersistedApp, SetFontSize> { state, _ in
                state.drafts.append("started")
            })
        let watcher = store.focus(\.drafts).state.observe { drafts in
            if drafts == ["started"], persistence == nil {
                persistence = store.focus(\.preferences).persist(.inMemory("preferences"))
                // Not loaded yet: the action that started it is still under way.
                #expect(store.state.value.preferences.fontSize == 5)
            }
        }
        store.dispatch(SetFontSize(size: 5))
        #expect(store.state.value.preferences == Preferences(theme: "stored", fontSize: 1))
        #expect(persistence?.hasPendingChanges == false)
        _ = (reducers, starter, watcher)
    }

    @Test("a test store keeps persisted state in memory: nothing reaches the file")
    func testStoreUsesMemory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resin-\(UUID().uuidString).json")
        var persistence: Persistence<Preferences>?
        let store = TestStore(initialState: PersistedApp()) { store in
            persistence = store.focus(\.preferences).persist(.jsonFile(file), debounce: .zero)
            return store.register(Reducer<PersistedApp, SetTheme> { $0.preferences.theme = $1.theme })
        }
        store.send(SetTheme(theme: "dark")) { $0.preferences.theme = "dark" }
        persistence?.flush()
        #expect(persistence?.writeCount == 1)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await store.finish()
    }

    @Test("a negative debounce is a precondition failure")
    func negativeDebounce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store(initialState: Preferences())
            _ = store.persist(.inMemory("x"), debounce: .seconds(-1))
        }
        expectStandardError(
            of: result, contains: "Resin: persistence needs a debounce and a maximum delay of zero or more")
    }
}
