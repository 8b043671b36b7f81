import Incremental

// The reactivity conformance suite (reactive-framework-test-suite), ported to Incremental's
// auto-tracked API: every case of its two published lines (artalar's, and johnsoncodehk's,
// which dropped some cases and added others, up to #247), one test per case id (#64, two).
// Each test's name is the suite's case id and title; the suite's
// `signal`, `computed`, `effect`, `batch` and `untracked` are `graph.input`,
// `graph.computed`, `graph.effect`, `graph.batch` and `graph.untracked`, `read()` is
// `value` (or `get()` where the suite expects a throw) and `write` is `write`. Cases that
// Incremental answers differently on purpose say so, and the module's Semantics article
// lists them under "Differences from other signal libraries".

/// An error a computed value throws on purpose.
struct Boom: Error, Equatable {
    var message = "boom"
}

/// Runs `body`, then disposes every effect the graph still owns, so that the graph and its
/// nodes are freed (effects live until disposed).
func withGraph(_ body: (Graph) throws -> Void) rethrows {
    let graph = Graph()
    let scope = graph.effectScope()
    defer { scope.dispose() }
    try scope.run { try body(graph) }
}
