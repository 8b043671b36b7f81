import Foundation

/// What a ``SessionDriver`` reports.
public enum SessionEvent<State: Sendable>: Sendable {
    /// The session file was read at start.
    case restored(State)
    /// There was no session file at start.
    case missing
    /// The session file could not be read or decoded; it was moved aside to `preserved` and
    /// the session starts empty. `preserved` is `nil` when the file could not be moved: the
    /// driver then writes nothing over it (each save fails, after trying again to move it).
    case corrupt(reason: String, preserved: URL?)
    /// The model was written to the session file.
    case saved
    /// The model could not be written; the previous file is intact.
    case failed(reason: String)
}

extension SessionEvent: Equatable where State: Equatable {}

/// Persists a model to a file and reads it back at start.
///
/// - **Atomic writes.** The model is written to a temporary file in the session file's
///   folder, flushed to the disk, and renamed over the session file, so a crash or a failed
///   write never leaves a truncated file and the last good file is never lost. A write that
///   fails (a full disk) removes its temporary file, whatever step failed.
/// - **Corrupt files are kept.** A missing or corrupt file at start is an event
///   (``SessionEvent/missing``, ``SessionEvent/corrupt(reason:preserved:)``), never a crash. A
///   corrupt file is moved aside to a name of its own (`session.json.corrupt-<time>-<unique>`,
///   which no earlier one can hold), and the driver never writes over a corrupt file it has
///   not moved aside.
/// - **Links are followed.** When the session file is a symbolic link, the file it points to
///   is read and replaced; the link stays.
/// - A model equal to the last one written is not written again; a `nil` model writes
///   nothing.
///
/// Failures carry readable reasons that name the session file and the cause
/// ("could not write session.json: No space left on device").
public struct SessionDriver<State: Codable & Equatable & Sendable>: Driver {
    /// The session file.
    public let url: URL
    /// The file operations the driver makes; replaced by tests to inject faults.
    var files = SessionFiles()

    /// A driver for the session file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Reads the session at once, then writes each new model.
    public func rendered(_ models: EventStream<State?>) -> EventStream<SessionEvent<State>> {
        let url = url
        let files = files
        return EventStream { sink in
            let session = SessionFileState<State>()
            sink(Self.read(url, files: files, into: session))
            return models.subscribe { model in
                guard let model, model != session.lastWritten else { return }
                do {
                    try Self.preservePendingCorruptFile(of: url, files: files, session: session)
                    try Self.write(model, to: url, files: files)
                    session.lastWritten = model
                    sink(.saved)
                } catch {
                    sink(.failed(reason: "\(error)"))
                }
            }
        }
    }

    static func read(_ url: URL, files: SessionFiles, into session: SessionFileState<State>) -> SessionEvent<State> {
        let target = SessionFiles.followingLinks(url)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder) else { return .missing }
        let name = target.lastPathComponent
        let reason: String
        if isFolder.boolValue {
            reason = "could not read \(name): it is a folder, not a file"
        } else {
            do {
                let data = try Data(contentsOf: target)
                do {
                    return .restored(try JSONDecoder().decode(State.self, from: data))
                } catch {
                    reason = "\(name) does not hold a \(State.self): \(SessionFileError.reason(for: error))"
                }
            } catch {
                reason = "could not read \(name): \(SessionFileError.reason(for: error))"
            }
        }
        session.corruptFile = target
        let preserved = try? preservePendingCorruptFile(of: url, files: files, session: session)
        return .corrupt(reason: reason, preserved: preserved)
    }

    /// Moves the corrupt file found at start aside, if it is still in place; returns where it
    /// went. Throws if it could not be moved, so that nothing is written over it.
    @discardableResult
    static func preservePendingCorruptFile(
        of url: URL, files: SessionFiles, session: SessionFileState<State>
    ) throws -> URL? {
        guard let corrupt = session.corruptFile else { return nil }
        var lastError: (any Error)?
        // A name with the time and a random part: it cannot be taken, but a move never
        // replaces anything, so a name found taken is only retried with another.
        for _ in 0..<3 {
            let aside = corrupt.deletingLastPathComponent().appendingPathComponent(
                "\(corrupt.lastPathComponent).corrupt-\(timestamp())-\(UUID().uuidString.prefix(8))")
            do {
                try files.moveAside(corrupt, aside)
                session.corruptFile = nil
                return aside
            } catch {
                lastError = error
            }
        }
        throw SessionFileError(
            "the corrupt \(corrupt.lastPathComponent) could not be moved aside, so it is not overwritten",
            cause: lastError.map(SessionFileError.reason(for:)))
    }

    static func write(_ state: State, to url: URL, files: SessionFiles) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(state)
        } catch {
            throw SessionFileError("could not encode the model", cause: SessionFileError.reason(for: error))
        }
        try files.replace(SessionFiles.followingLinks(url), data)
    }

    private static func timestamp() -> String {
        let seconds = Int(Date().timeIntervalSince1970)
        return String(seconds)
    }
}

