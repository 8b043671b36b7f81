import Foundation
import TestSupport
import Testing

@testable import ReactiveCore

#if canImport(Glibc)
    import Glibc
#endif

/// Counts what a watch's handler was told, from the watcher's queue.
private final class Told: Sendable {
    private let state = LockedState<(changed: Int, lost: Int)>((0, 0))
    func record(_ event: FileWatcher.Event) {
        state.withLock {
            switch event {
            case .changed: $0.changed += 1
            case .lost: $0.lost += 1
            }
        }
    }
    var changed: Int { state.withLock { $0.changed } }
    var lost: Int { state.withLock { $0.lost } }
}

/// The package's file watcher, where the platform has one (Linux's inotify).
@Suite("The file watcher", .enabled(if: FileWatcher.shared != nil))
struct FileWatcherTests {
    private static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appending(path: "watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Waits until `told` has seen more than `count` changes.
    private static func changes(_ told: Told, above count: Int) async -> Bool {
        await eventually { told.changed > count }
    }

    @Test("a write, a rename over the file, a move away and a removal each wake the handler; other files do not")
    func wakes() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/watched.json"
        let told = Told()
        let watch = try #require(FileWatcher.shared?.watch(path) { told.record($0) })

        // Another file of the folder: its events are read (its own watch sees them), not passed on.
        let other = Told()
        let otherWatch = try #require(FileWatcher.shared?.watch(folder + "/other.json") { other.record($0) })
        try Data("other".utf8).write(to: URL(filePath: folder + "/other.json"))
        #expect(await Self.changes(other, above: 0))
        #expect(told.changed == 0)
        otherWatch.disconnect()
        try Data("one".utf8).write(to: URL(filePath: path))
        #expect(await Self.changes(told, above: 0))
        var count = told.changed
        try Array("two".utf8).withUnsafeBytes { try DurableFile.replace(atPath: path, with: $0) }
        #expect(await Self.changes(told, above: count))
        count = told.changed
        #expect(rename(path, folder + "/away.json") == 0)
        #expect(await Self.changes(told, above: count))
        count = told.changed
        #expect(rename(folder + "/away.json", path) == 0)
        #expect(await Self.changes(told, above: count))
        count = told.changed
        try FileManager.default.removeItem(atPath: path)
        #expect(await Self.changes(told, above: count))
        #expect(told.lost == 0)

        // Once disconnected, nothing more arrives; a marker watch shows the events were read.
        watch.disconnect()
        count = told.changed
        let marker = Told()
        let markerWatch = try #require(FileWatcher.shared?.watch(folder + "/marker") { marker.record($0) })
        try Data("three".utf8).write(to: URL(filePath: path))
        try Data("m".utf8).write(to: URL(filePath: folder + "/marker"))
        #expect(await Self.changes(marker, above: 0))
        #expect(told.changed == count)
        markerWatch.disconnect()
    }

    @Test("the folder removed: every watch in it is told it is lost; a missing folder cannot be watched")
    func folderRemoved() async throws {
        let folder = try Self.folder()
        let first = Told()
        let second = Told()
        let watches = try [
            #require(FileWatcher.shared?.watch(folder + "/a") { first.record($0) }),
            #require(FileWatcher.shared?.watch(folder + "/b") { second.record($0) }),
        ]
        try FileManager.default.removeItem(atPath: folder)
        #expect(await eventually { first.lost > 0 && second.lost > 0 })
        #expect(FileWatcher.shared?.watch(folder + "/a") { _ in } == nil)
        for watch in watches { watch.disconnect() }
    }

    @Test("concurrent: many threads watch and stop watching files of one folder while it is written")
    func concurrentWatches() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for round in 0..<20 {
                        let path = folder + "/file-\(index)"
                        let watch = FileWatcher.shared?.watch(path) { _ in }
                        try? Data("\(round)".utf8).write(to: URL(filePath: path))
                        watch?.disconnect()
                    }
                }
            }
        }
        // Still usable: a new watch in the same folder is told of a write.
        let told = Told()
        let watch = try #require(FileWatcher.shared?.watch(folder + "/after") { told.record($0) })
        try Data("x".utf8).write(to: URL(filePath: folder + "/after"))
        #expect(await Self.changes(told, above: 0))
        watch.disconnect()
    }

    @Test("a stamp changes with the file's contents and identity, and is `missing` for no file")
    func stamps() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/stamped"
        #expect(FileStamp.of(path) == .missing)
        try Data("one".utf8).write(to: URL(filePath: path))
        let first = FileStamp.of(path)
        #expect(first != .missing)
        #expect(FileStamp.of(path) == first)
        try Array("three".utf8).withUnsafeBytes { try DurableFile.replace(atPath: path, with: $0) }
        #expect(FileStamp.of(path) != first)
    }
}
