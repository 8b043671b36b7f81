import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file is now, cheaply: which file it is, its size and when it was last changed.
/// Two equal stamps mean, as far as the file system can tell without reading it, the same
/// contents; a missing file has the stamp ``missing``.
///
/// The package's pollers (Resin's persistence) compare stamps before they read a file, so a
/// poll of a large file that did not change costs one `stat`.
package struct FileStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    /// The stamp of a path where there is no file.
    package static let missing = FileStamp(device: 0, inode: 0, size: -1, seconds: 0, nanoseconds: 0)

    /// The stamp of the file at `path` (links followed), or ``missing``.
    package static func of(_ path: String) -> FileStamp {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        #if canImport(Darwin)
            let modified = status.st_mtimespec
        #else
            let modified = status.st_mtim
        #endif
        return FileStamp(
            device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
            size: Int64(status.st_size), seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec))
    }
}

/// Tells when the file at a path may have changed: written in place, replaced by a rename
/// (an atomic write), removed, moved away, or moved onto from elsewhere.
///
/// One watcher serves the process. On Linux it is one inotify instance watching the folders
/// of the watched files (a folder's watch sees renames over a file, which a watch of the file
/// itself would lose track of), read on a queue of its own; a folder is watched while any
/// file in it is. Where the platform has no such facility ``shared`` is `nil`, and callers
/// poll with ``FileStamp``.
///
/// What it promises is a wake-up, not a diff: a handler learns that the file may differ and
/// looks. Handlers run on the watcher's queue, never under its lock, and may watch or stop
/// watching from inside one.
package final class FileWatcher: Sendable {
    /// Why a handler is called.
    package enum Event: Sendable {
        /// The file may have changed: look at it.
        case changed
        /// The watch ended on its own (the folder was removed or moved, or the system's
        /// queue of events overflowed and the watcher lost track): look at the file, and
        /// poll from now on.
        case lost
    }

    /// The process's watcher, or `nil` where the platform cannot watch files.
    package static let shared: FileWatcher? = FileWatcher()

    #if os(Linux)
        private struct Folder {
            var path: String
            /// The handlers of the files in the folder, by the file's name and the watch's number.
            var handlers: [String: [UInt64: @Sendable (Event) -> Void]] = [:]
            var isEmpty: Bool { handlers.isEmpty }
        }
        private struct State {
            var folders: [Int32: Folder] = [:]
            var descriptors: [String: Int32] = [:]
            var nextHandler: UInt64 = 0
        }

        private let descriptor: Int32
        private let state = LockedState(State())
        private let queue = DispatchQueue(label: "ReactiveCore.FileWatcher")
        // Immutable once made; a `DispatchSourceRead` is thread-safe.
        nonisolated(unsafe) private let source: any DispatchSourceRead

        private static let mask: UInt32 =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MODIFY) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
            | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF)
            | UInt32(IN_MOVE_SELF)

        private init?() {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.readEvents() }
            source.activate()
        }

        deinit {
            source.cancel()
            close(descriptor)
        }

        /// Calls `handler` on the watcher's queue whenever the file at `path` may have
        /// changed, until the returned connection disconnects; `nil` if its folder cannot be
        /// watched (it does not exist, or the system's limit of watches is reached).
        ///
        /// The path is taken as it is given, after symbolic links in its last component are
        /// followed: the folder of the file the link names is watched.
        package func watch(_ path: String, _ handler: @escaping @Sendable (Event) -> Void) -> Connection? {
            let (folder, name) = DurableFile.split(DurableFile.resolvingLinks(path))
            let added: (Int32, UInt64)? = state.withLock { state in
                let watch: Int32
                if let existing = state.descriptors[folder] {
                    watch = existing
                } else {
                    watch = inotify_add_watch(descriptor, folder, Self.mask)
                    guard watch >= 0 else { return nil }
                    // The same folder under another spelling (a link to it) gets the same number.
                    if state.folders[watch] == nil { state.folders[watch] = Folder(path: folder) }
                    state.descriptors[folder] = watch
                }
                let number = state.nextHandler
                state.nextHandler += 1
                state.folders[watch]?.handlers[name, default: [:]][number] = handler
                return (watch, number)
            }
            guard let (watch, number) = added else { return nil }
            return Connection { [weak self] in self?.unwatch(watch, folder: folder, name: name, number: number) }
        }

        private func unwatch(_ watch: Int32, folder: String, name: String, number: UInt64) {
            state.withLock { state in
                guard var entry = state.folders[watch] else { return }
                entry.handlers[name]?[number] = nil
                if entry.handlers[name]?.isEmpty == true { entry.handlers[name] = nil }
                if entry.isEmpty {
                    state.folders[watch] = nil
                    state.descriptors = state.descriptors.filter { $0.value != watch }
                    inotify_rm_watch(descriptor, watch)
                } else {
                    state.folders[watch] = entry
                }
            }
        }

        /// Reads every event queued on the descriptor and calls the handlers they concern.
        private func readEvents() {
            let capacity = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            var calls: [(@Sendable (Event) -> Void, Event)] = []
            while true {
                let count = read(descriptor, buffer, capacity)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                var offset = 0
                // The kernel writes whole events: a header (watch, mask, cookie, length of the
                // name) and then the name, padded with zero bytes.
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameLength = Int(event.len)
                    let nameStart = buffer + offset + header
                    let name =
                        nameLength == 0
                        ? ""
                        : String(
                            decoding: UnsafeRawBufferPointer(start: nameStart, count: nameLength).prefix { $0 != 0 },
                            as: UTF8.self)
                    offset += header + nameLength
                    calls += handlers(for: event.wd, mask: event.mask, name: name)
                }
            }
            for (handler, event) in calls { handler(event) }
        }

        /// The handlers an event concerns, and what to tell them; forgets a folder's watch
        /// when the folder went.
        private func handlers(for watch: Int32, mask: UInt32, name: String) -> [(@Sendable (Event) -> Void, Event)] {
            state.withLock { state in
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: every handler must look, and no watch can be trusted.
                    return state.folders.values.flatMap { $0.handlers.values.flatMap { $0.values } }.map { ($0, .lost) }
                }
                guard let folder = state.folders[watch] else { return [] }
                let folderWent =
                    mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED) | UInt32(IN_UNMOUNT))
                    != 0
                if folderWent {
                    state.folders[watch] = nil
                    state.descriptors = state.descriptors.filter { $0.value != watch }
                    if mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(descriptor, watch) }
                    return folder.handlers.values.flatMap { $0.values }.map { ($0, .lost) }
                }
                return (folder.handlers[name]?.values).map { $0.map { ($0, .changed) } } ?? []
            }
        }
    #else
        private init?() { return nil }

        /// Where the platform cannot watch files there is no watcher; this is never called.
        package func watch(_ path: String, _ handler: @escaping @Sendable (Event) -> Void) -> Connection? { nil }
    #endif
}
