import Cycle
import Foundation
import ReactiveCore
import Testing

/// A store that records its writes and fails on the keys it is told to.
private final class RecordingStore: KeyValueStore {
    struct Refused: Error, CustomStringConvertible {
        let key: String
        var description: String { "refused \(key)" }
    }

    var storage: [String: Int]
    var writes: [String] = []
    var failing: Set<String> = []
    var unreadable = false

    init(_ entries: [String: Int]) { storage = entries }

    func entries() throws -> [String: Int] {
        if unreadable { throw Refused(key: "*") }
        return storage
    }

    func set(_ value: Int, forKey key: String) throws {
        if failing.contains(key) { throw Refused(key: key) }
        writes.append("set \(key)=\(value)")
        storage[key] = value
    }

    func removeValue(forKey key: String) throws {
        if failing.contains(key) { throw Refused(key: key) }
        writes.append("remove \(key)")
        storage[key] = nil
    }
}

@Suite("Cycle: the key-value storage driver")
struct KeyValueStorageDriverTests {
    @Test("it reports the entries when wired, writes only what a model changes, and nothing for nil or an equal model")
    func writesDifferences() {
        let store = RecordingStore(["a": 1, "b": 2])
        let models = EventSubject<[String: Int]?>()
        var events: [KeyValueEvent<Int>] = []
        let connection = KeyValueStorageDriver(store: store).rendered(models.stream).subscribe { events.append($0) }
        #expect(events == [.loaded(["a": 1, "b": 2])])
        models.send(nil)
        models.send(["a": 1, "b": 2])
        #expect(store.writes.isEmpty)
        models.send(["a": 1, "b": 3, "c": 4])
        #expect(store.writes.sorted() == ["set b=3", "set c=4"])
        models.send(["c": 4])
        #expect(store.writes.sorted() == ["remove a", "remove b", "set b=3", "set c=4"])
        #expect(store.storage == ["c": 4])
        connection.disconnect()
    }

    @Test("a write that fails is reported and tried again with the next model; an unreadable store starts empty")
    func failures() {
        let store = RecordingStore([:])
        store.failing = ["x"]
        let models = EventSubject<[String: Int]?>()
        var events: [KeyValueEvent<Int>] = []
        let connection = KeyValueStorageDriver(store: store).rendered(models.stream).subscribe { events.append($0) }
        models.send(["x": 1, "y": 2])
        #expect(events == [.loaded([:]), .failed(key: "x", reason: "refused x")])
        store.failing = []
        models.send(["x": 1, "y": 2, "z": 3])
        #expect(store.storage == ["x": 1, "y": 2, "z": 3])
        connection.disconnect()

        let broken = RecordingStore(["kept": 1])
        broken.unreadable = true
        var brokenEvents: [KeyValueEvent<Int>] = []
        let brokenModels = EventSubject<[String: Int]?>()
        let second = KeyValueStorageDriver(store: broken).rendered(brokenModels.stream).subscribe {
            brokenEvents.append($0)
        }
        brokenModels.send(["new": 2])
        #expect(brokenEvents == [.unreadable(reason: "refused *")])
        // Only what the program set is written: the entry it could not read stays.
        #expect(broken.storage == ["kept": 1, "new": 2])
        second.disconnect()
    }

    @Test("UserDefaults: the entries under the prefix, and only they, are read and written")
    func userDefaults() throws {
        let suite = "cycle-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("other", forKey: "unrelated")
        defaults.set("1", forKey: "app.count")
        let store = UserDefaultsKeyValueStore(defaults: defaults, prefix: "app.")
        let models = EventSubject<[String: String]?>()
        var events: [KeyValueEvent<String>] = []
        let connection = KeyValueStorageDriver(store: store).rendered(models.stream).subscribe { events.append($0) }
        #expect(events == [.loaded(["count": "1"])])
        models.send(["count": "2", "name": "Ada"])
        #expect(store.entries() == ["count": "2", "name": "Ada"])
        #expect(defaults.string(forKey: "unrelated") == "other")
        connection.disconnect()
    }

    @Test("an in-memory store holds what the driver writes")
    func inMemory() {
        let store = InMemoryKeyValueStore(["a": "1"])
        let models = EventSubject<[String: String]?>()
        let connection = KeyValueStorageDriver(store: store).rendered(models.stream).subscribe { _ in }
        models.send(["b": "2"])
        #expect(store.storage == ["b": "2"])
        connection.disconnect()
    }
}
