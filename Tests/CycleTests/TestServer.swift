import ExampleSupport
import Foundation
import ReactiveCore

/// The HTTP driver's test server on 127.0.0.1: `/hello` answers 200 "hi", `/missing` answers
/// 404, `/silent` never answers, `/garbage` answers bytes that are not HTTP, `/close` closes the
/// connection at once, `/trickle` sends its headers and then a byte of body every 50 ms. It stops when released.
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
            case "/trickle": return .trickle(bytes: 60, interval: .milliseconds(50))
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

/// A port on 127.0.0.1 that refuses connections for as long as this value lives: bound, so
/// no other socket of the machine takes it, and not listening, so a connection to it is
/// refused at once. (The port of a server that has stopped may be taken again by another
/// test's server before the connection is tried.)
final class RefusingPort: Sendable {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(descriptor)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}
