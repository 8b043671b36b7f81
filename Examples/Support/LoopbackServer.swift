import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1, on a port the system picks, for tests and examples that
/// need a real server: `respond` says what to do with each request's path. One thread per
/// connection; it stops accepting when released.
public final class LoopbackServer: @unchecked Sendable {
    // `@unchecked`: `descriptor` is written once in `init`; the accept thread only reads it.

    /// What to do with a request.
    public enum Reply: Sendable {
        /// Answers with `status` and `body`, after waiting `delay`.
        case answer(status: Int, body: String, delay: Duration = .zero)
        /// Keeps the connection open and never answers.
        case silence
        /// Closes the connection without a word.
        case hangUp
        /// Sends bytes that are not HTTP.
        case garbage
        /// Answers 200 with its headers at once, then a body of `bytes` bytes, one every
        /// `interval`: a server that is slow but never silent for long.
        case trickle(bytes: Int, interval: Duration)
    }

    /// The port the server listens on.
    public let port: UInt16
    private let descriptor: Int32

    /// Starts listening; `respond` runs on the connection's thread with the request's path
    /// (with its query).
    public init(respond: @escaping @Sendable (String) -> Reply) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        guard let port = bindToLoopback(descriptor), listen(descriptor, 16) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
        Thread.detachNewThread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { Self.serve(client, respond) }
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    private static func serve(_ client: Int32, _ respond: (String) -> Reply) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(client, &buffer, buffer.count)
        guard count > 0 else {
            close(client)
            return
        }
        let request = String(decoding: buffer[..<count], as: UTF8.self)
        let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        switch respond(path) {
        case .answer(let status, let body, let delay):
            let reason = status == 200 ? "OK" : "Status"
            let response =
                "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            guard delay > .zero else { return send(response, to: client) }
            let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                send(response, to: client)
            }
        case .silence:
            return  // keeps the connection open and never answers
        case .hangUp:
            close(client)
        case .garbage:
            send("\u{0}\u{1}not http at all\r\n\r\n", to: client)
        case .trickle(let bytes, let interval):
            let header = "HTTP/1.1 200 OK\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n"
            _ = header.withCString { sendWithoutSignal(client, $0, strlen($0)) }
            let nanoseconds =
                interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
            trickle(bytes, every: .nanoseconds(Int(nanoseconds)), to: client)
        }
    }
}

/// Writes `response` to `client` and closes the connection.
private func send(_ response: String, to client: Int32) {
    _ = response.withCString { sendWithoutSignal(client, $0, strlen($0)) }
    close(client)
}

/// Writes `remaining` bytes to `client`, one every `interval`, then closes the connection (or
/// as soon as a write fails: the client went away).
private func trickle(_ remaining: Int, every interval: DispatchTimeInterval, to client: Int32) {
    guard remaining > 0 else {
        close(client)
        return
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + interval) {
        var byte: UInt8 = 0x2E
        guard sendWithoutSignal(client, &byte, 1) == 1 else {
            close(client)
            return
        }
        trickle(remaining - 1, every: interval, to: client)
    }
}

/// Writes to a connection without the process being stopped by `SIGPIPE` when the client has
/// already closed it (a request the client let go): on Linux the write fails with `EPIPE`
/// instead. (Elsewhere it is a plain write: the tests that let requests go run on Linux.)
private func sendWithoutSignal(_ client: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.send(client, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        write(client, bytes, count)
    #endif
}

/// Binds `descriptor` to 127.0.0.1 on a port the system picks; returns the port, or nil if
/// the system refused.
private func bindToLoopback(_ descriptor: Int32) -> UInt16? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { return nil }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// A port on 127.0.0.1 that refuses connections for as long as this value lives: bound, so
/// no other socket of the machine takes it, and not listening, so a connection to it is
/// refused at once. (The port of a server that has stopped may be taken again by another
/// server before a connection to it is tried.)
public final class RefusingPort: Sendable {
    private let descriptor: Int32
    /// The port.
    public let port: UInt16

    /// Binds a port.
    public init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard let port = bindToLoopback(descriptor) else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    deinit {
        close(descriptor)
    }

    /// The URL of `path` on this port.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}
