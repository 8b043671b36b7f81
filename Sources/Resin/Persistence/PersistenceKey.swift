import Foundation

/// How a persisted state becomes bytes and back: JSON, a property list, or coding of your own.
///
/// ```swift
/// let text = PersistenceCoder<String>(
///     encode: { Data($0.utf8) },
///     decode: { String(decoding: $0, as: UTF8.self) })
/// ```
///
/// A `decode` that throws is a load error (``PersistenceError/Operation-swift.enum/load``); an
/// `encode` that throws is a save error. Both closures may run on any thread.
public struct PersistenceCoder<Value>: Sendable {
    let encode: @Sendable (Value) throws -> Data
    let decode: @Sendable (Data) throws -> Value

    /// A coder that writes with `encode` and reads with `decode`.
    public init(
        encode: @escaping @Sendable (Value) throws -> Data, decode: @escaping @Sendable (Data) throws -> Value
    ) {
        self.encode = encode
        self.decode = decode
    }

    /// The bytes of `value`.
    public func data(for value: Value) throws -> Data { try encode(value) }

    /// The value `data` holds.
    public func value(from data: Data) throws -> Value { try decode(data) }
}

extension PersistenceCoder where Value: Codable & Sendable {
    /// JSON with sorted keys: the same state always gives the same bytes, so a write of an
    /// unchanged state is recognised, and files compare well under version control.
    public static var json: PersistenceCoder {
        PersistenceCoder(
            encode: { value in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return try encoder.encode(value)
            },
            decode: { data in try JSONDecoder().decode(Value.self, from: data) })
    }

    /// A binary property list.
    public static var propertyList: PersistenceCoder {
        PersistenceCoder(
            encode: { value in
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(value)
            },
            decode: { data in try PropertyListDecoder().decode(Value.self, from: data) })
    }
}

/// Everything a persisted state needs in one value: where it is kept, how it is coded, and
/// the value it has when nothing is stored; declare one per state, as swift-sharing's keys are.
///
/// ```swift
/// extension PersistenceKey where Value == Settings {
///     static var settings: Self {
///         PersistenceKey(.file(settingsURL), default: Settings())
///     }
/// }
/// ```
///
/// and persist a part of the state with it:
///
/// ```swift
/// let settings = store.focus(\.settings).persist(.settings)
/// ```
///
/// The default is what the state is when nothing is stored at the location: when
/// persistence starts and finds nothing, and when what was stored is removed while it runs.
/// A key without one uses the state the store had when persistence started.
public struct PersistenceKey<Value>: Sendable where Value: Sendable {
    /// Where the state is kept.
    public var strategy: PersistenceStrategy
    /// How it is coded.
    public var coder: PersistenceCoder<Value>
    /// The state when nothing is stored, or `nil` for the store's own state at start.
    public var defaultValue: Value?

    /// A key keeping the state with `strategy`, coded by `coder`, `defaultValue` when nothing
    /// is stored.
    public init(_ strategy: PersistenceStrategy, coder: PersistenceCoder<Value>, default defaultValue: Value? = nil) {
        self.strategy = strategy
        self.coder = coder
        self.defaultValue = defaultValue
    }
}

extension PersistenceKey where Value: Codable {
    /// A key keeping the state as JSON with `strategy`, `defaultValue` when nothing is stored.
    public init(_ strategy: PersistenceStrategy, default defaultValue: Value? = nil) {
        self.init(strategy, coder: .json, default: defaultValue)
    }
}
