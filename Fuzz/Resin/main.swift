// A libFuzzer target: programs for a Resin store decoded from bytes: dispatches, reducers registered
// and unregistered on focused stores, observers of foci, checked against the reducers
// applied to a plain value.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run ResinFuzz Fuzz/Resin/Corpus

import FuzzSupport

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ResinProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "ResinFuzz", body: { fuzzOneInput($0, $1) }, run: ResinProgram.run)
