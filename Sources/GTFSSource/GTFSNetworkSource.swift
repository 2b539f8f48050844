import Foundation
import OnwardCore
import Synchronization
import Timetable
import TransitSources

/// The GTFS network (one or more static feeds, with their realtime feeds) as a source:
/// the one implementation of `TransitSource` that answers from the compact timetable
/// and its realtime overlay. Its names are the feeds' names (`mrt-jakarta`, or
/// `caltrain` and `bart`), so every ID it gives is `FEED:LOCAL`.
///
/// It reads whatever state the `LiveStore` holds at the moment of each question, so an
/// answer never sees half a realtime update; the store announces each change (`updates`).
public final class GTFSNetworkSource: TransitSource {
    public let store: LiveStore
    public let displayName: String
    public let sourceNames: [String]

    public init(store: LiveStore, displayName: String) {
        self.store = store
        self.displayName = displayName
        sourceNames = store.current.timetable.feeds.map(\.name)
    }

    public var capabilities: SourceCapabilities {
        [.stopSearch, .nearby, .departures, .arrivals, .callingAtFilter, .serviceDetails, .alerts, .browse, .vehicles, .anyTime, .timeWindow,
         .journeys]
    }

    public var timetableSize: (stops: Int, trips: Int)? {
        let tt = store.snapshot.state.timetable
        return (tt.stopCount, tt.tripCount)
    }

    /// The journey planner over the timetable in service now.
    public var planner: JourneyPlanner { store.snapshot.state.served.planner }

    public var updates: (any SourceUpdates)? { store }

    // MARK: - IDs

    public func recognizes(localID: String, as kind: IDKind) -> Bool { !canonicalIDs(forLocal: localID, as: kind).isEmpty }

    /// The timetable's own rule: a canonical ID, or an unprefixed one tried in each feed.
    public func canonicalIDs(forLocal localID: String, as kind: IDKind) -> [String] {
        // Every request that names a stop comes here: asked of the served timetable (a class holding the timetable
        // as a `let`), the timetable is read in place, not copied out with each of its arrays retained and released
        // (4% of a departures board's time under load when it was).
        store.snapshot.state.served.canonicalIDs(forLocal: localID, as: kind)
    }

    func stop(_ id: String, in tt: Timetable) throws(SourceError) -> StopIndex {
        guard let s = tt.lookupStop(id: id).found else { throw missing(id, "stop") }
        return s
    }

    /// The trip with this ID; or, when the agency's new timetable renamed it (a trip that runs exactly as it
    /// did, under another ID), that trip, so what was saved on the old ID keeps its live times.
    func trip(_ id: String, in state: NetworkState) throws(SourceError) -> TripIndex {
        let tt = state.timetable
        if let t = tt.lookupTrip(id: id).found { return t }
        if let successor = state.served.retired.successor(ofTrip: id), let t = tt.lookupTrip(id: successor).found { return t }
        throw missing(id, "trip")
    }

    /// Why an ID is not in the timetable: it never was (not found), or an earlier version had it
    /// and the one in service dropped it (no longer scheduled, naming that version).
    func missing(_ id: String, _ kind: String) -> SourceError {
        if let version = store.snapshot.state.served.retired[id] {
            return SourceError(.noLongerScheduled, "The \(kind) '\(id)' is no longer in the timetable: \(RetiredIDs.describe(version)) does not have it.")
        }
        return SourceError(.notFound, kind == "stop" ? "No stop or station has the ID '\(id)'." : "No \(kind) has the ID '\(id)'.")
    }

    // MARK: - Stops

    public func place(_ stopID: String) async throws(SourceError) -> StopPlace {
        let tt = store.current.timetable
        return tt.place(try stop(stopID, in: tt))
    }

    public func searchStops(_ text: String, limit: Int) async throws(SourceError) -> [StopPlace] {
        store.current.timetable.searchStops(text, limit: limit)
    }

