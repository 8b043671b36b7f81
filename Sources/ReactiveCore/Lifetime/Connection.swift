/// The lifetime of one subscription.
///
/// A connection stands for a link between a source and a sink. While it is connected
/// it keeps both alive; when it disconnects, the link is cut and the connection lets go
/// of everything it held. It disconnects when you call ``disconnect()`` or when its last
/// reference goes away, whichever comes first.
///
/// ```swift
/// let connection = counter.subscribe { print("count is \($0)") }
/// counter.value += 1          // prints "count is 1"
/// connection.disconnect()     // the sink is gone; later changes print nothing
/// ```
///
/// To keep many connections alive without a property for each, put them into a
/// ``Connector`` with ``putInto(_:)``.
///
/// ## Threading
///
/// `Connection` is `Sendable` and its bookkeeping is thread-safe: ``disconnect()`` may be
/// called from any thread, any number of times, and the disconnect work runs exactly
/// once. A connection made with ``init(_:)`` (a `@Sendable` action, as thread-safe
/// sources such as `Signals` use) may be disconnected or released anywhere. A connection
/// made with ``init(isolated:)`` belongs to the isolation domain of the single-threaded
/// source that made it; see that initializer.
///
/// ## Order
///
/// Disconnecting runs the connection's own action first and then the cleanup work added
/// with ``onDisconnect(_:)`` in the order it was added. Work added after the connection
/// has disconnected runs at once.
public final class Connection: @unchecked Sendable {
    private enum Action {
        case sendable(@Sendable () -> Void)
        case isolated(IsolatedClosure)
        case source(any ConnectionSource, token: Int)

        func run() {
            switch self {
            case .sendable(let body): body()
            case .isolated(let body): body()
            case .source(let source, let token): source.disconnect(token: token)
            }
        }
    }

    // Unchecked Sendable: these three are read and written only while holding
    // `StripedLock.mutex(for: self)` (or in `deinit`, when no other reference exists), and
    // the actions are taken out exactly once. The lock is shared with other connections, so
    // a connection costs one allocation; its critical sections never call out. An isolated
    // action runs in its creating domain, under the contract of `init(isolated:)`.
    //
    // Stored properties are laid out in the order they are declared: `connected` goes into
    // the padding after `primary` (25 bytes), which makes the object 56 bytes, one `malloc`
    // size class smaller than with `connected` first. Programs hold a connection per
    // observer, and a walk over many of them is bound by the memory it touches.
    @exclusivity(unchecked) private var primary: Action?
    @exclusivity(unchecked) private var connected = true
    @exclusivity(unchecked) private var cleanups: [Action] = []

    /// Creates a connection that runs `disconnect` once, when it disconnects.
    ///
    /// The closure usually captures the source strongly (so an active connection keeps its
    /// source alive, and the source keeps the sink) and removes the sink from the source.
    /// It is released as soon as it has run.
    ///
    /// - Parameter disconnect: The work that cuts the link. It may run on any thread.
    public init(_ disconnect: @escaping @Sendable () -> Void) {
        primary = .sendable(disconnect)
    }

    /// Creates a connection whose disconnect work belongs to one isolation domain.
    ///
    /// Single-threaded paradigms keep their non-`Sendable` objects in one isolation domain
    /// (an actor, the main thread, or a task). Their connections capture those objects, so
    /// `disconnect` must run in that same domain: call ``disconnect()`` and release the last
    /// reference there, exactly as you would only touch the objects themselves there. The
    /// connection's own bookkeeping stays thread-safe either way.
    ///
    /// - Parameter disconnect: The work that cuts the link, run in the creating domain.
    @_disfavoredOverload
    public init(isolated disconnect: @escaping () -> Void) {
        primary = .isolated(IsolatedClosure(disconnect))
    }

    /// Creates a connection that, when it disconnects, calls `source.disconnect(token:)`
    /// with `token`: the form of ``init(isolated:)`` that allocates no closure, for sources
    /// that make many connections. The connection holds `source` strongly until then; the
    /// rule of ``init(isolated:)`` on isolation domains applies.
    package init(source: any ConnectionSource, token: Int) {
        primary = .source(source, token: token)
    }

    /// Creates a connection with nothing to cut yet; attach work with ``onDisconnect(_:)``.
    public init() {}

    /// Creates a connection that stands for `connections`: it keeps them alive, and
    /// disconnecting it (or releasing it) disconnects each of them, in order.
    ///
    /// ```swift
    /// let registrations = Connection(grouping: [store.register(counter), store.register(logger)])
    /// ```
    ///
    /// Disconnect it where its members may be disconnected: a member made with
    /// ``init(isolated:)`` belongs to its creating domain.
    public convenience init(grouping connections: [Connection]) {
        self.init { for connection in connections { connection.disconnect() } }
    }

    deinit {
        // The last reference is gone: nothing else can touch the state, so no lock.
        guard connected else { return }
        connected = false
        primary?.run()
        for cleanup in cleanups { cleanup.run() }
    }

    /// Whether the connection is still active.
    public var isConnected: Bool {
        StripedLock.withLock(for: self) { connected }
    }

    /// Cuts the link and releases everything the connection held.
    ///
    /// Idempotent and safe from any thread: only the first call does anything. A sink may
    /// disconnect its own connection while a value is being delivered to it; the delivery
    /// in progress finishes, and the sink receives nothing more.
    public func disconnect() {
        // Moved out under the lock, not copied: no reference is counted twice.
        var primary: Action?
        var cleanups: [Action] = []
        StripedLock.withLock(for: self) {
            guard connected else { return }
            connected = false
            swap(&primary, &self.primary)
            swap(&cleanups, &self.cleanups)
        }
        primary?.run()
        for cleanup in cleanups { cleanup.run() }
    }

    /// Adds work to run when the connection disconnects, after the work added before it.
    ///
    /// If the connection has already disconnected, `cleanup` runs at once.
    public func onDisconnect(_ cleanup: @escaping @Sendable () -> Void) {
        add(.sendable(cleanup))
    }

    /// Adds work to run when the connection disconnects, in the creating isolation domain.
    ///
    /// The same rule as ``init(isolated:)`` applies: disconnect the connection in the
    /// domain that added the work. If the connection has already disconnected, `cleanup`
    /// runs at once.
    @_disfavoredOverload
    public func onDisconnect(isolated cleanup: @escaping () -> Void) {
        add(.isolated(IsolatedClosure(cleanup)))
    }

    private func add(_ action: Action) {
        let added = StripedLock.withLock(for: self) { () -> Bool in
            guard connected else { return false }
            cleanups.append(action)
            return true
        }
        if !added { action.run() }
    }

    /// Hands the connection to `connector`, which keeps it alive until the connector
    /// disconnects or is released.
    ///
    /// ```swift
    /// ticks.subscribe { print("Tick!") }.putInto(connectionsWhileVisible)
    /// ```
    public func putInto(_ connector: Connector) {
        connector.add(self)
    }
}

extension Connection: Hashable {
    /// Connections are equal when they are the same object.
    public static func == (lhs: Connection, rhs: Connection) -> Bool {
        lhs === rhs
    }

    /// Hashes the connection's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// An object that makes connections with ``Connection/init(source:token:)``: one that
/// tells its links apart by a token rather than by a closure per link.
package protocol ConnectionSource: AnyObject {
    /// Cuts the link that the connection made with `token` stands for. Called once per
    /// connection, in the isolation domain that made it.
    func disconnect(token: Int)
}
