import DataSources
import OnwardCore
import Synchronization
import TransitSources

extension CTABusTrackerSource {
    /// Every route, as `getroutes` lists them. Remembered for names and colours on boards.
    public func routes() async throws(SourceError) -> [RouteSummary] {
        let loaded = try await load(.routes) { (data, _) throws(SourceError) in try CTAParser.routes(data) }
        state.withLock { s in for route in loaded.value.items { s.routes[route.route] = route } }
        return loaded.value.items.map(\.summary)
    }

    /// A route's directions; their IDs are what `stops(routeID:directionID:)` takes.
    public func directions(routeID: String) async throws(SourceError) -> [RouteDirection] {
        let route = try localID(routeID, kind: "route")
        let loaded = try await load(.directions(route: route)) { (data, _) throws(SourceError) in try CTAParser.directions(data) }
        return loaded.value.items.map(\.routeDirection)
    }

    /// A route's stops in one direction. The adapter recognises these stops from now on.
    public func stops(routeID: String, directionID: String) async throws(SourceError) -> [StopPlace] {
        let route = try localID(routeID, kind: "route")
        guard CTAIDs.isValidDirection(directionID) else {
            throw SourceError(.notFound, "cta: that is not a direction of a CTA bus route")
        }
        return try await loadStops(route: route, direction: directionID).map(\.place)
    }

    /// Bulletins for a route or a stop, most severe first. The bus tracker has none for
    /// one trip and no list of all of them, so those scopes are refused.
    public func alerts(_ scope: AlertScope, now: Instant) async throws(SourceError) -> SourceAlerts {
        let request: CTARequest
        var stop: String?
        switch scope {
        case .route(let id): request = .serviceBulletins(route: try localID(id, kind: "route"))
        case .stop(let id):
            let local = try localID(id, kind: "stop")
            stop = local
            request = .serviceBulletins(stopID: local)
        case .service:
            throw SourceError(.unsupported, "The CTA bus tracker has bulletins for routes and stops, not for one bus trip.")
        case .all:
            throw SourceError(.unsupported, "The CTA bus tracker lists bulletins for a route or a stop, not all at once.")
        }
        let loaded = try await loadBulletins(request)
        let alerts = loaded.value.items.map { $0.alert() }.sorted(by: Alert.mostSevereFirst)
        var place: StopPlace?
        if let stop { place = await resolvePlace(stop, seenIn: nil) }
        return SourceAlerts(place: place, alerts: alerts, inactiveCount: 0, total: alerts.count,
                            timeZone: CTATime.timeZoneIdentifier)
    }

    /// The buses on a route. The bus tracker lists them by route only, so `routeID` is required.
    public func vehicles(routeID: String?, now: Instant) async throws(SourceError) -> SourceVehicles {
        guard let routeID else {
            throw SourceError(.invalidRequest, "The CTA bus tracker lists buses by route: choose a route.", parameter: "route")
        }
        let loaded = try await buses(routeID: routeID)
        let updated = loaded.value.items.map(\.reportedAt).max() ?? now
        return SourceVehicles(vehicles: loaded.value.items.map(\.placement),
                              live: LiveInfo(updatedAt: updated, stale: loaded.isStale))
    }

    /// The buses on a route with everything the bus tracker says of them (distance along
    /// the pattern, delay, speed), which a `VehiclePlacement` has no room for.
    public func buses(routeID: String) async throws(SourceError) -> CTALoaded<CTAAnswer<CTAVehicle>> {
        let route = try localID(routeID, kind: "route")
        return try await load(.vehicles(route: route)) { (data, now) throws(SourceError) in try CTAParser.vehicles(data, now: now) }
    }
}
