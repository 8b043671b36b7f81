import Dispatch
import ReactiveCore
import Testing

@Suite("Connector")
struct ConnectorTests {
    @Test("putInto keeps connections alive until the connector disconnects")
    func keepsConnectionsAlive() {
        let connector = Connector()
        let source = LocalSource()
        var seen: [Int] = []
        source.subscribe { seen.append($0) }.putInto(connector)
        source.subscribe { seen.append($0 * 10) }.putInto(connector)
        source.send(1)
        #expect(seen == [1, 10])
        #expect(connector.count == 2)
        connector.disconnect()
        source.send(2)
        #expect(seen == [1, 10])
        #expect(connector.isEmpty)
        #expect(source.subscriberCount == 0)
    }

    @Test("disconnect cuts connections oldest first")
    func order() {
        let log = Log<Int>()
        let connector = Connector()
        for index in 0..<20 {
            Connection { log.append(index) }.putInto(connector)
        }
        connector.disconnect()
        #expect(log.all == Array(0..<20))
    }

    @Test("disconnecting frees what the connector held")
    func freesWhatItHeld() {
        let connector = Connector()
        weak var weakSource: LocalSource?
        weak var weakToken: Token?
        do {
            let source = LocalSource()
            let token = Token()
            source.subscribe { _ in _ = token }.putInto(connector)
            (weakSource, weakToken) = (source, token)
        }
        #expect(weakSource != nil)
        connector.disconnect()
        #expect(weakSource == nil)
        #expect(weakToken == nil)
    }

    @Test("releasing the connector disconnects what it holds, and frees the connector")
    func releasingDisconnects() {
        let runs = Counter()
        weak var weakConnector: Connector?
        do {
            let connector = Connector()
            Connection { runs.increment() }.putInto(connector)
            weakConnector = connector
        }
        #expect(runs.value == 1)
        #expect(weakConnector == nil)
    }

    @Test("a connector is reusable after it disconnects")
    func reusable() {
        let connector = Connector()
        let source = LocalSource()
        var seen: [Int] = []
        source.subscribe { seen.append($0) }.putInto(connector)
        connector.disconnect()
        source.subscribe { seen.append($0) }.putInto(connector)
        source.send(7)
        #expect(seen == [7])
        #expect(connector.count == 1)
    }

    @Test("a connection that disconnects on its own leaves the connector")
    func selfDisconnectedLeaves() {
        let connector = Connector()
        let connection = Connection()
        connection.putInto(connector)
        #expect(connector.count == 1)
        connection.disconnect()
        #expect(connector.isEmpty)
    }

    @Test("adding twice keeps one; adding a disconnected connection keeps none")
    func duplicatesAndDeadConnections() {
        let runs = Counter()
        let connector = Connector()
        let connection = Connection { runs.increment() }
        connection.putInto(connector)
        connection.putInto(connector)
        #expect(connector.count == 1)
        let dead = Connection()
        dead.disconnect()
        connector.add(dead)
        #expect(connector.count == 1)
        connector.disconnect()
        #expect(runs.value == 1)
    }

    @Test("connections can be added and disconnected from many threads")
    func concurrentUse() {
        let connector = Connector()
        let runs = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for index in 0..<500 {
                let connection = Connection { runs.increment() }
                connection.putInto(connector)
                if index.isMultiple(of: 2) { connection.disconnect() }
                if lane == 0 && index == 250 { connector.disconnect() }
            }
        }
        connector.disconnect()
        #expect(runs.value == 8 * 500)
        #expect(connector.isEmpty)
    }
}
