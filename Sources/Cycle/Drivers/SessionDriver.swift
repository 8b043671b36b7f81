import Foundation

/// What a ``SessionDriver`` reports.
public enum SessionEvent<State: Sendable>: Sendable {
    /// The session file was read at start.
    case restored(State)
    /// There was no session file at start.
    case missing
    /// The session file could not be read or decoded; it was moved aside to `preserved` and
    /// the session starts empty.
    case corrupt(reason: String, preserved: URL?)
    /// The model was written to the session file.
    case saved
    /// The model could not be written; the previous file is intact.
    case failed(reason: String)
}

extension SessionEvent: Equatable where State: Equatable {}

/// Persists a model to a file and reads it back at start.
///
/// Writes are atomic: the model is written to a temporary file in the same folder, which then
/// replaces the session file in one rename, so a crash or a failed write never leaves a
/// truncated file and the last good file is never lost. A missing or corrupt file at start is
/// an event (``SessionEvent/missing``, ``SessionEvent/corrupt(reason:preserved:)``), never a
/// crash; a corrupt file is moved aside rather than overwritten. A model equal to the last one
/// written is not written again; a `nil` model writes nothing.
public struct SessionDriver<State: Codable & Equatable & Sendable>: Driver {
    /// The session file.
    public let url: URL

    /// A driver for the session file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Reads the session at once, then writes each new model.
    public func rendered(_ models: EventStream<State?>) -> EventStream<SessionEvent<State>> {
        let url = url
        return EventStream { sink in
            let last = LastWritten<State>()
            sink(Self.read(url))
            return models.subscribe { model in
                guard let model, model != last.value else { return }
                do {
                    try Self.write(model, to: url)
                    last.value = model
                    sink(.saved)
                } catch {
                    sink(.failed(reason: "\(error)"))
                }
            }
        }
    }

    static func read(_ url: URL) -> SessionEvent<State> {
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing }
        do {
            let data = try Data(contentsOf: url)
            return .restored(try JSONDecoder().decode(State.self, from: data))
        } catch {
            let aside = url.appendingPathExtension("corrupt-\(Int(Date().timeIntervalSince1970))")
            let preserved = (try? FileManager.default.moveItem(at: url, to: aside)) != nil ? aside : nil
            return .corrupt(reason: "\(error)", preserved: preserved)
        }
    }

    static func write(_ state: State, to url: URL) throws {
        let data = try JSONEncoder().encode(state)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw SessionWriteError(code: code)
        }
    }
}

/// A rename that failed.
struct SessionWriteError: Error, CustomStringConvertible {
    let code: Int32
    var description: String { "rename failed: \(String(cString: strerror(code)))" }
}

final class LastWritten<State> {
    var value: State?
}
