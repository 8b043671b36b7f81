/// A bag that owns connections and disconnects them together.
///
/// Keep connections alive without a property for each, then cut them all at once:
///
/// ```swift
/// let connectionsWhileVisible = Connector()
///
/// func viewWillAppear() {
///     ticks.subscribe { print("Tick!") }.putInto(connectionsWhileVisible)
///     midnight.subscribe { _ in print("Ding dong!") }.putInto(connectionsWhileVisible)
/// }
///
/// func viewDidDisappear() {
///     connectionsWhileVisible.disconnect()
/// }
/// ```
///
/// A connector is reusable: after ``disconnect()`` it is empty and accepts new
/// connections. Releasing the connector disconnects whatever it still holds. A connection
/// that disconnects on its own leaves the connector, so a long-lived connector does not
/// grow with connections that ended elsewhere.
///
/// `Connector` is `Sendable`: connections may be added and disconnected from any thread.
/// Connections are disconnected in the order they were added.
public final class Connector: Sendable {
    private struct State: Sendable {
        var nextKey = 0
        var connections: [Int: Connection] = [:]
        var keys: [ObjectIdentifier: Int] = [:]
    }

    private let state = LockedState(State())

    /// Creates an empty connector.
    public init() {}

    deinit {
        disconnect()
    }

    /// The number of connections the connector holds.
    public var count: Int {
        state.withLock { $0.connections.count }
    }

    /// Whether the connector holds no connections.
    public var isEmpty: Bool {
        count == 0
    }

    /// Takes ownership of `connection` until the connector disconnects.
    ///
    /// Adding a connection that has already disconnected does nothing; adding one twice
    /// keeps it once.
    public func add(_ connection: Connection) {
        guard connection.isConnected else { return }
        let key: Int? = state.withLock { state in
            let identity = ObjectIdentifier(connection)
            guard state.keys[identity] == nil else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.connections[key] = connection
            state.keys[identity] = key
            return key
        }
        guard let key else { return }
        connection.onDisconnect { [weak self] in
            self?.remove(key)
        }
    }

    /// Disconnects every connection the connector holds, oldest first, and empties it.
    public func disconnect() {
        let connections = state.withLock { state in
            let taken = state.connections
            state.connections = [:]
            state.keys = [:]
            return taken
        }
        for key in connections.keys.sorted() {
            connections[key]?.disconnect()
        }
    }

    private func remove(_ key: Int) {
        // The removed connection is released after the lock, so its deinit cannot re-enter it.
        let removed = state.withLock { state -> Connection? in
            guard let connection = state.connections.removeValue(forKey: key) else { return nil }
            state.keys[ObjectIdentifier(connection)] = nil
            return connection
        }
        _ = removed
    }
}
