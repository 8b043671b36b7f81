/// Iterates `sequence` on a task isolated to `isolation`, handing each element to `receive`,
/// until the sequence ends or the returned connection disconnects: the one implementation
/// behind every paradigm's `feed(from:)` for single-threaded destinations.
///
/// The task runs on the caller's actor, so `receive` runs in the same isolation domain as
/// the code that called this, which is what a single-threaded destination requires; the
/// compiler rejects a call from code that is not isolated to an actor. After the
/// connection disconnects (on that actor) no element is received: the task is cancelled,
/// and it checks before each delivery. `finished` runs once if the sequence ends on its
/// own: with `nil` at its end, with the error it threw otherwise; not after a disconnect.
package func feedIsolated<Elements: AsyncSequence>(
    _ sequence: sending Elements,
    isolation: isolated (any Actor),
    receive: @escaping (Elements.Element) -> Void,
    finished: @escaping (Elements.Failure?) -> Void
) -> Connection {
    let task = Task {
        await forEachElement(of: sequence, isolation: isolation, receive: receive, finished: finished)
    }
    return Connection { task.cancel() }
}

/// Iterates `sequence` on a task of its own, handing each element to `receive`, until the
/// sequence ends or the returned connection disconnects: the implementation behind
/// `feed(from:)` for thread-safe destinations.
///
/// `receive` runs on the task, off any actor. After a disconnect no element is received
/// except one whose delivery had already begun on the task. `finished` runs once if the
/// sequence ends on its own (`nil`, or the error it threw); not after a disconnect.
package func feedConcurrently<Elements: AsyncSequence & Sendable>(
    _ sequence: Elements,
    receive: @escaping @Sendable (Elements.Element) -> Void,
    finished: @escaping @Sendable (Elements.Failure?) -> Void
) -> Connection where Elements.Element: Sendable {
    let task = Task.detached {
        await forEachElement(of: sequence, isolation: nil, receive: receive, finished: finished)
    }
    return Connection { task.cancel() }
}

/// The loop both feeds run, in `isolation`: each element to `receive` until the sequence
/// ends or the task is cancelled (checked before each delivery); `finished` once if the
/// sequence ended on its own.
private func forEachElement<Elements: AsyncSequence>(
    of sequence: sending Elements,
    isolation: isolated (any Actor)?,
    receive: (Elements.Element) -> Void,
    finished: (Elements.Failure?) -> Void
) async {
    do throws(Elements.Failure) {
        for try await element in sequence {
            if Task.isCancelled { return }
            receive(element)
        }
        if !Task.isCancelled { finished(nil) }
    } catch {
        if !Task.isCancelled { finished(error) }
    }
}
