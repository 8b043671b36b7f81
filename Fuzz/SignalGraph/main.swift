// A libFuzzer target: edits of a SignalGraph dictionary storage decoded from bytes, seen through
// filtering, sorting and mapping views and through sensors that rebuild their state,
// checked against a plain dictionary recomputed after every step.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run SignalGraphFuzz Fuzz/SignalGraph/Corpus

import FuzzSupport

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    SignalGraphProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "SignalGraphFuzz", body: { fuzzOneInput($0, $1) }, run: SignalGraphProgram.run)
