/// Names one dependency effects use (a clock, a network client, a storage) with its value in
/// the app and in tests.
///
/// ```swift
/// struct APIClient: Sendable {
///     var search: @Sendable (String) async throws -> [String]
/// }
///
/// enum APIClientKey: DependencyKey {
///     static let liveValue = APIClient { query in try await URLSession.shared.search(query) }
///     static let testValue = APIClient { _ in [] }
/// }
///
/// extension Dependencies {
///     var api: APIClient {
///         get { self[APIClientKey.self] }
///         set { self[APIClientKey.self] = newValue }
///     }
/// }
/// ```
///
/// A store built with ``Store/init(initialState:scheduler:dependencies:)`` uses the live
/// values unless told otherwise; `ResinTesting`'s test store uses the test values.
public protocol DependencyKey {
    /// The type of the dependency.
    associatedtype Value: Sendable
    /// The value in the app.
    static var liveValue: Value { get }
    /// The value in tests, unless a test sets another. By default, the live value.
    static var testValue: Value { get }
}

extension DependencyKey {
    /// The live value: a dependency is the same in tests unless its key says otherwise.
    public static var testValue: Value { liveValue }
}

/// The dependencies a store gives its effects: each is its key's live (or test) value unless
/// set.
///
/// ```swift
/// var dependencies = Dependencies()
/// dependencies.clock = TestScheduler()
/// let store = Store(initialState: AppState(), dependencies: dependencies)
///
/// // In an effect:
/// return .run { send in
///     @Dependency(\.clock) var clock
///     try await clock.sleep(for: .seconds(1))
///     send(Tick())
/// }
/// ```
///
/// Effects read them through ``Dependency`` (or ``current``): the store runs every effect's
/// operation with its dependencies as the task's current ones, and tasks the operation starts
/// inherit them. Middleware reads them from its context.
public struct Dependencies: Sendable {
    /// Which value a key gives when none was set.
    public enum Context: Sendable {
        /// ``DependencyKey/liveValue``.
        case live
        /// ``DependencyKey/testValue``.
        case test
    }

    /// Whether unset keys give their live or their test values.
    public var context: Context
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Dependencies that give every key's value for `context`.
    public init(context: Context = .live) {
        self.context = context
    }

    /// The value for `key`: the one set, else the key's value for ``context``.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get {
            if let value = values[ObjectIdentifier(key)] {
                // Stored under this key's identifier by the setter below, so the cast holds.
                return value as! Key.Value
            }
            switch context {
            case .live: return Key.liveValue
            case .test: return Key.testValue
            }
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a value was set for `key` (rather than taken from the key).
    public func isSet<Key: DependencyKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// The dependencies of the effect running in the current task (a store sets them for
    /// every effect it starts); outside an effect, live values.
    @TaskLocal public static var current = Dependencies()
}

/// Reads a dependency of the effect that is running.
///
/// ```swift
/// return .run { send in
///     @Dependency(\.clock) var clock
///     try await clock.sleep(for: .milliseconds(300))
///     send(Search(query))
/// }
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    // A key path is immutable and only read; it names a property of `Dependencies`.
    nonisolated(unsafe) private let keyPath: KeyPath<Dependencies, Value>

    /// Reads the dependency at `keyPath` of ``Dependencies/current``.
    public init(_ keyPath: KeyPath<Dependencies, Value>) {
        self.keyPath = keyPath
    }

    /// The dependency's value in the current task.
    public var wrappedValue: Value {
        Dependencies.current[keyPath: keyPath]
    }
}

/// The clock effects sleep on.
public enum ClockKey: DependencyKey {
    /// The system's continuous clock.
    public static var liveValue: any Clock<Duration> { ContinuousClock() }
}

extension Dependencies {
    /// The clock effects sleep on: `ContinuousClock` in the app; a test sets a
    /// `TestScheduler` (`ResinTesting`'s test store sets its own scheduler).
    public var clock: any Clock<Duration> {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
}
