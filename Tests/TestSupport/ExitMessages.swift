import Testing

/// Checks that a child process that an exit test ran wrote `message` to its standard error:
/// the precondition that stopped it is the one the test meant, not some other crash.
///
/// Use it with `#expect(processExitsWith: .failure, observing: [\.standardErrorContent])`.
public func expectStandardError(
    of result: ExitTest.Result?,
    contains message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else {
        Issue.record("the exit test did not run", sourceLocation: sourceLocation)
        return
    }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
        standardError.contains(message),
        "expected the message \"\(message)\" on standard error, got:\n\(standardError.prefix(2_000))",
        sourceLocation: sourceLocation
    )
}
