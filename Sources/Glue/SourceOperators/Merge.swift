extension SourceType {
    /// A source that sends the values of this source and of `other`, as they arrive.
    public func merged<Other: SourceType>(with other: Other) -> MergedSource<Value> where Other.Value == Value {
        MergedSource([Source(self), Source(other)])
    }
}

extension Source {
    /// A source that sends the values of all `sources`, as they arrive.
    public static func merge(_ sources: [Source<Value>]) -> MergedSource<Value> {
        MergedSource(sources)
    }

    /// A source that sends the values of all `sources`, as they arrive.
    public static func merge(_ sources: Source<Value>...) -> MergedSource<Value> {
        MergedSource(sources)
    }
}

/// A source that sends the values of several sources; made by
/// ``SourceType/merged(with:)`` and ``Source/merge(_:)-(Source<Value>...)``.
///
/// Values arrive in the order the inputs send them. If one input sends while the merged
/// sink is still handling a value from another (the sink made it send), the new value is
/// queued and delivered after, so the sink is never nested, as with ``Signal``.
public struct MergedSource<Value>: SourceType {
    let inputs: [Source<Value>]

    init(_ inputs: [Source<Value>]) {
        self.inputs = inputs
    }

    /// Starts sending the values of every input to `sink`.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let serializer = Signal<Value>()
        let forwarding = serializer.subscribe(sink)
        let connections = inputs.map { $0.subscribe(serializer) }
        return Connection(isolated: {
            for connection in connections { connection.disconnect() }
            forwarding.disconnect()
        })
    }
}
