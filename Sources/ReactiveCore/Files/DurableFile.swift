#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way the package writes a file: whole or not at all, durably, through symbolic
/// links, cleaning up after itself and after writers that were killed.
///
/// Every component that writes a file uses it (Cycle's session driver, Resin's persistence,
/// the example programs' tapes), so a fix to how files are written reaches all of them. The
/// rules, each tested in `ReactiveCoreTests/DurableFileTests.swift`:
///
/// - **Whole or not at all.** The bytes go to a new temporary file in the same folder, which is
///   flushed to the disk and then renamed over the file. A reader, or a process killed at any
///   moment, sees the old file or the new one, never part of one.
/// - **Nothing left behind.** A write that fails (a full disk, a read-only folder, a folder
///   where the file should be) removes its temporary file and leaves the file as it was. The
///   temporary file of a writer that was killed is removed the next time the same file is
///   written: its name holds the writer's process id, and a process that no longer runs left it.
/// - **Links are followed.** A symbolic link where the file should be is followed, through
///   chains of links, relative or absolute, to the file it names, even one not written yet:
///   that file is written and the links stay. A loop of links (or a chain of more than 32) is
///   an error (`ELOOP`), and nothing is written.
/// - **Permissions carry over**: the new file has the old one's; a first file gets 0644, less
///   the process's umask.
/// - Two writers of one file (two threads, two processes) each write a temporary file of its
///   own; the last rename wins, and each file written is whole.
package enum DurableFile {
    /// Replaces the file at `path` with `bytes`, by the rules above.
    ///
    /// - Throws: ``DurableFileError`` naming the file's name and the system's reason.
    package static func replace(atPath path: String, with bytes: UnsafeRawBufferPointer) throws {
        let target = resolvingLinks(path)
        let (folder, name) = split(target)
        // Still a link after 32: a loop, or a chain longer than the system follows.
        guard linkDestination(target) == nil else { throw DurableFileError("could not write", split(path).name, ELOOP) }
        removeAbandonedTemporaries(of: name, in: folder)
        let temporary = folder + "/" + temporaryName(for: name)
        // The file's permissions carry over; a new one gets the usual ones (umask applied).
        var existing = stat()
        let mode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw DurableFileError("could not write", name, errno) }
        var failure: DurableFileError?
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = DurableFileError("could not write", name, errno)
                break
            }
            offset += written
        }
        if failure == nil && fsync(descriptor) != 0 { failure = DurableFileError("could not write", name, errno) }
        if close(descriptor) != 0 && failure == nil { failure = DurableFileError("could not write", name, errno) }
        if failure == nil && rename(temporary, target) != 0 {
            failure = DurableFileError("could not replace", name, errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The rename is durable once the folder is flushed; a folder that cannot be flushed
        // still holds the new file, so this is best effort.
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// The file `path` names once symbolic links in its last component are followed, whether
    /// or not that file exists yet (a link to a file not yet written is followed too).
    /// Relative links are resolved against the folder of the link. Gives up after 32 links,
    /// as the system does, and returns the last one.
    package static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<32 {
            guard let destination = linkDestination(current) else { return current }
            current = destination.hasPrefix("/") ? destination : split(current).folder + "/" + destination
        }
        return current
    }

    /// Where the link at `path` points, or `nil` if `path` is not a link.
    private static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder and the name of `path`; the folder of a bare name is `.`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// `.name.<process id>.<random>.tmp`: hidden, unique, and naming the process writing it.
    static func temporaryName(for name: String) -> String {
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() as UInt64, radix: 16)
        return ".\(name).\(getpid()).\(suffix).tmp"
    }

    /// Removes the temporary files of `name` in `folder` whose writer no longer runs: a
    /// process killed while it wrote. Those of running processes (this one's other threads
    /// included) are theirs to finish.
    static func removeAbandonedTemporaries(of name: String, in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let prefix = ".\(name)."
        var abandoned: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix), entryName.hasSuffix(".tmp") else { continue }
            let fields = entryName.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
            guard fields.count == 2, let process = pid_t(fields[0]), process > 0 else { continue }
            if kill(process, 0) != 0 && errno == ESRCH { abandoned.append(entryName) }
        }
        for entryName in abandoned { unlink(folder + "/" + entryName) }
    }
}

/// A file the package could not write: what it was doing, the file's name, and the system's
/// reason (`could not write session.json: No space left on device`). It names the file, not
/// the temporary file or the whole path.
package struct DurableFileError: Error, CustomStringConvertible, Equatable {
    /// `could not write` or `could not replace`.
    package let operation: String
    /// The file's name.
    package let name: String
    /// The `errno` the system gave.
    package let code: Int32

    init(_ operation: String, _ name: String, _ code: Int32) {
        self.operation = operation
        self.name = name
        self.code = code
    }

    /// The operation, the name and the system's reason.
    package var description: String {
        "\(operation) \(name): \(String(cString: strerror(code)))"
    }
}
