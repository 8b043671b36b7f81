#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sockets on 127.0.0.1, for the package's small servers (DevTools' live page, the examples'
/// `LoopbackServer`): one place that binds to the loopback address only and writes without
/// `SIGPIPE`.
package enum Loopback {
    /// A TCP socket bound to 127.0.0.1 on `port` (0: a port the system picks), or `nil` if
    /// the system refused (the port is taken). Returns the descriptor and the port bound.
    package static func bindSocket(port: UInt16 = 0) -> (descriptor: Int32, port: UInt16)? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            return nil
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A socket listening on 127.0.0.1 on `port` (0: a port the system picks), or `nil`.
    package static func listeningSocket(port: UInt16 = 0, backlog: Int32 = 16) -> (descriptor: Int32, port: UInt16)? {
        guard let (descriptor, port) = bindSocket(port: port) else { return nil }
        guard listen(descriptor, backlog) == 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, port)
    }

    /// Writes `count` bytes to a connection, without the process being stopped by `SIGPIPE`
    /// when the other side has closed it: the write fails with `EPIPE` instead. Returns what
    /// `send` returns.
    package static func write(_ connection: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.send(connection, bytes, count, Int32(MSG_NOSIGNAL))
        #else
            Darwin.write(connection, bytes, count)
        #endif
    }

    /// Writes all of `text` to a connection; `false` when a write failed (the other side went
    /// away).
    package static func write(_ connection: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(connection, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Stops reading and writing on a socket (wakes a thread blocked in `accept` or `read`
    /// on it) and closes it.
    package static func shutDown(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
