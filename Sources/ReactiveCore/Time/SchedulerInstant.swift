/// A point in a scheduler's time: how long after the scheduler's origin.
///
/// A ``TestScheduler`` starts at ``zero`` unless told otherwise; a ``DispatchScheduler``
/// measures from the system's boot (Dispatch's uptime clock). Instants of different
/// schedulers are not comparable in any meaningful way.
public struct SchedulerInstant: InstantProtocol, CustomStringConvertible {
    /// The time elapsed since the scheduler's origin.
    public var offset: Duration

    /// Creates the instant `offset` after the origin.
    public init(offset: Duration) {
        self.offset = offset
    }

    /// The scheduler's origin.
    public static let zero = SchedulerInstant(offset: .zero)

    /// The instant `duration` later (or earlier, for a negative duration); past the end of
    /// what `Duration` holds (about 5 · 10¹⁸ years), the last instant it holds, never a trap.
    public func advanced(by duration: Duration) -> SchedulerInstant {
        let (sum, overflow) = offset.attoseconds.addingReportingOverflow(duration.attoseconds)
        guard overflow else { return SchedulerInstant(offset: Duration(attoseconds: sum)) }
        return SchedulerInstant(offset: Duration(attoseconds: duration > .zero ? .max : .min))
    }

    /// The time from this instant to `other`.
    public func duration(to other: SchedulerInstant) -> Duration {
        other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.offset < rhs.offset
    }

    /// The offset, such as `2.5 seconds`.
    public var description: String {
        "\(offset)"
    }
}

extension SchedulerInstant {
    /// The instant `duration` after `instant`.
    public static func + (instant: SchedulerInstant, duration: Duration) -> SchedulerInstant {
        instant.advanced(by: duration)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        rhs.duration(to: lhs)
    }
}
