// A libFuzzer target: differential programs decoded from bytes (inputs, derived cells,
// observers, writes; see `DifferentialProgram` in the Scenarios module) run through every
// paradigm's adapter and the hand-written baseline, each step checked against a from-scratch
// reference; a divergence the semantics matrix does not allow stops the run.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see `.ci/fuzz`), libFuzzer drives it.
// Built without (as `swift build` does), it replays the files and folders it is given:
//
//     swift run DifferentialFuzz Fuzz/Differential/Corpus

import FuzzSupport
import Scenarios

/// Runs the program `bytes` decode through every adapter.
func runDifferential(_ bytes: [UInt8]) {
    let program = DifferentialProgram(bytes: bytes)
    for adapter in ParadigmCatalog.adapters {
        if let divergence = program.divergence(in: adapter) {
            fatalError("DifferentialFuzz: \(divergence)\n\(program)")
        }
    }
}

/// libFuzzer's entry point: runs the program `data` decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runDifferential(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

FuzzDriver.main(target: "DifferentialFuzz", body: { fuzzOneInput($0, $1) }, run: runDifferential)
