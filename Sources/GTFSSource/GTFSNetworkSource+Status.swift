import GTFSRealtime
import OnwardCore
import TransitSources

extension GTFSNetworkSource {
    /// Each realtime feed by its safe name: fresh, stale (older than the maximum age),
    /// failing (its last poll failed, its last good data still shown), unavailable (never
    /// read) or idle (not polled yet), with its fetch counts and what its last message matched.
    public func status(now: Instant) -> [SourceStatus] {
        let state = store.current
        return timetableStatus(state, now: now) + state.sources.values.sorted { $0.name < $1.name }.map { h in
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

extension GTFSNetworkSource {
    /// A timetable ending within this many days is warned of.
    static let endWarningDays = 7

    /// Each static feed's version in service, as `NAME/timetable`: failing while its last check
    /// failed or refused a version (the one in service still answers), stale once its service
    /// has ended, with a warning in its last week.
    func timetableStatus(_ state: NetworkState, now: Instant) -> [SourceStatus] {
        let tt = state.timetable
        return state.served.versions.map { v in
            let check = state.feedChecks[v.feed]
            let today = tt.today(of: v.feed, at: now)
            let age = max(0, now.epochSeconds - v.fetchedAt.epochSeconds)
            var status = SourceStatus(name: "\(v.feed)/timetable", state: .fresh, ageSeconds: age, lastSuccess: v.fetchedAt)
            status.version = .init(hash: v.hash, fetchedAt: v.fetchedAt, publisherVersion: v.publisherVersion, firstDate: v.firstDate,
                                   lastDate: v.lastDate)
            if let problem = check?.problem {
                status.state = .failing
                status.detail = problem
                status.consecutiveFailures = 1
            }
            if let last = v.lastDate {
                let daysLeft = Int(last.dayNumber - today.dayNumber)
                if daysLeft < 0 {
                    status.state = .stale
                    status.detail = "the timetable ended on \(last.isoString); " + (status.detail ?? "no newer version has been accepted")
                } else if daysLeft < Self.endWarningDays {
                    status.warning = "the timetable ends on \(last.isoString), in \(daysLeft) day\(daysLeft == 1 ? "" : "s")"
                }
                status.measures.append(.init("feed_days_left", Double(daysLeft), help: "Days until the static timetable's last service date"))
            }
            status.measures += [
                // The hash's first 12 hex digits as a number (exact in a double): equal on every instance serving the same version.
                .init("feed_version", Double(UInt64(v.hash.prefix(12), radix: 16) ?? 0), help: "The served feed version (first 48 bits of its SHA-256)"),
                .init("feed_fetched_at_seconds", Double(v.fetchedAt.epochSeconds), help: "When the served feed version was fetched (Unix time)"),
                .init("feed_checks", Double(check?.checks ?? 0), help: "Checks of the static feed for a new version"),
                .init("feed_refusals", Double(check?.refusals ?? 0), help: "New static feed versions refused"),
                .init("feed_fetch_failures", Double(check?.fetchFailures ?? 0), help: "Checks of the static feed whose fetch failed"),
            ]
            return status
        }
    }
}
