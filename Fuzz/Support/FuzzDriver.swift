// What every libFuzzer target in Fuzz/ shares: handing control to libFuzzer when built for
// fuzzing, and replaying inputs otherwise.

import Foundation

/// The entry of a fuzz target's `main.swift`.
public enum FuzzDriver {
    /// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), hands control to
    /// libFuzzer, which calls `body` with each input it makes. Built without (as `swift build`
    /// does), runs `run` on every file named on the command line, and on every file in every
    /// folder named, in name order; then says how many it replayed.
    public static func main(
        target: String, body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt, run: ([UInt8]) -> Void
    ) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, body))
        #else
            var replayed = 0
            for path in CommandLine.arguments.dropFirst() {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                    FileHandle.standardError.write(Data("\(target): no file or folder at \(path)\n".utf8))
                    exit(2)
                }
                let files =
                    isFolder.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                        "\(path)/\($0)"
                    } : [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    run([UInt8](data))
                    replayed += 1
                }
            }
            print("\(target): \(replayed) programs replayed, every one matched the reference")
            exit(0)
        #endif
    }
}

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif

/// Reads a program's bytes one at a time; past the end, every read is `nil`.
public struct ProgramReader {
    private var bytes: IndexingIterator<[UInt8]>

    /// A reader of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes.makeIterator()
    }

    /// The next byte, if any.
    public mutating func next() -> UInt8? { bytes.next() }

    /// The next byte as an index below `count`, if there is a byte and `count` is positive.
    public mutating func index(below count: Int) -> Int? {
        guard count > 0, let byte = bytes.next() else { return nil }
        return Int(byte) % count
    }

    /// The next byte as a small value in `0..<bound`, or 0 past the end.
    public mutating func small(_ bound: Int) -> Int {
        Int(bytes.next() ?? 0) % bound
    }
}
