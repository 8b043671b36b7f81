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
/// Stores read it from their ``Dependencies/persistenceStorage`` when ``Store/persist(_:debounce:maximumDelay:)``
/// starts, so a test store (whose dependencies are in the test context) keeps every persisted
/// state in memory, and a test that wants two stores to share it (a relaunch) gives both the
/// same ``inMemory(_:)`` storage.
public struct PersistenceStorage: Sendable {
    let read: @Sendable (PersistenceLocation) throws -> Data?
    let write: @Sendable (Data, PersistenceLocation) throws -> Void

    /// A storage that reads with `read` (`nil` when nothing is stored) and writes with
    /// `write`: for a test that makes reads or writes fail.
    public init(
        read: @escaping @Sendable (PersistenceLocation) throws -> Data?,
        write: @escaping @Sendable (Data, PersistenceLocation) throws -> Void
    ) {
        self.read = read
        self.write = write
    }

    /// The data stored at `location`, or `nil` if none is.
    public func data(at location: PersistenceLocation) throws -> Data? {
        try read(location)
    }

    /// Stores `data` at `location`.
    public func store(_ data: Data, at location: PersistenceLocation) throws {
        try write(data, location)
    }

    /// Files (written atomically: to a temporary file beside, then renamed over the old one;
    /// a symbolic link is followed, so the file it points to is replaced and the link stays),
    /// user defaults, and the process's memory.
    public static var live: PersistenceStorage {
        PersistenceStorage(
            read: { location in
                switch location {
                case .file(let url):
                    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
                    return try Data(contentsOf: url)
                case .userDefaults(let key, let suite):
                    return (suite.flatMap(UserDefaults.init(suiteName:)) ?? .standard).data(forKey: key)
                case .memory(let key):
                    return processMemory.withLock { $0[key] }.map { Data($0) }
                }
            },
            write: { data, location in
                switch location {
                case .file(let url):
                    try writeAtomically(data, to: url)
                case .userDefaults(let key, let suite):
                    (suite.flatMap(UserDefaults.init(suiteName:)) ?? .standard).set(data, forKey: key)
                case .memory(let key):
                    processMemory.withLock { $0[key] = Array(data) }
                }
            })
    }

    /// A storage of its own in memory, holding `contents` at first; safe to use from any
    /// thread.
    public static func inMemory(_ contents: [PersistenceLocation: Data] = [:]) -> PersistenceStorage {
        let memory = LockedState(contents)
        return PersistenceStorage(
            read: { location in memory.withLock { $0[location] } },
            write: { data, location in memory.withLock { $0[location] = data } })
    }
}

/// What ``PersistenceLocation/memory(_:)`` keeps, for the whole process. Bytes, not `Data`:
/// `Data` keeps its storage behind a pointer with tag bits, which LeakSanitizer does not
/// recognise, so data kept for the process's life would be reported as leaked.
private let processMemory = LockedState<[String: [UInt8]]>([:])

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
