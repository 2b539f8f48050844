import GTFSRealtime
import OnwardCore
import TransitSources

extension GTFSNetworkSource {
    /// Each realtime feed by its safe name: fresh, stale (older than the maximum age),
    /// failing (its last poll failed, its last good data still shown), unavailable (never
    /// read) or idle (not polled yet), with its fetch counts and what its last message matched.
    public func status(now: Instant) -> [SourceStatus] {
        let state = store.current
        return state.sources.values.sorted { $0.name < $1.name }.map { h in
            let age = h.age(at: now)
            let condition: SourceStatus.State = h.lastSuccess == nil ? (h.consecutiveFailures > 0 ? .unavailable : .idle)
                : h.consecutiveFailures > 0 ? .failing : (age ?? 0) > state.maxAge ? .stale : .fresh
            var measures: [SourceStatus.Measure] = [
                .init("realtime_fetch_successes", Double(h.successes), help: "Successful realtime fetches"),
                .init("realtime_fetch_failures", Double(h.failures), help: "Failed realtime fetches"),
                .init("realtime_consecutive_failures", Double(h.consecutiveFailures), help: "Realtime fetches failed in a row"),
            ]
            if let age { measures.append(.init("realtime_feed_age_seconds", Double(age), help: "Age of the realtime data applied")) }
            if let r = state.realtime.reports[h.name] {
                measures += [
                    .init("realtime_matched_trips", Double(r.matchedTrips), help: "Trip updates matched to the timetable"),
                    .init("realtime_unmatched_trips", Double(r.unknownTrips + r.unmatchedInstances), help: "Trip updates for unknown trips or runs"),
                    .init("realtime_matched_stop_time_updates", Double(r.matchedStopTimeUpdates), help: "Stop time updates matched"),
                    .init("realtime_unmatched_stop_time_updates", Double(r.unknownStops), help: "Stop time updates for unknown stops"),
                ]
            }
            return SourceStatus(name: h.name, state: condition, ageSeconds: age, detail: h.lastError?.message,
                                lastSuccess: h.lastSuccess, consecutiveFailures: h.consecutiveFailures, measures: measures)
        }
    }
}
