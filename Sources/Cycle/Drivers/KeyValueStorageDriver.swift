import Foundation

/// Where a ``KeyValueStorageDriver`` keeps its entries: a store of values by string key.
///
/// ``InMemoryKeyValueStore`` keeps them in memory (tests, previews); ``UserDefaultsKeyValueStore``
/// in `UserDefaults`. Conform your own to keep them elsewhere; a method that throws reports its
/// failure as an event.
public protocol KeyValueStore<Value>: AnyObject {
    /// The type of the values.
    associatedtype Value

    /// Every entry the store holds.
    func entries() throws -> [String: Value]
    /// Stores `value` under `key`, replacing what was there.
    func set(_ value: Value, forKey key: String) throws
    /// Removes the entry under `key`, if any.
    func removeValue(forKey key: String) throws
}

/// A ``KeyValueStore`` in memory.
public final class InMemoryKeyValueStore<Value>: KeyValueStore {
    /// The entries.
    public private(set) var storage: [String: Value]

    /// A store holding `entries`.
    public init(_ entries: [String: Value] = [:]) {
        storage = entries
    }

    /// Every entry.
    public func entries() -> [String: Value] { storage }

    /// Stores `value` under `key`.
    public func set(_ value: Value, forKey key: String) { storage[key] = value }

    /// Removes the entry under `key`.
    public func removeValue(forKey key: String) { storage[key] = nil }
}

/// A ``KeyValueStore`` of strings in `UserDefaults`, under keys that start with a prefix of
/// its own, so that it sees and changes only its entries.
public final class UserDefaultsKeyValueStore: KeyValueStore {
    private let defaults: UserDefaults
    private let prefix: String

    /// A store in `defaults` (the standard ones by default), its keys prefixed with `prefix`.
    public init(defaults: UserDefaults = .standard, prefix: String) {
        self.defaults = defaults
        self.prefix = prefix
    }

    /// The entries under the prefix, the prefix taken off their keys.
    public func entries() -> [String: String] {
        var entries: [String: String] = [:]
        for (key, value) in defaults.dictionaryRepresentation() where key.hasPrefix(prefix) {
            if let value = value as? String { entries[String(key.dropFirst(prefix.count))] = value }
        }
        return entries
    }

    /// Stores `value` under the prefixed `key`.
    public func set(_ value: String, forKey key: String) { defaults.set(value, forKey: prefix + key) }

    /// Removes the entry under the prefixed `key`.
    public func removeValue(forKey key: String) { defaults.removeObject(forKey: prefix + key) }
}

/// What a ``KeyValueStorageDriver`` reports.
public enum KeyValueEvent<Value> {
    /// The store's entries, read when the driver was wired.
    case loaded([String: Value])
    /// The store could not be read when the driver was wired; it starts as if empty, and
    /// only the entries the program sets are written.
    case unreadable(reason: String)
    /// Writing the entry under `key` failed; it is tried again with the next model.
    case failed(key: String, reason: String)
}

extension KeyValueEvent: Equatable where Value: Equatable {}
extension KeyValueEvent: Sendable where Value: Sendable {}

/// Keeps a store's entries equal to the program's model: the key–value storage driver, as
/// Cycle.js's `@cycle/storage` keeps `localStorage`.
///
/// When it is wired it reads the store and reports ``KeyValueEvent/loaded(_:)``. For each
/// model after that it writes only what differs from what it last wrote (or loaded): an entry
/// set or changed is stored, an entry gone is removed. A model equal to the last one writes
/// nothing, and a `nil` model writes nothing (the program has not taken the loaded entries in
/// yet: an empty model there would erase the store). A write that fails is reported with
/// ``KeyValueEvent/failed(key:reason:)``, and the entry is tried again with the next model.
///
/// ```swift
/// let storage = KeyValueStorageDriver(store: UserDefaultsKeyValueStore(prefix: "todo."))
/// // models: nil until .loaded(entries) arrives, then the entries the program wants kept
/// ```
///
/// In tests, give it an ``InMemoryKeyValueStore``, or put a ``DriverScript`` in its place.
public struct KeyValueStorageDriver<Store: KeyValueStore>: Driver where Store.Value: Equatable {
    private let store: Store

    /// A driver that keeps `store`'s entries.
    public init(store: Store) {
        self.store = store
    }

    /// Reports the entries at once, then writes what each model changes.
    public func rendered(_ models: EventStream<[String: Store.Value]?>) -> EventStream<KeyValueEvent<Store.Value>> {
        let store = store
        return EventStream { sink in
            var written: [String: Store.Value]
            do {
                written = try store.entries()
                sink(.loaded(written))
            } catch {
                written = [:]
                sink(.unreadable(reason: "\(error)"))
            }
            return models.subscribe { model in
                guard let model, model != written else { return }
                for key in written.keys where model[key] == nil {
                    do {
                        try store.removeValue(forKey: key)
                        written[key] = nil
                    } catch {
                        sink(.failed(key: key, reason: "\(error)"))
                    }
                }
                for (key, value) in model where written[key] != value {
                    do {
                        try store.set(value, forKey: key)
                        written[key] = value
                    } catch {
                        sink(.failed(key: key, reason: "\(error)"))
                    }
                }
            }
        }
    }
}
