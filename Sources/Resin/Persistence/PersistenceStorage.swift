import Foundation
import ReactiveCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a persisted state is kept.
public enum PersistenceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A file.
    case file(URL)
    /// A key of the user defaults of `suite` (the standard ones for `nil`).
    case userDefaults(key: String, suite: String?)
    /// A key of the process's memory: kept while the process runs, shared by its stores.
    case memory(String)

    /// The form the cases are encoded in: `Codable`'s own for the enum.
    private enum Coded: Codable {
        case file(URL)
        case userDefaults(key: String, suite: String?)
        case memory(String)
    }

    /// Decodes a location encoded by `encode(to:)`.
    ///
    /// Throws `DecodingError.dataCorrupted` for a file location whose URL is not a file URL
    /// (`https://…` names no file to write).
    public init(from decoder: any Decoder) throws {
        switch try Coded(from: decoder) {
        case .file(let url):
            guard url.isFileURL else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "A persisted state's file location must be a file URL, not \(url)"))
            }
            self = .file(url)
        case .userDefaults(let key, let suite): self = .userDefaults(key: key, suite: suite)
        case .memory(let key): self = .memory(key)
        }
    }

    /// Encodes the case and its values.
    public func encode(to encoder: any Encoder) throws {
        let coded: Coded =
            switch self {
            case .file(let url): .file(url)
            case .userDefaults(let key, let suite): .userDefaults(key: key, suite: suite)
            case .memory(let key): .memory(key)
            }
        try coded.encode(to: encoder)
    }

    /// The same location spelled one way: a file's path with `//`, `.` and `..` taken out
    /// (`a//b.json` is `a/b.json`), so two spellings of one file are one location.
    public var normalized: PersistenceLocation {
        switch self {
        case .file(let url): .file(URL(filePath: url.standardizedFileURL.path))
        case .userDefaults, .memory: self
        }
    }

    /// The file's path, `defaults:` and the key, or `memory:` and the key.
    public var description: String {
        switch self {
        case .file(let url): url.path
        case .userDefaults(let key, let suite): "defaults:\(suite.map { "\($0)/" } ?? "")\(key)"
        case .memory(let key): "memory:\(key)"
        }
    }
}

/// Reads and writes the data of persisted states: the file system, the user defaults and the
/// process's memory in an app; a store's own memory in tests.
///
/// Stores read it from their ``Dependencies/persistenceStorage`` when ``Store/persist(_:debounce:maximumDelay:pollInterval:)-(PersistenceKey<State>,_,_,_)``
/// starts, so a test store (whose dependencies are in the test context) keeps every persisted
/// state in memory, and a test that wants two stores to share it (a relaunch) gives both the
/// same ``inMemory(_:)`` storage.
///
/// A storage may also tell when the data at a location changes (``watch(_:_:)``): the live one
/// watches files (inotify on Linux), an in-memory one tells of its own writes and removals.
/// Persistence follows those changes, and polls besides (see ``Persistence``).
public struct PersistenceStorage: Sendable {
    let read: @Sendable (PersistenceLocation) throws -> Data?
    let write: @Sendable (Data, PersistenceLocation) throws -> Void
    let remove: (@Sendable (PersistenceLocation) throws -> Void)?
    let watcher: (@Sendable (PersistenceLocation, @escaping @Sendable () -> Void) -> Connection?)?
    /// What the data at a location is now, cheaply (a file's identity, size and date; an
    /// in-memory key's version): equal stamps mean the data did not change, so a poll need
    /// not read it. `nil` where the storage cannot tell: the poll reads and compares.
    let stamp: (@Sendable (PersistenceLocation) -> StorageStamp?)?

    /// A storage that reads with `read` (`nil` when nothing is stored), writes with `write`,
    /// removes with `remove`, and tells of changes with `watch`: for a test that makes reads or
    /// writes fail, or for a store of your own (a server, a key-value service).
    ///
    /// `watch` calls its handler, on any thread, whenever the data at the location may have
    /// changed, until the connection it returns disconnects; it returns `nil` when it cannot
    /// watch that location. Without `watch`, persistence sees outside changes only when it
    /// polls. Without `remove`, ``removeData(at:)`` throws.
    public init(
        read: @escaping @Sendable (PersistenceLocation) throws -> Data?,
        write: @escaping @Sendable (Data, PersistenceLocation) throws -> Void,
        remove: (@Sendable (PersistenceLocation) throws -> Void)? = nil,
        watch: (@Sendable (PersistenceLocation, @escaping @Sendable () -> Void) -> Connection?)? = nil
    ) {
        self.init(read: read, write: write, remove: remove, watcher: watch, stamp: nil)
    }

