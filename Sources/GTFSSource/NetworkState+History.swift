import Foundation
import OnwardCore

/// Usual delays from the history book, laid on what the network answers: a look-up per row, by route, stop and the
/// hour of the scheduled time on the stop's clock.
extension NetworkState {
    func addUsualDelays(to entries: inout [BoardEntry]) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        for i in entries.indices where !entries[i].isAddedTrip && entries[i].hasScheduledTime {
            entries[i].usualDelay = history.usual(route: entries[i].routeID, stop: entries[i].stopID, at: entries[i].scheduled,
                                                  zone: zones[entries[i].timeZone])
        }
    }

    func addUsualDelays(to details: inout ServiceDetails) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        let last = details.calls.count - 1
        for k in details.calls.indices {
            let call = details.calls[k]
            details.calls[k].usualDelay = history.usual(route: details.routeID, stop: call.stopID,
                                                        at: k == last ? call.scheduledArrival : call.scheduledDeparture, zone: zones[call.timeZone])
        }
    }

    func addUsualArrivals(to journeys: inout [Journey]) {
        guard !history.isEmpty else { return }
        var zones = ZoneCache()
        for j in journeys.indices {
            for l in journeys[j].legs.indices {
                guard case .transit(var ride) = journeys[j].legs[l], ride.isAddedTrip != true else { continue }
                ride.usualArrival = history.usual(route: ride.routeID, stop: ride.to.stopID, at: ride.arrival, zone: zones[ride.to.timeZone])
                journeys[j].legs[l] = .transit(ride)
            }
        }
    }
}

/// Time zones by identifier, made once per answer.
private struct ZoneCache {
    private var zones: [String: TimeZone] = [:]

    subscript(_ id: String) -> TimeZone {
        mutating get {
            if let z = zones[id] { return z }
            let z = TimeZone(identifier: id) ?? .gmt
            zones[id] = z
            return z
        }
    }
}
