import Foundation
import OnwardCore

/// What a Darwin board said of each train's call at its station, for the delay history: the delay at departure and
/// at arrival where Darwin gave a time (its estimate, or the actual time once it happened), and a cancellation where it
/// said so. A train only "Delayed" (no time) says nothing measurable and is left out. A board does not give a train's
/// whole calling pattern (a departures board has no calls before the station), so a call is named by its station:
/// `callNumber`, the CRS read as a number; a later board of the same train at the same station replaces what an
/// earlier one said, and another station's board adds its own.
extension DarwinStationBoard {
    public func delayObservations(observedAt: Instant) -> [DelayObservation] {
        let clock = DarwinClock()
        let zone = TimeZone.named(DarwinClock.zoneIdentifier)
        return services.compactMap { s in
            guard let event = s.departure ?? s.arrival else { return nil }
            let departure = s.isCancelled ? nil : s.departure?.delaySeconds
            let arrival = s.isCancelled ? nil : s.arrival?.delaySeconds
            guard s.isCancelled || departure != nil || arrival != nil else { return nil }
            let code = s.operatorCode ?? ""
            return DelayObservation(source: NationalRailIDs.source, tripID: NationalRailIDs.service(s.serviceID),
                                    serviceDate: clock.date(of: event.scheduled), call: Self.callNumber(crs),
                                    routeID: NationalRailIDs.route(code.isEmpty ? "unknown" : code), stopID: NationalRailIDs.station(crs),
                                    hourOfWeek: HourOfWeek(event.scheduled, in: zone), departureDelay: departure, arrivalDelay: arrival,
                                    cancelled: s.isCancelled, observedAt: observedAt)
        }
    }

    /// A station's CRS as a number, three letters in base 26 (`AAA` 0, `ECR` 2,773): one per station.
    public static func callNumber(_ crs: String) -> Int {
        crs.utf8.prefix(3).reduce(0) { $0 * 26 + Int($1 >= 65 && $1 <= 90 ? $1 - 65 : 0) }
    }
}