    init(
        read: @escaping @Sendable (PersistenceLocation) throws -> Data?,
        write: @escaping @Sendable (Data, PersistenceLocation) throws -> Void,
        remove: (@Sendable (PersistenceLocation) throws -> Void)?,
        watcher: (@Sendable (PersistenceLocation, @escaping @Sendable () -> Void) -> Connection?)?,
        stamp: (@Sendable (PersistenceLocation) -> StorageStamp?)?
    ) {
        self.read = read
        self.write = write
        self.remove = remove
        self.watcher = watcher
        self.stamp = stamp
    }

    /// The data stored at `location`, or `nil` if none is.
    public func data(at location: PersistenceLocation) throws -> Data? {
        try read(location.normalized)
    }

    /// Stores `data` at `location`.
    public func store(_ data: Data, at location: PersistenceLocation) throws {
        try write(data, location.normalized)
    }

    /// Removes what is stored at `location` (nothing happens if nothing is).
    ///
    /// - Throws: ``PersistenceStorageError/cannotRemove(_:)`` for a storage made without a
    ///   way to remove; the storage's own error otherwise.
    public func removeData(at location: PersistenceLocation) throws {
        guard let remove else { throw PersistenceStorageError.cannotRemove(location) }
        try remove(location.normalized)
    }

    /// Calls `changed`, on any thread, whenever the data at `location` may have changed,
    /// until the returned connection disconnects; `nil` if the storage cannot watch it.
    public func watch(_ location: PersistenceLocation, _ changed: @escaping @Sendable () -> Void) -> Connection? {
        watcher?(location.normalized, changed)
    }

    /// Files (written atomically: to a temporary file beside, then renamed over the old one;
    /// a symbolic link is followed, so the file it points to is replaced and the link stays),
    /// user defaults, and the process's memory.
    ///
    /// Files are watched where the platform can (inotify on Linux: a write, a rename over the
    /// file, a removal and a move are seen at once); user defaults and, elsewhere, files are
    /// seen when persistence polls. The process's memory tells of its own writes.
    public static var live: PersistenceStorage {
        PersistenceStorage(
            read: { location in
                switch location {
                case .file(let url):
                    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
                    return try Data(contentsOf: url)
                case .userDefaults(let key, let suite):
                    return defaults(suite).data(forKey: key)
                case .memory(let key):
                    return processMemory.withLock { $0.contents[key] }.map { Data($0) }
                }
            },
            write: { data, location in
                switch location {
                case .file(let url):
                    try writeAtomically(data, to: url)
                case .userDefaults(let key, let suite):
                    defaults(suite).set(data, forKey: key)
                case .memory(let key):
                    processMemory.update(key) { $0 = Array(data) }
                }
            },
            remove: { location in
                switch location {
                case .file(let url):
                    guard FileManager.default.fileExists(atPath: url.path) else { return }
                    try FileManager.default.removeItem(at: url)
                case .userDefaults(let key, let suite):
                    defaults(suite).removeObject(forKey: key)
                case .memory(let key):
                    processMemory.update(key) { $0 = nil }
                }
            },
            watcher: { location, changed in
                switch location {
                case .file(let url):
                    return FileWatcher.shared?.watch(url.path) { _ in changed() }
                case .userDefaults:
                    return nil
                case .memory(let key):
                    return processMemory.watch(key, changed)
                }
            },
            stamp: { location in
                switch location {
                case .file(let url): .file(FileStamp.of(url.path))
                case .userDefaults: nil
                case .memory(let key): .version(processMemory.withLock { $0.versions[key, default: 0] })
                }
            })
    }

