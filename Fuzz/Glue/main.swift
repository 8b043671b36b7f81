// A libFuzzer target: edits of a Glue array decoded from bytes, seen through filter, sorted,
// map and sum views and through replicas of their updates, checked against plain arrays
// recomputed after every step.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run GlueFuzz Fuzz/Glue/Corpus

import FuzzSupport

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    GlueProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "GlueFuzz", body: { fuzzOneInput($0, $1) }, run: GlueProgram.run)
