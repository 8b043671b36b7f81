// The engine's invariants, checked in code when the module is built with
// `SIGNALGRAPH_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/SignalGraph.md
// states each one (SG1, SG2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag every hook is an empty inline function and no type carries an extra
// field: the checks cost nothing.

import ReactiveCore

/// The invariant checks' switch, for tests.
package enum SignalGraphChecks {
    /// Whether this build of the module checks the engine's invariants
    /// (`SIGNALGRAPH_INTERNAL_CHECKS`).
    package static var isEnabled: Bool {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }
}

/// Stops with a message naming the invariant `invariant` when `condition` is false.
@usableFromInline
func signalGraphCheck(
    _ condition: Bool, _ invariant: StaticString, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        preconditionFailure("SignalGraph internal check \(invariant) failed: \(message())", file: file, line: line)
    }
}
