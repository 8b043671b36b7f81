extension MessageSource {
    /// Passes on the messages for which `isIncluded` is `true`.
    ///
    /// ```swift
    /// property.didSet.filter { $0 >= 100 }.then { print("\($0) is at least 100") }.append(to: observables)
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Message) -> Bool) -> FilterModifier<Message> {
        FilterModifier(
            upstream: self,
            core: OperatorCore.make(upstream: self) { core, message, sequence in
                if isIncluded(message) { core.sendResult(message, sequence: sequence) }
            })
    }

    /// Passes on `transform` of each message.
    ///
    /// ```swift
    /// property.didSet.map { 2 * $0 }.then { print($0) }.append(to: observables)
    /// ```
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Message) -> Output) -> MapModifier<
        Message, Output
    > {
        MapModifier(
            upstream: self,
            core: OperatorCore.make(upstream: self) { core, message, sequence in
                core.sendResult(transform(message), sequence: sequence)
            })
    }
}

/// Passes on some messages; made by ``MessageSource/filter(_:)``.
public final class FilterModifier<Message: Sendable>: Modifier<Message, Message>, @unchecked Sendable {}

/// Transforms messages; made by ``MessageSource/map(_:)``.
public final class MapModifier<Input: Sendable, Output: Sendable>: Modifier<Input, Output>, @unchecked Sendable {}
