import Foundation

/// One direction of a route on its map: the pattern most of its trips follow.
public struct RouteLine: Sendable, Hashable {
    public var directionID: String
    /// For people ("to Bundaran HI").
    public var name: String
    /// The feed's shape of a trip on it, or nil where the source has none (the map joins the stops then).
    public var shape: [PathPoint]?
    public var stops: [StopPlace]

    public init(directionID: String, name: String, shape: [PathPoint]?, stops: [StopPlace]) {
        self.directionID = directionID; self.name = name; self.shape = shape; self.stops = stops
    }
}

/// A vehicle on its way along a route, where it is and where it goes next.
public struct RouteVehicle: Sendable, Hashable {
    /// Where a vehicle's place on the map comes from.
    public enum Basis: String, Sendable, Hashable {
        /// The feed's vehicle position.
        case position
        /// Worked out from the service's live times (`ServiceDetails.placedByLiveTimes`): the feed gives no positions.
        case liveTimes
    }

    /// The call a vehicle is at or on its way to.
    public struct NextStop: Sendable, Hashable {
        public var stopID: String
        public var name: String?
        /// When it is due there (standing at it: when it leaves): the live time, else the timetable's; nil where the
        /// source gives neither.
        public var due: Instant?
        public var delaySeconds: Int?
        public var atStop: Bool

        public init(stopID: String, name: String?, due: Instant?, delaySeconds: Int? = nil, atStop: Bool) {
            self.stopID = stopID; self.name = name; self.due = due; self.delaySeconds = delaySeconds; self.atStop = atStop
        }
    }

    public var tripID: String?
    public var serviceDate: ServiceDate?
    public var headsign: String?
    public var latitude: Double
    public var longitude: Double
    public var basis: Basis
    /// What the feed says of the vehicle itself (label, bearing, how full), when it says anything.
    public var vehicle: VehicleInfo?
    public var next: NextStop?

    public init(tripID: String?, serviceDate: ServiceDate?, headsign: String?, latitude: Double, longitude: Double, basis: Basis,
                vehicle: VehicleInfo?, next: NextStop?) {
        self.tripID = tripID; self.serviceDate = serviceDate; self.headsign = headsign; self.latitude = latitude
        self.longitude = longitude; self.basis = basis; self.vehicle = vehicle; self.next = next
    }
}
