import Foundation
import ReactiveCore

/// Names one dependency effects use (a clock, a network client, a storage) with its value in
/// the app and in tests.
///
/// ```swift
/// struct APIClient: Sendable {
///     var search: @Sendable (String) async throws -> [String]
/// }
///
/// enum APIClientKey: DependencyKey {
///     static let liveValue = APIClient { query in
///         var url = URL(string: "https://example.com/search")!
///         url.append(queryItems: [URLQueryItem(name: "q", value: query)])
///         let (data, _) = try await URLSession.shared.data(from: url)
///         return try JSONDecoder().decode([String].self, from: data)
///     }
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
///
/// A key without a `testValue` has none: a test that reads it (an effect using a client
/// the test forgot to override) fails, naming the key, the first time it is read. The read
/// gives the live value, as the value has to be of the key's type, but the effect that read
/// it is cancelled first: a live client that checks cancellation (a `URLSession` request, a
/// sleep) ends at once with a `CancellationError`, and what the effect sends after is
/// dropped. Give a key a `testValue` when
/// every test may use it as it is (an in-memory storage, a fixed clock); leave it out for
/// what each test should state (a network client), and set it in the test store's
/// dependencies.
public protocol DependencyKey {
    /// The type of the dependency.
    associatedtype Value: Sendable
    /// The value in the app.
    static var liveValue: Value { get }
    /// The value in tests, unless a test sets another. Without one, a read in a test is
    /// reported as a failure.
    static var testValue: Value { get }
}

extension DependencyKey {
    /// No test value: a read in a test context reports the key as unimplemented (a test
    /// store records a failure), then gives the live value.
    public static var testValue: Value {
        Dependencies.defaultTestValueProbe?.markUsed()
        return liveValue
    }
}

/// Notes that a key's read fell to the default `testValue` (the key has none of its own).
final class DefaultTestValueProbe: Sendable {
    private let used = LockedState(false)
    func markUsed() { used.withLock { $0 = true } }
    var wasUsed: Bool { used.withLock { $0 } }
}

/// The dependencies a store gives its effects: each is its key's live (or test) value unless
/// set.
///
/// ```swift
/// var dependencies = Dependencies()
/// dependencies.api = APIClient { query in ["\(query), from the staging server"] }
/// let store = Store(initialState: AppState(), dependencies: dependencies)
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
    /// Where a read of a key with no test value goes, in the test context; without one, a
    /// line on standard error.
    package var unimplementedReporter: (@Sendable (_ key: String) -> Void)?

    /// Dependencies that give every key's value for `context`.
    public init(context: Context = .live) {
        self.context = context
    }

    /// The value for `key`: the one set, else the key's value for ``context``.
    ///
    /// In the test context, a key with no `testValue` of its own is reported (see
    /// ``DependencyKey``) and gives its live value.
    ///
    /// Changing part of the value in place (`dependencies.client.fetch = …`) starts from the
    /// value the key would give. Before a test store has the dependencies (in the test's own
    /// code, or its `withDependencies:`), that read is not reported: the test sets what it
    /// uses. With no test value, the parts it does not set are the live ones.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get {
            if let value = values[ObjectIdentifier(key)] {
                // Stored under this key's identifier by the setter below, so the cast holds.
                return value as! Key.Value
            }
            switch context {
            case .live: return Key.liveValue
            case .test: return testValue(of: key, reporting: true)
            }
        }
        set { values[ObjectIdentifier(key)] = newValue }
        _modify {
            let id = ObjectIdentifier(key)
            // Stored under this key's identifier by the setter, so the cast holds.
            var value =
                values[id].map { $0 as! Key.Value }
                ?? (context == .live ? Key.liveValue : testValue(of: key, reporting: false))
            defer { values[id] = value }
            yield &value
        }
    }

    /// The key's test value. With none of its own, and `reporting`, the read is reported, and
    /// an effect that made it is cancelled before it can use the live value it gets.
    private func testValue<Key: DependencyKey>(of key: Key.Type, reporting: Bool) -> Key.Value {
        let probe = DefaultTestValueProbe()
        let value = Dependencies.$defaultTestValueProbe.withValue(probe) { Key.testValue }
        // Reported where a test store listens, or, without one, when an effect reads it: a
        // test's own code that reads a key to change part of it (`dependencies.client.fetch
        // = …`, a get then a set) is not a use of the live value.
        let effect = Dependencies.readingEffect
        if reporting && probe.wasUsed && (unimplementedReporter != nil || effect != nil) {
            let name = String(describing: key)
            if let unimplementedReporter {
                unimplementedReporter(name)
            } else {
                Dependencies.reportUnimplemented(name)
            }
            // A live client that checks cancellation (a URLSession request, a sleep) then
            // ends at once instead of reaching the real world.
            if let effect {
                effect.cancel()
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        return value
    }

    /// The effect whose task is the current one, if a store started it.
    @TaskLocal static var readingEffect: EffectHandle?

    /// Notes, while a test value is read, whether the key's default (none) answered.
    @TaskLocal static var defaultTestValueProbe: DefaultTestValueProbe?

    /// The message for a read of `key`, which has no test value, in a test.
    package static func unimplementedMessage(_ key: String) -> String {
        "The dependency \(key) has no test value: a test read it, and the effect that read it was cancelled (a read outside an effect gets the live value). Set it in the test's dependencies, or give \(key) a testValue"
    }

    private static func reportUnimplemented(_ key: String) {
        FileHandle.standardError.write(Data("Resin: \(unimplementedMessage(key))\n".utf8))
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
