import TransitSources

extension Queries.ResolvedStop {
    /// Whether the stop's source answers for any moment (a timetable) rather than only for its own
    /// now (a live-only upstream), so a caller knows whether a date and time asked for apply.
    public var answersForAnyTime: Bool { source.capabilities.contains(.anyTime) }
}
