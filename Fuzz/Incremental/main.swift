// A libFuzzer target: programs of graph operations decoded from bytes, run on an Incremental
// graph and checked against a reference that evaluates every node from scratch.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run IncrementalFuzz Fuzz/Incremental/Corpus

import FuzzSupport

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    IncrementalProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "IncrementalFuzz", body: { fuzzOneInput($0, $1) }, run: IncrementalProgram.run)
