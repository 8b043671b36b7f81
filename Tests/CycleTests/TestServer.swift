import ExampleSupport
import Foundation
import ReactiveCore

/// The HTTP driver's test server on 127.0.0.1: `/hello` answers 200 "hi", `/missing` answers
/// 404, `/silent` never answers, `/garbage` answers bytes that are not HTTP, `/close` closes the
/// connection at once, `/trickle` sends its headers and then a byte of body every 50 ms, for a
/// minute (so that a timeout that fires seconds late, on a busy machine, still comes first; a
/// body of three seconds once finished before a 400 ms timeout on a loaded main queue). It
/// stops when released.
final class TestServer: Sendable {
    private let server: LoopbackServer
    /// How many requests for `/silent` arrived, so a test can cancel one that is surely under way.
    let silentRequests = SilentCount()

    init() throws {
        let silentRequests = silentRequests
        server = try LoopbackServer { path in
            switch path {
            case "/hello": return .answer(status: 200, body: "hi")
            case "/silent":
                silentRequests.increment()
                return .silence
            case "/close": return .hangUp
            case "/garbage": return .garbage
            case "/trickle": return .trickle(bytes: 1_200, interval: .milliseconds(50))
            default: return .answer(status: 404, body: "")
            }
        }
    }

    var port: UInt16 { server.port }

    func url(_ path: String) -> URL { server.url(path) }
}

/// A thread-safe count.
final class SilentCount: Sendable {
    private let count = LockedState(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
