import ReactiveCore

extension Connector {
    /// Keeps `connection` in `connector`: `registrations += store.register(reducer)`.
    public static func += (connector: Connector, connection: Connection) {
        connector.add(connection)
    }
}
