// A libFuzzer target: programs of sends, connects and removals decoded from bytes, run on
// Signals on one thread and checked against the messages each chain is owed by the rules.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run SignalsFuzz Fuzz/Signals/Corpus

import FuzzSupport

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    SignalsProgram.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "SignalsFuzz", body: { fuzzOneInput($0, $1) }, run: SignalsProgram.run)
