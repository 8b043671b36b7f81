extension MessageSource {
    /// Passes on the messages for which `isIncluded` is `true`.
    ///
    /// ```swift
    /// property.didSet.filter { $0 >= 100 }.then { print("\($0) is at least 100") }
    /// ```
    public func filter(_ isIncluded: @escaping @Sendable (Message) -> Bool) -> FilterModifier<Message> {
        FilterModifier(upstream: self, core: FilterCore(upstream: self, isIncluded: isIncluded))
    }

    /// Passes on `transform` of each message.
    ///
    /// ```swift
    /// property.didSet.map { 2 * $0 }.then { print($0) }
    /// ```
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Message) -> Output) -> MapModifier<
        Message, Output
    > {
        MapModifier(upstream: self, core: MapCore(upstream: self, transform: transform))
    }
}

/// Passes on some messages; made by ``MessageSource/filter(_:)``.
public final class FilterModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// The work of a ``FilterModifier``.
final class FilterCore<Message: Sendable>: ModifierCore<Message, Message>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the only stored property is a `@Sendable` closure.
    private let isIncluded: @Sendable (Message) -> Bool

    init(upstream: MessageSource<Message>, isIncluded: @escaping @Sendable (Message) -> Bool) {
        self.isIncluded = isIncluded
        super.init(upstream: upstream)
    }

    override func process(_ message: Message, sequence: UInt64?) {
        if isIncluded(message) { sendResult(message, sequence: sequence) }
    }
}

/// Transforms messages; made by ``MessageSource/map(_:)``.
public final class MapModifier<Input: Sendable, Output: Sendable>: Modifier<Input, Output>, @unchecked Sendable {}

/// The work of a ``MapModifier``.
final class MapCore<Input: Sendable, Output: Sendable>: ModifierCore<Input, Output>, @unchecked Sendable {
    // `@unchecked` as for `Relay`: the only stored property is a `@Sendable` closure.
    private let transform: @Sendable (Input) -> Output

    init(upstream: MessageSource<Input>, transform: @escaping @Sendable (Input) -> Output) {
        self.transform = transform
        super.init(upstream: upstream)
    }

    override func process(_ message: Input, sequence: UInt64?) {
        sendResult(transform(message), sequence: sequence)
    }
}
