import Foundation
import OnwardCore

/// Usual delays from the history book, laid on what the network answers: a look-up per row, by route, stop and the
/// hour of the scheduled time on the stop's clock.
extension NetworkState {
    func addUsualDelays(to entries: inout [BoardEntry]) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        // A board's rows share a stop (a station's, a few platforms): its history is found once per change of stop.
        var stop = "", here: StopHistory?
        for i in entries.indices where !entries[i].isAddedTrip && entries[i].hasScheduledTime {
            if entries[i].stopID != stop { stop = entries[i].stopID; here = history.atStop(stop) }
            guard let here else { continue }
            entries[i].usualDelay = here.usual(route: entries[i].routeID, hour: zones.hour(entries[i].scheduled, entries[i].timeZone))
        }
    }

    func addUsualDelays(to details: inout ServiceDetails) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        let last = details.calls.count - 1
        for k in details.calls.indices {
            let call = details.calls[k]
            details.calls[k].usualDelay = history.usual(route: details.routeID, stop: call.stopID,
                                                        hour: zones.hour(k == last ? call.scheduledArrival : call.scheduledDeparture, call.timeZone))
        }
    }

    func addUsualArrivals(to journeys: inout [Journey]) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        for j in journeys.indices {
            for l in journeys[j].legs.indices {
                guard case .transit(var ride) = journeys[j].legs[l], ride.isAddedTrip != true else { continue }
                ride.usualArrival = history.usual(route: ride.routeID, stop: ride.to.stopID, hour: zones.hour(ride.arrival, ride.to.timeZone))
                journeys[j].legs[l] = .transit(ride)
            }
        }
    }
}

/// The hour of the week of many instants in few zones, for one answer: a zone's offset is asked once per half hour of
/// time (clocks change on the hour or the half hour), since asking Foundation for each row cost a tenth of a board.
private struct ZoneCache {
    private struct Key: Hashable { var zone: String; var halfHour: Int64 }
    private var zones: [String: TimeZone] = [:]
    private var offsets: [Key: Int] = [:]

    /// The last zone and half hour asked, and its offset: a board's rows are one zone, mostly in a few half hours.
    private var last: (key: Key, offset: Int)?

    mutating func hour(_ instant: Instant, _ zoneID: String) -> HourOfWeek {
        let key = Key(zone: zoneID, halfHour: instant.epochSeconds >= 0 ? instant.epochSeconds / 1800 : (instant.epochSeconds - 1799) / 1800)
        if let last, last.key.halfHour == key.halfHour, last.key.zone == zoneID { return HourOfWeek(instant, utcOffset: last.offset) }
        if let offset = offsets[key] {
            last = (key, offset)
            return HourOfWeek(instant, utcOffset: offset)
        }
        let zone = zones[zoneID] ?? TimeZone.named(zoneID)
        zones[zoneID] = zone
        let offset = zone.secondsFromGMT(for: instant.date)
        offsets[key] = offset
        last = (key, offset)
        return HourOfWeek(instant, utcOffset: offset)
    }
}
