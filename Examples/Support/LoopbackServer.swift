import Foundation
import ReactiveCore

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
        guard let (descriptor, port) = Loopback.listeningSocket() else { throw CocoaError(.fileReadUnknown) }
        self.descriptor = descriptor
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
        Loopback.shutDown(descriptor)
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
            _ = header.withCString { Loopback.write(client, $0, strlen($0)) }
            let nanoseconds =
                interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
            trickle(bytes, every: .nanoseconds(Int(nanoseconds)), to: client)
        }
    }
}

/// Writes `response` to `client` and closes the connection.
private func send(_ response: String, to client: Int32) {
    _ = response.withCString { Loopback.write(client, $0, strlen($0)) }
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
        guard Loopback.write(client, &byte, 1) == 1 else {
            close(client)
            return
        }
        trickle(remaining - 1, every: interval, to: client)
    }
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
        guard let (descriptor, port) = Loopback.bindSocket() else { throw CocoaError(.fileReadUnknown) }
        self.descriptor = descriptor
        self.port = port
    }

    deinit {
        close(descriptor)
    }

    /// The URL of `path` on this port.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}
