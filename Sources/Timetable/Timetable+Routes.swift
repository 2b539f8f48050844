import OnwardCore

/// A strong index of a route in one `Timetable` (see `StopIndex` for why the storage stays `UInt32`).
public struct RouteIndex: Hashable, Sendable {
    public let raw: UInt32
    @inlinable public init(raw: UInt32) { self.raw = raw }
}

/// A route as lists and alerts show it.
public struct RouteInfo: Sendable, Hashable {
    public var id: String
    public var shortName: String
    public var longName: String
    /// GTFS route_type (basic or extended).
    public var type: Int
    public var agencyID: String
    public var color: String?
    public var textColor: String?

    /// What a person calls the route: its short name, else its long name, else its ID.
    public var displayName: String { !shortName.isEmpty ? shortName : !longName.isEmpty ? longName : id }
}

/// An agency of a loaded feed.
public struct AgencyInfo: Sendable, Hashable {
    /// Carries the feed's `name:` prefix; just the prefix when agency.txt gave no ID.
    public var id: String
    public var name: String
    public var timeZone: String
}

extension Timetable {
    /// Every agency, in load order.
    public var agencies: [AgencyInfo] {
        agencyID.indices.map { AgencyInfo(id: agencyID[$0], name: agencyName[$0], timeZone: zoneIDs[Int(agencyZone[$0])]) }
    }

    /// A route by canonical ID, or by local ID when exactly one feed has it (see `lookupRoute(id:)`).
    /// A linear scan: callers that look up many IDs build a dictionary from `routeInfo`.
    public func route(id: String) -> RouteIndex? { lookupRoute(id: id).found }

    /// A route by ID, with the rule of `lookupStop(id:)`.
    public func lookupRoute(id: String) -> IDLookup<RouteIndex> {
        let ids = routeID
        return Self.resolveID(id, feeds: feeds) { ids.firstIndex(of: $0).map(UInt32.init) }.map(RouteIndex.init)
    }

    public func routeInfo(_ route: RouteIndex) -> RouteInfo {
        let r = Int(route.raw)
        return RouteInfo(id: routeID[r], shortName: routeShortName[r], longName: routeLongName[r], type: Int(routeType[r]),
                         agencyID: agencyID[Int(routeAgency[r])],
                         color: routeColor[r].isEmpty ? nil : routeColor[r],
                         textColor: routeTextColor[r].isEmpty ? nil : routeTextColor[r])
    }

    /// The route a trip belongs to.
    public func route(of trip: TripIndex) -> RouteIndex { RouteIndex(raw: tripRoute[Int(trip.raw)]) }

    /// A trip's direction_id (0 or 1), or nil when the feed gave none.
    public func directionID(of trip: TripIndex) -> Int? {
        let d = tripDirection[Int(trip.raw)]
        return d <= 1 ? Int(d) : nil
    }

    /// The station a stop belongs to (its parent_station), if any.
    public func station(of stop: StopIndex) -> StopIndex? {
        let p = stopParent[Int(stop.raw)]
        return p == Timetable.none ? nil : StopIndex(raw: p)
    }

    /// The stops whose parent is `stop`: a station's platforms, entrances and nodes; a platform's boarding areas.
    public func children(of stop: StopIndex) -> [StopIndex] {
        stationChildren[Int(stop.raw)].map(StopIndex.init)
    }

    /// The routes with a scheduled call at `stop` (departures or arrivals, frequency-based trips included),
    /// each once, in index order. Reads the stop's event index, so it costs one pass over its calls.
    public func routes(serving stop: StopIndex) -> [RouteIndex] {
        var seen = Set<UInt32>()
        for index in [departureIndex, arrivalIndex, frequencyDepartureIndex, frequencyArrivalIndex]
        where Int(stop.raw) + 1 < index.start.count {
            for e in index.range(of: stop.raw) { seen.insert(tripRoute[Int(index.trip[e])]) }
        }
        return seen.sorted().map(RouteIndex.init)
    }
}
