import Cycle
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for the HTTP driver's tests: `/hello` answers 200 "hi",
/// `/missing` answers 404, `/silent` never answers, `/garbage` answers bytes that are not
/// HTTP, `/close` closes the connection at once. It stops when released.
final class TestServer: @unchecked Sendable {
    // `@unchecked`: `descriptor` is written once in `init`; the accept thread only reads it.
    let port: UInt16
    private let descriptor: Int32
    /// How many requests for `/silent` arrived, so a test can cancel one that is surely under way.
    let silentRequests = SilentCount()

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw CocoaError(.fileReadUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let silentRequests = silentRequests
        Thread.detachNewThread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { [silentRequests] in Self.serve(client, silentRequests) }
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    private static func serve(_ client: Int32, _ silentRequests: SilentCount) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(client, &buffer, buffer.count)
        guard count > 0 else {
            close(client)
            return
        }
        let request = String(decoding: buffer[..<count], as: UTF8.self)
        let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let response: String
        switch path {
        case "/hello": response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
        case "/silent":
            silentRequests.increment()
            return  // keeps the connection open and never answers
        case "/close":
            close(client)
            return
        case "/garbage": response = "\u{0}\u{1}not http at all\r\n\r\n"
        default: response = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        }
        _ = response.withCString { write(client, $0, strlen($0)) }
        close(client)
    }
}

/// A thread-safe count.
final class SilentCount: Sendable {
    private let count = LockedState(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
