/// A subscription's own connection, kept by the work that connection cuts, so that the work
/// can disconnect it from inside (a stream that ended, a `prefix` that stopped): the
/// connection then reports itself disconnected. Package access: Glue's stopping operators and
/// Cycle's completion gate share it.
///
/// Not a `weak` reference: a weak reference gives the connection a side table that only the
/// object's reference count points to, and LeakSanitizer takes it for a leak in a process that
/// exits while the connection lives.
package struct SelfConnection {
    // Unretained: the connection holds the work (its action captures it), so a strong
    // reference would be a cycle. Safe because `pointer` is non-nil only while the connection
    // lives: the connection's action, which runs when it disconnects and, if it never did,
    // when it is freed, calls `release()` before anything else.
    private var pointer: Unmanaged<Connection>?

    package init() {}

    /// Keeps `connection`, whose action must call ``release()`` first.
    package mutating func set(_ connection: Connection) {
        pointer = .passUnretained(connection)
    }

    /// Forgets the connection: called by its action.
    package mutating func release() {
        pointer = nil
    }

    /// Takes the connection out, if it still lives and has not been released, for the caller
    /// to disconnect: outside this access, since its action calls ``release()``.
    package mutating func take() -> Connection? {
        defer { pointer = nil }
        return pointer?.takeUnretainedValue()
    }
}
