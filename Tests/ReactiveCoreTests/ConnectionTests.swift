import Dispatch
import ReactiveCore
import Testing

@Suite("Connection")
struct ConnectionTests {
    @Test("disconnect runs its work once, however often it is called")
    func disconnectTwice() {
        let runs = Counter()
        let connection = Connection { runs.increment() }
        #expect(connection.isConnected)
        connection.disconnect()
        connection.disconnect()
        #expect(!connection.isConnected)
        #expect(runs.value == 1)
    }

    @Test("releasing the last reference disconnects")
    func deinitDisconnects() {
        let runs = Counter()
        do {
            _ = Connection { runs.increment() }
        }
        #expect(runs.value == 1)
    }

    @Test("an active connection keeps its source and sink alive, and lets go on disconnect")
    func keepsSourceAndSinkAlive() {
        weak var weakSource: LocalSource?
        weak var weakSink: Token?
        let connection: Connection
        do {
            let source = LocalSource()
            let token = Token()
            connection = source.subscribe { _ in _ = token }
            (weakSource, weakSink) = (source, token)
        }
        #expect(weakSource != nil)
        #expect(weakSink != nil)
        connection.disconnect()
        #expect(weakSource == nil)
        #expect(weakSink == nil)
    }

    @Test("a sink that disconnects itself during a delivery gets nothing more")
    func disconnectFromInsideTheSink() {
        let source = LocalSource()
        var seen: [Int] = []
        var connection: Connection?
        connection = source.subscribe { value in
            seen.append(value)
            if value == 2 { connection?.disconnect() }
        }
        for value in 1...4 { source.send(value) }
        #expect(seen == [1, 2])
        #expect(source.subscriberCount == 0)
        #expect(connection?.isConnected == false)
    }

    @Test("a sink disconnected by an earlier sink in the same delivery gets nothing")
    func disconnectAnotherSinkDuringDelivery() {
        let source = LocalSource()
        var seen: [String] = []
        var second: Connection?
        let first = source.subscribe { value in
            seen.append("first \(value)")
            second?.disconnect()
        }
        second = source.subscribe { value in seen.append("second \(value)") }
        source.send(1)
        source.send(2)
        #expect(seen == ["first 1", "first 2"])
        first.disconnect()
    }

    @Test("disconnect work that disconnects the same connection again does not run twice")
    func reentrantDisconnect() {
        let runs = Counter()
        var connection: Connection?
        connection = Connection(isolated: {
            runs.increment()
            connection?.disconnect()
        })
        connection?.disconnect()
        #expect(runs.value == 1)
    }

    @Test("cleanup runs after the connection's own work, in the order it was added")
    func cleanupOrder() {
        let log = Log<String>()
        let connection = Connection { log.append("disconnect") }
        connection.onDisconnect { log.append("cleanup 1") }
        connection.onDisconnect(isolated: { log.append("cleanup 2") })
        connection.disconnect()
        #expect(log.all == ["disconnect", "cleanup 1", "cleanup 2"])
    }

    @Test("cleanup added after the connection disconnected runs at once")
    func lateCleanup() {
        let runs = Counter()
        let connection = Connection()
        connection.disconnect()
        connection.onDisconnect { runs.increment() }
        #expect(runs.value == 1)
    }

    @Test("disconnect from many threads at once runs the work exactly once")
    func concurrentDisconnect() {
        for _ in 0..<200 {
            let runs = Counter()
            let connection = Connection { runs.increment() }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                connection.disconnect()
            }
            #expect(runs.value == 1)
        }
    }

    @Test("a thread-safe source's connections can be disconnected while it sends on another thread")
    func crossThreadDisconnectWhileSending() {
        let source = SharedSource()
        let received = Counter()
        let connections = (0..<50).map { _ in source.subscribe { _ in received.increment() } }
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            if lane == 0 {
                for value in 0..<1_000 { source.send(value) }
            } else {
                for connection in connections { connection.disconnect() }
            }
        }
        #expect(source.subscriberCount == 0)
        let afterwards = received.value
        source.send(0)
        #expect(received.value == afterwards)
    }

    @Test("a connection made with a source and a token calls the source once with its token, then lets go of it")
    func sourceAndToken() {
        weak var weakSource: TokenRecorder?
        var first: Connection?
        var second: Connection?
        let recorder: TokenRecorder
        do {
            let source = TokenRecorder()
            weakSource = source
            recorder = source
            first = Connection(source: source, token: 1)
            second = Connection(source: source, token: 2)
        }
        second?.disconnect()
        second?.disconnect()
        #expect(recorder.tokens == [2])
        #expect(second?.isConnected == false)
        first = nil
        #expect(recorder.tokens == [2, 1], "releasing the last reference disconnects")
        second = nil
        _ = (first, second)
        #expect(weakSource === recorder, "the test still holds the source")
    }

    @Test("a disconnected source-and-token connection no longer holds its source")
    func sourceReleasedOnDisconnect() {
        weak var weakSource: TokenRecorder?
        let connection: Connection
        do {
            let source = TokenRecorder()
            weakSource = source
            connection = Connection(source: source, token: 7)
        }
        #expect(weakSource != nil, "an active connection keeps its source alive")
        connection.disconnect()
        #expect(weakSource == nil)
    }

    @Test("connections that share a striped lock disconnect and take cleanups from many threads exactly once")
    func stripedLockUnderContention() {
        // Far more connections than stripes, so that many share a mutex.
        let recorder = TokenRecorder()
        let connections = (0..<1_000).map { Connection(source: recorder, token: $0) }
        let cleanups = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for (index, connection) in connections.enumerated() where index % 4 == lane || index % 3 == 0 {
                connection.onDisconnect { cleanups.increment() }
                connection.disconnect()
                #expect(!connection.isConnected)
            }
        }
        for connection in connections { connection.disconnect() }
        #expect(recorder.tokens.sorted() == Array(0..<1_000))
        // Every third connection is taken by all four lanes, each adding a cleanup; the others
        // by one lane. Each cleanup runs once: at the disconnect, or at once if added after it.
        let expectedCleanups = (0..<1_000).reduce(0) { sum, index in sum + (index % 3 == 0 ? 4 : 1) }
        #expect(cleanups.value == expectedCleanups)
    }

    @Test("connections are equal only to themselves")
    func identity() {
        let first = Connection()
        let second = Connection()
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, first, second]).count == 2)
    }
}

/// A connection source that records the tokens it is asked to disconnect, from any thread.
final class TokenRecorder: ConnectionSource, Sendable {
    private let state = LockedState<[Int]>([])

    var tokens: [Int] { state.withLock { $0 } }

    func disconnect(token: Int) {
        state.withLock { $0.append(token) }
    }
}
