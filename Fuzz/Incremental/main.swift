// A libFuzzer target: programs of graph operations decoded from bytes, run on an Incremental
// graph and checked against a reference that evaluates every node from scratch.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run IncrementalFuzz Fuzz/Incremental/Corpus

import Foundation

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    IncrementalProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(runFuzzerDriver(&argc, &argv) { fuzzOneInput($0, $1) })
#else
    var replayed = 0
    for path in CommandLine.arguments.dropFirst() {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("IncrementalFuzz: no file or folder at \(path)\n".utf8))
            exit(2)
        }
        let files =
            isFolder.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" } : [path]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            IncrementalProgram.run([UInt8](data))
            replayed += 1
        }
    }
    print("IncrementalFuzz: \(replayed) programs replayed, every one matched the reference")
#endif
