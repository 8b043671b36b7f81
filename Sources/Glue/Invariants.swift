// The engine's invariants, checked in code when the module is built with
// `GLUE_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/Glue.md states each one
// (G1, G2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag every hook is an empty inline function and no type carries an extra
// field: the checks cost nothing.

import ReactiveCore

/// The invariant checks' switch, for tests.
package enum GlueChecks {
    /// Whether this build of the module checks the engine's invariants
    /// (`GLUE_INTERNAL_CHECKS`).
    package static var isEnabled: Bool {
        #if GLUE_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }
}

/// Stops with a message naming the invariant `invariant` when `condition` is false.
@usableFromInline
func glueCheck(
    _ condition: Bool, _ invariant: StaticString, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        preconditionFailure("Glue internal check \(invariant) failed: \(message())", file: file, line: line)
    }
}

/// G1 on the sending side: what one observable sends is a sequence of whole transactions,
/// never nested (a begin, its changes, its end).
struct TransactionWire {
    #if GLUE_INTERNAL_CHECKS
        private var isOpen = false
    #endif

    /// Notes that `update` is being sent, checking that it fits the transactions sent so far.
    @inline(__always)
    mutating func note<Change>(_ update: Update<Change>) {
        #if GLUE_INTERNAL_CHECKS
            switch update {
            case .beginTransaction:
                glueCheck(!isOpen, "G1", "a transaction begins inside another")
                isOpen = true
            case .change:
                glueCheck(isOpen, "G1", "a change is sent outside a transaction")
            case .endTransaction:
                glueCheck(isOpen, "G1", "a transaction ends that did not begin")
                isOpen = false
            }
        #endif
    }
}
