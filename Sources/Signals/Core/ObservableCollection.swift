/// Keeps modifier chains alive; releasing it, or calling ``removeAll()``, tears them down.
///
/// ```swift
/// let observables = ObservableCollection()
/// signal.fired.then { print($0) }.append(to: observables)
/// ```
///
/// A chain that nothing keeps is freed at once and receives nothing: append every chain to a
/// collection that lives as long as the chain should. Built on the common module's
/// `Connector`; `Sendable`, so chains can be appended and removed from any thread.
public final class ObservableCollection: Sendable {
    private let connector = Connector()

    /// An empty collection.
    public init() {}

    /// The number of chains kept.
    public var count: Int { connector.count }

    /// Tears down every chain: each disconnects from what it observes and is freed.
    public func removeAll() {
        connector.disconnect()
    }

    func insert<Message>(_ observable: MessageSource<Message>) {
        Connection { observable.detachFromUpstream() }.putInto(connector)
    }
}

extension MessageSource {
    /// Keeps this chain alive in `collection` until the collection is released or emptied.
    public func append(to collection: ObservableCollection) {
        collection.insert(self)
    }
}