    /// A storage of its own in memory, holding `contents` at first; safe to use from any
    /// thread. Its writes and removals tell its watchers at once.
    public static func inMemory(_ contents: [PersistenceLocation: Data] = [:]) -> PersistenceStorage {
        let memory = WatchedMemory<PersistenceLocation, Data>(
            contents: Dictionary(contents.map { ($0.key.normalized, $0.value) }, uniquingKeysWith: { $1 }))
        return PersistenceStorage(
            read: { location in memory.withLock { $0.contents[location] } },
            write: { data, location in memory.update(location) { $0 = data } },
            remove: { location in memory.update(location) { $0 = nil } },
            watcher: { location, changed in memory.watch(location, changed) },
            stamp: { location in .version(memory.withLock { $0.versions[location, default: 0] }) })
    }
}

/// A storage could not do what was asked.
public enum PersistenceStorageError: Error, CustomStringConvertible {
    /// The storage was made without a way to remove data.
    case cannotRemove(PersistenceLocation)

    /// What could not be done, and where.
    public var description: String {
        switch self {
        case .cannotRemove(let location):
            "Resin: this persistence storage cannot remove data (it was made without `remove:`), so \(location) stays"
        }
    }
}

/// What the data at a location is now, without reading it: see `PersistenceStorage.stamp`.
enum StorageStamp: Hashable, Sendable {
    case file(FileStamp)
    case version(UInt64)
}

/// Data by key, behind a lock, with a version per key and the handlers watching each key;
/// handlers are called after the lock is let go, on the writer's thread.
final class WatchedMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Contents {
        var contents: [Key: Value]
        var versions: [Key: UInt64] = [:]
        var watchers: [Key: [UInt64: @Sendable () -> Void]] = [:]
        var nextWatcher: UInt64 = 0
    }
    private let state: LockedState<Contents>

    init(contents: [Key: Value] = [:]) {
        state = LockedState(Contents(contents: contents))
    }

    func withLock<Result>(_ body: (inout Contents) throws -> Result) rethrows -> Result {
        try state.withLock(body)
    }

    /// Changes the value at `key` with `body` (`nil`: none), then tells its watchers.
    func update(_ key: Key, _ body: (inout Value?) -> Void) {
        let watchers = state.withLock { state in
            body(&state.contents[key])
            state.versions[key, default: 0] &+= 1
            return Array((state.watchers[key] ?? [:]).values)
        }
        for watcher in watchers { watcher() }
    }

    func watch(_ key: Key, _ changed: @escaping @Sendable () -> Void) -> Connection {
        let number = state.withLock { state in
            let number = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[key, default: [:]][number] = changed
            return number
        }
        return Connection { [self] in
            state.withLock { state in
                state.watchers[key]?[number] = nil
                if state.watchers[key]?.isEmpty == true { state.watchers[key] = nil }
            }
        }
    }
}

private func defaults(_ suite: String?) -> UserDefaults {
    suite.flatMap(UserDefaults.init(suiteName:)) ?? .standard
}

/// What ``PersistenceLocation/memory(_:)`` keeps, for the whole process. Bytes, not `Data`:
/// `Data` keeps its storage behind a pointer with tag bits, which LeakSanitizer does not
/// recognise, so data kept for the process's life would be reported as leaked.
private let processMemory = WatchedMemory<String, [UInt8]>()

/// Writes `data` to the file at `url` through the package's durable writer (`DurableFile`):
/// whole or not at all, nothing left behind on a failure, a symbolic link followed (even to a
/// file not written yet) and kept. The folder is made first if it is missing.
private func writeAtomically(_ data: Data, to url: URL) throws {
    let target = DurableFile.resolvingLinks(url.path)
    try FileManager.default.createDirectory(
        at: URL(filePath: target).deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.withUnsafeBytes { bytes in
        try DurableFile.replace(atPath: target, with: bytes)
    }
}

/// The key of ``Dependencies/persistenceStorage``.
public enum PersistenceStorageKey: DependencyKey {
    /// ``PersistenceStorage/live``.
    public static var liveValue: PersistenceStorage { .live }
    /// A new ``PersistenceStorage/inMemory(_:)`` storage each time it is read: each test
    /// store starts with nothing stored.
    public static var testValue: PersistenceStorage { .inMemory() }
}

extension Dependencies {
    /// Where persisted states are read and written (see ``PersistenceStorage``).
    public var persistenceStorage: PersistenceStorage {
        get { self[PersistenceStorageKey.self] }
        set { self[PersistenceStorageKey.self] = newValue }
    }
}
