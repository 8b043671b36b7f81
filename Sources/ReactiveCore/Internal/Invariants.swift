// The shared mechanisms' invariants, checked in code when the module is built with
// `REACTIVECORE_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/ReactiveCore.md
// states each one (B1, P1, Q1, T1, ...) and the reasoning behind it; the messages below
// name them.
//
// Without the flag every hook is an empty inline function and no type carries an extra
// field: the checks cost nothing.

/// The invariant checks' switch, for tests.
package enum ReactiveCoreChecks {
    /// Whether this build of the module checks the shared mechanisms' invariants
    /// (`REACTIVECORE_INTERNAL_CHECKS`).
    package static var isEnabled: Bool {
        #if REACTIVECORE_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }
}

/// Stops with a message naming the invariant `invariant` when `condition` is false.
@usableFromInline
func reactiveCoreCheck(
    _ condition: Bool, _ invariant: StaticString, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        preconditionFailure("ReactiveCore internal check \(invariant) failed: \(message())", file: file, line: line)
    }
}
