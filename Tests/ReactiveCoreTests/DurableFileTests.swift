import Foundation
import TestSupport
import Testing

@testable import ReactiveCore

#if canImport(Glibc)
    import Glibc
#endif

/// The package's one file writer, on the file systems a program meets: full, read-only,
/// linked, contended, and left behind by a writer that was killed. Every component that writes
/// a file (Cycle's session driver, Resin's persistence, the examples' tapes) goes through it;
/// their own tests check only that they do.
@Suite("The durable file writer")
struct DurableFileTests {
    /// A new folder for one test, removed after it.
    static func inFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "durable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    static func write(_ text: String, to path: String) throws {
        try Array(text.utf8).withUnsafeBytes { try DurableFile.replace(atPath: path, with: $0) }
    }

    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Mounts a tmpfs of `size` at a new folder (with `options`), runs `body` there, and
    /// unmounts it; `false` if this process may not mount (not root), without running `body`.
    static func onTmpfs(size: String, options: String = "", _ body: (String) throws -> Void) throws -> Bool {
        let folder = FileManager.default.temporaryDirectory.appending(path: "durable-fs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mountOptions = "size=\(size)" + (options.isEmpty ? "" : ",\(options)")
        guard mount("tmpfs", folder, "tmpfs", 0, mountOptions) == 0 else { return false }
        defer { umount2(folder, Int32(MNT_DETACH)) }
        try body(folder)
        return true
    }

    @Test("a write replaces the file whole, leaves no temporary file, and keeps the file's permissions")
    func replaces() throws {
        try Self.inFolder { folder in
            let path = folder + "/state.json"
            try Self.write("one", to: path)
            chmod(path, 0o600)
            try Self.write("two", to: path)
            #expect(try Self.read(path) == "two")
            #expect(try Self.names(in: folder) == ["state.json"])
            var info = stat()
            stat(path, &info)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    @Test("a full disk: every failed write names the cause and leaves nothing behind, and a small write then succeeds")
    func fullDisk() throws {
        let mounted = try Self.onTmpfs(size: "64k") { folder in
            let path = folder + "/state.json"
            try Self.write("old", to: path)
            let big = String(repeating: "x", count: 200_000)
            for _ in 0..<8 {
                #expect(throws: DurableFileError("could not write", "state.json", ENOSPC)) {
                    try Self.write(big, to: path)
                }
            }
            #expect(try Self.names(in: folder) == ["state.json"], "no temporary file stays")
            #expect(try Self.read(path) == "old")
            try Self.write("small", to: path)
            #expect(try Self.read(path) == "small")
        }
        // Not root, no tmpfs: the file size limit below stands in for a full disk.
        #expect(mounted || getuid() != 0, "root mounts a small tmpfs")
    }

    @Test("a file size limit (a full disk for one process): failed writes leave nothing behind")
    func fileSizeLimit() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.appending(path: "durable-\(UUID().uuidString)").path
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/state.json"
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 4_096, rlim_max: 4_096)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(3) }
            for _ in 0..<5 {
                do {
                    try DurableFileTests.write(String(repeating: "x", count: 10_000), to: path)
                    exit(4)
                } catch let error as DurableFileError {
                    guard error.description == "could not write state.json: File too large" else { exit(5) }
                } catch {
                    exit(6)
                }
            }
            guard (try? FileManager.default.contentsOfDirectory(atPath: folder)) == [] else { exit(7) }
            guard (try? DurableFileTests.write("small", to: path)) != nil else { exit(8) }
            try? FileManager.default.removeItem(atPath: folder)
            exit(0)
        }
    }

    @Test("a read-only folder: the write fails with the cause, and nothing is left or changed")
    func readOnlyFolder() throws {
        let mounted = try Self.onTmpfs(size: "64k", options: "ro") { (folder: String) throws in
            #expect(throws: DurableFileError("could not write", "state.json", EROFS)) {
                try Self.write("new", to: folder + "/state.json")
            }
            #expect(try Self.names(in: folder).isEmpty)
        }
        if !mounted {
            try Self.inFolder { (folder: String) throws in
                chmod(folder, 0o555)
                defer { chmod(folder, 0o755) }
                #expect(throws: DurableFileError("could not write", "state.json", EACCES)) {
                    try Self.write("new", to: folder + "/state.json")
                }
                #expect(try Self.names(in: folder).isEmpty)
            }
        }
    }

    @Test("a folder where the file should be: the write fails naming it, and the folder and its contents stay")
    func folderInPlace() throws {
        try Self.inFolder { folder in
            let path = folder + "/state.json"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Self.write("inside", to: path + "/kept")
            #expect(throws: DurableFileError.self) { try Self.write("new", to: path) }
            #expect(try Self.names(in: folder) == ["state.json"])
            #expect(try Self.read(path + "/kept") == "inside")
        }
    }

    @Test(
        "chains of symbolic links, relative and absolute, to a file not written yet: the file is written, the links stay"
    )
    func linkChains() throws {
        try Self.inFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: false)
            // state.json → (absolute) data/link → (relative) real.json, which does not exist yet.
            try FileManager.default.createSymbolicLink(atPath: folder + "/data/link", withDestinationPath: "real.json")
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/state.json", withDestinationPath: folder + "/data/link")
            try Self.write("one", to: folder + "/state.json")
            try Self.write("two", to: folder + "/state.json")
            #expect(try Self.read(folder + "/data/real.json") == "two")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/state.json") == folder
                    + "/data/link")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/data/link") == "real.json")
            #expect(try Self.names(in: folder + "/data") == ["link", "real.json"])
            #expect(DurableFile.resolvingLinks(folder + "/state.json") == folder + "/data/real.json")
        }
    }

    @Test("a loop of symbolic links is refused with ELOOP, and the links stay")
    func linkLoop() throws {
        try Self.inFolder { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/a", withDestinationPath: "b")
            try FileManager.default.createSymbolicLink(atPath: folder + "/b", withDestinationPath: "a")
            #expect(throws: DurableFileError("could not write", "a", ELOOP)) { try Self.write("x", to: folder + "/a") }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/a") == "b")
            #expect(try Self.names(in: folder) == ["a", "b"])
        }
    }

    @Test("two writers of one file at once, many times in one second: every state read is whole, and nothing is left")
    func twoWriters() throws {
        try Self.inFolder { folder in
            let path = folder + "/state.json"
            let payloads = [String(repeating: "a", count: 50_000), String(repeating: "b", count: 70_000)]
            try Self.write(payloads[0], to: path)
            let torn = LockedBox(0)
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                for _ in 0..<100 {
                    if worker == 2 {
                        let read = (try? Self.read(path)) ?? ""
                        if !payloads.contains(read) { torn.mutate { $0 += 1 } }
                    } else {
                        try? Self.write(payloads[worker], to: path)
                    }
                }
            }
            #expect(torn.read { $0 } == 0)
            #expect(payloads.contains(try Self.read(path)))
            #expect(try Self.names(in: folder) == ["state.json"])
        }
    }

    @Test(
        "the temporary file of a writer that died is removed the next time the file is written; a live writer's is not")
    func abandonedTemporaries() throws {
        try Self.inFolder { folder in
            let path = folder + "/state.json"
            try Self.write("old", to: path)
            // A process that has exited: its process id names no running process. (Spawned
            // with posix_spawn: Foundation's Process keeps an allocation LeakSanitizer reports.)
            var dead: pid_t = 0
            var arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            defer { free(arguments[0]) }
            #expect(posix_spawn(&dead, "/bin/true", nil, nil, &arguments, environ) == 0)
            var status: Int32 = 0
            waitpid(dead, &status, 0)
            let abandoned = ".state.json.\(dead).1f.tmp"
            let live = ".state.json.\(getpid()).2e.tmp"
            let other = ".other.json.\(dead).3d.tmp"
            for name in [abandoned, live, other] {
                _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("partial".utf8))
            }
            try Self.write("new", to: path)
            #expect(try Self.names(in: folder) == [live, other, "state.json"].sorted())
            #expect(try Self.read(path) == "new")
        }
    }

    @Test("a writer killed with SIGKILL mid-write leaves the old file whole; the next write removes what it left")
    func killedWriter() async throws {
        // Named after this process, which the exit test's process is a child of: two runs of
        // the suite at once (a plain one and a sanitizer's) each have their own.
        let folder = FileManager.default.temporaryDirectory.appending(path: "durable-kill-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("old", to: folder + "/state.json")
        await #expect(processExitsWith: .signal(SIGKILL)) {
            let folder = FileManager.default.temporaryDirectory.appending(path: "durable-kill-\(getppid())").path
            // A second thread kills the process as soon as the temporary file appears, while
            // the first is still writing 128 MB into it.
            let killer = Thread {
                while true {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                    if names.contains(where: { $0.hasSuffix(".tmp") }) { kill(getpid(), SIGKILL) }
                }
            }
            killer.start()
            try? DurableFileTests.write(String(repeating: "x", count: 128 << 20), to: folder + "/state.json")
            kill(getpid(), SIGKILL)
        }
        let read = try Self.read(folder + "/state.json")
        #expect(read == "old" || read.count == 128 << 20, "the file is the old one or the new one, whole")
        try Self.write("next", to: folder + "/state.json")
        #expect(try Self.names(in: folder) == ["state.json"], "the killed writer's temporary file is gone")
        #expect(try Self.read(folder + "/state.json") == "next")
    }
}