    public func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws(SourceError) -> [StopPlace] {
        store.current.timetable.nearbyStops(latitude: latitude, longitude: longitude, radius: radius, limit: limit)
    }

    /// The timetable's name rule (a phrase beats scattered words; an exact name wins), with
    /// the nearest names (a typo) when nothing matches.
    public func matchStop(named text: String) async -> StopNameMatch {
        let tt = store.current.timetable
        switch tt.resolveStop(text) {
        case .found(let s): return .found(tt.place(s))
        case .ambiguous(let candidates): return .ambiguous(candidates)
        case .notFound: return .notFound(suggestions: tt.nearestNames(text))
        }
    }

    public func listedStations() -> [StopPlace] { store.current.timetable.stationPlaces() }

    /// By short name first, then long name; several routes with that name are all returned.
    public func routes(named text: String) -> [RouteSummary] {
        let tt = store.current.timetable
        let all = tt.allRoutes.map(tt.routeInfo)
        for name in [\RouteInfo.shortName, \RouteInfo.longName] {
            let found = all.filter { $0[keyPath: name].caseInsensitiveCompare(text) == .orderedSame }
            if !found.isEmpty { return found.map { RouteSummary(id: $0.id, shortName: $0.shortName, longName: $0.longName, color: $0.color) } }
        }
        return []
    }

    public func names(stopIDs: [String], routeIDs: [String]) -> EntityNames {
        let tt = store.current.timetable
        var names = EntityNames()
        for id in stopIDs { if let s = tt.stop(id: id) { names.stops[id] = tt.place(s).name } }
        for id in routeIDs { if let r = tt.route(id: id) { names.routes[id] = tt.routeInfo(r).displayName } }
        return names
    }

    public func platformIDs(of stationID: String) -> [String] {
        let tt = store.current.timetable
        return tt.stop(id: stationID).map { tt.platformIDs(of: $0) } ?? []
    }

    // MARK: - Vehicles

    public func vehicles(routeID: String?, now: Instant) async throws(SourceError) -> SourceVehicles {
        let state = store.current
        let tt = state.timetable
        let list = state.realtime.overlay.vehicles.sorted {
            ($0.key.trip.raw, $0.key.serviceDay, $0.key.shift) < ($1.key.trip.raw, $1.key.serviceDay, $1.key.shift)
        }
        let placements = list.compactMap { key, info -> VehiclePlacement? in
            let trip = key.trip
            let route = tt.routeInfo(tt.route(of: trip))
            if let routeID, route.id != routeID { return nil }
            return VehiclePlacement(tripID: tt.tripIdentifier(trip), routeID: route.id, routeShortName: route.shortName,
                                    serviceDate: ServiceDate(dayNumber: key.serviceDay), vehicle: info)
        }
        return SourceVehicles(vehicles: placements, live: state.live(now: now))
    }
}

extension NetworkState {
    /// How current the realtime data is, or nil when no realtime source is configured.
    func live(now: Instant) -> LiveInfo? {
        guard hasRealtime else { return nil }
        let overlay = realtime.overlay
        return LiveInfo(simulated: simulated, updatedAt: overlay.tripUpdatesTimestamp ?? overlay.vehiclesTimestamp,
                        stale: overlay.isStale(now: now, maxAge: maxAge),
                        unavailable: sources.values.sorted { $0.name < $1.name }.compactMap { s in
                            s.consecutiveFailures > 0 ? "\(s.name): \(s.lastError?.message ?? "failing")" : nil
                        })
    }
}

extension Timetable {
    /// The places a traveller picks from: stations, and stops outside any station, by name.
    /// Empty when there are more than `limit` (a big network is searched, not browsed).
    func stationPlaces(limit: Int = 60) -> [StopPlace] {
        var places: [StopPlace] = []
        for stop in allStops {
            let p = place(stop)
            guard p.kind == .station || (p.kind == .stop && p.parentID == nil) else { continue }
            places.append(p)
            if places.count > limit { return [] }
        }
        return places.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
