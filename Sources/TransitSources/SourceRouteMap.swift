import OnwardCore

/// A route drawn on a map: the way each direction goes and the stops it calls at.
public struct SourceRouteMap: Sendable, Hashable {
    public var route: RouteSummary
    public var lines: [RouteLine]

    public init(route: RouteSummary, lines: [RouteLine]) { self.route = route; self.lines = lines }
}

/// The vehicles on a route now.
public struct SourceRouteVehicles: Sendable, Hashable {
    public var vehicles: [RouteVehicle]
    /// The zone to show their times in.
    public var timeZone: String
    public var live: LiveInfo?

    public init(vehicles: [RouteVehicle], timeZone: String, live: LiveInfo?) {
        self.vehicles = vehicles; self.timeZone = timeZone; self.live = live
    }
}

extension TransitSource {
    /// A route's map from what browsing gives: each direction's stops joined (a source with shapes says more).
    public func routeMap(routeID: String) async throws(SourceError) -> SourceRouteMap {
        let route = try await routes().first { $0.id == routeID }
            ?? RouteSummary(id: routeID, shortName: CanonicalID.split(routeID)?.local ?? routeID, longName: "")
        var lines: [RouteLine] = []
        for direction in try await directions(routeID: routeID) {
            lines.append(.init(directionID: direction.id, name: direction.name, shape: nil,
                               stops: try await stops(routeID: routeID, directionID: direction.id)))
        }
        return SourceRouteMap(route: route, lines: lines)
    }

    /// A route's vehicles from the source's vehicle positions (a source that knows each vehicle's service says more).
    public func routeVehicles(routeID: String, now: Instant) async throws(SourceError) -> SourceRouteVehicles {
        let answer = try await vehicles(routeID: routeID, now: now)
        let vehicles = answer.vehicles.compactMap { p -> RouteVehicle? in
            guard let lat = p.vehicle.latitude, let lon = p.vehicle.longitude else { return nil }
            let next = p.vehicle.stopID.map { RouteVehicle.NextStop(stopID: $0, name: nil, due: nil, atStop: p.vehicle.stopStatus == .stoppedAt) }
            return RouteVehicle(tripID: p.tripID, serviceDate: p.serviceDate, headsign: p.headsign, latitude: lat, longitude: lon, basis: .position,
                                vehicle: p.vehicle, next: next)
        }
        return SourceRouteVehicles(vehicles: vehicles, timeZone: "UTC", live: answer.live)
    }
}
