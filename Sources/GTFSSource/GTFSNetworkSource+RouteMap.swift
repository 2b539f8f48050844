import Foundation
import OnwardCore
import Timetable
import TransitSources

extension GTFSNetworkSource {
    /// Each direction's usual pattern, drawn along the shape of a trip that follows it (its stops joined where the
    /// feed has no shapes).
    public func routeMap(routeID: String) async throws(SourceError) -> SourceRouteMap {
        let state = store.current
        let tt = state.timetable
        guard let route = tt.lookupRoute(id: routeID).found else { throw missing(routeID, "route") }
        let info = tt.routeInfo(route)
        let lines = tt.directions(of: route).map { d in
            RouteLine(directionID: d.id, name: "to \(d.headsign)", shape: shape(of: d.trip, in: state),
                                stops: d.stops.map { tt.place(tt.station(of: $0) ?? $0) })
        }
        return SourceRouteMap(route: RouteSummary(id: info.id, shortName: info.shortName, longName: info.longName, color: info.color), lines: lines)
    }

    /// Every run of the route the live data speaks of that is on its way now: where the feed's vehicle position puts
    /// it, else where its live times place it (a feed of trip updates only); a run that has not left or has arrived,
    /// or is cancelled, is not on the map. With its next call and when it is due there.
    public func routeVehicles(routeID: String, now: Instant) async throws(SourceError) -> SourceRouteVehicles {
        let state = store.current
        let tt = state.timetable
        guard let route = tt.lookupRoute(id: routeID).found else { throw missing(routeID, "route") }
        let agency = tt.routeInfo(route).agencyID
        let zone = tt.agencies.first { $0.id == agency }?.timeZone ?? tt.agencies.first?.timeZone ?? "UTC"
        guard state.hasRealtime else { return SourceRouteVehicles(vehicles: [], timeZone: zone, live: nil) }
        let overlay = state.realtime.overlay
        let runs = Set(overlay.trips.keys).union(overlay.vehicles.keys).filter { tt.route(of: $0.trip) == route }
            .sorted { ($0.serviceDay, tt.firstDepartureTime(of: $0.trip) + $0.shift, $0.trip.raw) < ($1.serviceDay, tt.firstDepartureTime(of: $1.trip) + $1.shift, $1.trip.raw) }
        var vehicles: [RouteVehicle] = []
        for run in runs {
            let start = tt.isFrequencyBased(run.trip) ? tt.firstDepartureTime(of: run.trip) + run.shift : nil
            guard let details = try? tt.liveService(run.trip, on: ServiceDate(dayNumber: run.serviceDay), startTime: start, overlay: overlay, now: now),
                  !details.isCancelled, let vehicle = Self.onItsWay(details, at: now) else { continue }
            vehicles.append(vehicle)
        }
        return SourceRouteVehicles(vehicles: vehicles, timeZone: zone, live: state.live(now: now))
    }

    /// Where a run is and what it calls at next, or nil when it is not on its way.
    static func onItsWay(_ details: ServiceDetails, at now: Instant) -> RouteVehicle? {
        let reported = details.vehicle
        let latitude: Double, longitude: Double, basis: RouteVehicle.Basis
        var callIndex: Int?, atStop = false
        if let v = reported, let lat = v.latitude, let lon = v.longitude {
            (latitude, longitude, basis) = (lat, lon, .position)
            callIndex = v.callIndex
            atStop = v.stopStatus == .stoppedAt
        } else if let placed = details.placedByLiveTimes(at: now) {
            (latitude, longitude, basis) = (placed.latitude, placed.longitude, .liveTimes)
            (callIndex, atStop) = (placed.callIndex, placed.atStop)
        } else {
            return nil
        }
        // A position without its call: the first call still to come.
        let index = callIndex ?? details.calls.firstIndex { c in
            c.status != .skipped && c.status != .cancelled && (c.expectedDeparture ?? c.scheduledDeparture).epochSeconds >= now.epochSeconds
        }
        let next = index.flatMap { i -> RouteVehicle.NextStop? in
            guard details.calls.indices.contains(i) else { return nil }
            let c = details.calls[i]
            // Standing at it, when it leaves; else when it gets there.
            let due = atStop ? c.expectedDeparture ?? c.scheduledDeparture : c.expectedArrival ?? c.expectedDeparture ?? c.scheduledArrival
            return RouteVehicle.NextStop(stopID: c.stopID, name: c.stopName, due: due, delaySeconds: c.delaySeconds, atStop: atStop)
        }
        return RouteVehicle(tripID: details.tripID, serviceDate: details.serviceDate, headsign: details.headsign, latitude: latitude,
                            longitude: longitude, basis: basis, vehicle: reported, next: next)
    }
}
