/// A line as browsing lists it: the CTA's route 22 "Clark", a GTFS route.
public struct RouteSummary: Sendable, Hashable {
    /// Canonical (`SOURCE:LOCAL`).
    public var id: String
    public var shortName: String
    public var longName: String
    /// `RRGGBB`, when the source gives one.
    public var color: String?

    public init(id: String, shortName: String, longName: String, color: String? = nil) {
        self.id = id; self.shortName = shortName; self.longName = longName; self.color = color
    }
}

/// One direction of a route ("Northbound"; a GTFS direction_id with its headsign).
public struct RouteDirection: Sendable, Hashable {
    /// What the source takes back to list the direction's stops ("Northbound", "0").
    public var id: String
    public var name: String

    public init(id: String, name: String) { self.id = id; self.name = name }
}

/// A vehicle a source can place, with the service it runs.
public struct VehiclePlacement: Sendable, Hashable {
    /// Canonical IDs, when known.
    public var tripID: String?
    public var routeID: String?
    public var routeShortName: String?
    public var headsign: String?
    public var serviceDate: ServiceDate?
    public var vehicle: VehicleInfo

    public init(tripID: String?, routeID: String?, routeShortName: String?, headsign: String? = nil,
                serviceDate: ServiceDate?, vehicle: VehicleInfo) {
        self.tripID = tripID; self.routeID = routeID; self.routeShortName = routeShortName
        self.headsign = headsign; self.serviceDate = serviceDate; self.vehicle = vehicle
    }
}