/// What one subscription of a session driver remembers.
final class SessionFileState<State> {
    var lastWritten: State?
    /// The corrupt file found at start, while it has not been moved aside.
    var corruptFile: URL?
}

/// The file operations of a ``SessionDriver``.
struct SessionFiles: Sendable {
    /// Moves the file at the first URL to the second, never replacing an existing file.
    var moveAside: @Sendable (URL, URL) throws -> Void = { from, to in
        try FileManager.default.moveItem(at: from, to: to)
    }
    /// Replaces the file at the URL with the data, atomically.
    var replace: @Sendable (URL, Data) throws -> Void = { url, data in
        try SessionFiles.replaceAtomically(url, with: data)
    }
}

extension SessionFiles {
    /// The file that `url` names once symbolic links in its last component are followed
    /// (``DurableFile/resolvingLinks(_:)``): where a corrupt file is moved aside from.
    static func followingLinks(_ url: URL) -> URL {
        URL(filePath: DurableFile.resolvingLinks(url.path))
    }

    /// Replaces the file at `url` with `data` through the package's durable writer: whole or
    /// not at all, nothing left behind on a failure (see `DurableFile`).
    static func replaceAtomically(_ url: URL, with data: Data) throws {
        do {
            try data.withUnsafeBytes { bytes in
                try DurableFile.replace(atPath: url.path, with: bytes)
            }
        } catch {
            throw SessionFileError("\(error)", cause: nil)
        }
    }
}

/// A session file operation that failed, with a reason a person can read.
struct SessionFileError: Error, CustomStringConvertible {
    let description: String

    init(_ what: String, cause: String?) {
        description = cause.map { "\(what): \($0)" } ?? what
    }

    static func posix(_ what: String, _ code: Int32) -> SessionFileError {
        SessionFileError(what, cause: String(cString: strerror(code)))
    }
}

extension SessionFileError {
    /// A short account of `error`: the POSIX cause of a Foundation file error, the coding path
    /// of a decoding error; never a raw `NSError` dump with temporary paths.
    static func reason(for error: any Error) -> String {
        switch error {
        case let error as SessionFileError:
            return error.description
        case let error as DecodingError:
            switch error {
            case .dataCorrupted(let context):
                return context.codingPath.isEmpty ? "not valid JSON" : "a bad value at \(path(context.codingPath))"
            case .keyNotFound(let key, let context):
                return "no value for \(path(context.codingPath + [key]))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                return "a value of the wrong type at \(path(context.codingPath))"
            @unknown default:
                return "it cannot be decoded"
            }
        case let error as EncodingError:
            if case .invalidValue(_, let context) = error { return "an invalid value at \(path(context.codingPath))" }
            return "it cannot be encoded"
        default:
            let error = error as NSError
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
                underlying.domain == NSPOSIXErrorDomain
            {
                return String(cString: strerror(Int32(underlying.code)))
            }
            if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
            switch error.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
            case NSFileWriteOutOfSpaceError: return "no space left on the device"
            case NSFileWriteFileExistsError: return "a file of that name exists"
            default: return "the operation failed (code \(error.code))"
            }
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "the top level"
            : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
