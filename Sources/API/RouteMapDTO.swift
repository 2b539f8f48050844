import Foundation
import OnwardCore

/// `GET /api/v1/routes/{routeId}/map`: the route's lines for a map, one per direction.
public struct RouteMapDTO: Codable, Sendable, Equatable {
    public struct LineDTO: Codable, Sendable, Equatable {
        public var directionId: String
        public var name: String
        /// The way it goes as an encoded polyline (Google's format, five decimals), when the source has the feed's
        /// shape; without it a map joins the stops.
        public var shape: String?
        public var stops: [StopDTO]

        public init(_ l: RouteLine) {
            directionId = l.directionID; name = l.name; shape = l.shape?.encodedPolyline; stops = l.stops.map(StopDTO.init)
        }
    }

    public var route: RouteDTO
    public var lines: [LineDTO]

    public init(route: RouteSummary, lines: [RouteLine]) { self.route = RouteDTO(route); self.lines = lines.map(LineDTO.init) }
}

/// `GET /api/v1/routes/{routeId}/vehicles` and the live channel `route=…`: the route's vehicles on their way now.
public struct RouteVehiclesDTO: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public struct NextStopDTO: Codable, Sendable, Equatable {
            public var stopId: String
            public var name: String?
            /// When it is due there (ISO 8601 with the route's offset): the live time, else the timetable's.
            public var due: String?
            public var delaySeconds: Int?
            /// It is at this stop now, not on its way to it.
            public var atStop: Bool

            public init(stopId: String, name: String?, due: String?, delaySeconds: Int?, atStop: Bool) {
                self.stopId = stopId; self.name = name; self.due = due; self.delaySeconds = delaySeconds; self.atStop = atStop
            }
        }

        public var tripId: String?
        public var serviceDate: String?
        public var headsign: String?
        public var latitude: Double
        public var longitude: Double
        /// `position` (the feed's vehicle position) or `liveTimes` (placed between its calls by its live times, for a
        /// feed with no positions): say which wherever it is shown.
        public var basis: String
        public var vehicle: VehicleDTO?
        public var next: NextStopDTO?

        public init(_ v: RouteVehicle, timeZone: TimeZone) {
            tripId = v.tripID; serviceDate = v.serviceDate?.isoString; headsign = v.headsign
            latitude = v.latitude; longitude = v.longitude; basis = v.basis.rawValue
            vehicle = v.vehicle.map(VehicleDTO.init)
            next = v.next.map { n in
                NextStopDTO(stopId: n.stopID, name: n.name, due: n.due.map { LocalTime($0, in: timeZone).iso8601 }, delaySeconds: n.delaySeconds,
                            atStop: n.atStop)
            }
        }
    }

    public var routeId: String
    public var live: LiveDTO?
    public var timeZone: String
    public var vehicles: [Item]

    public init(routeId: String, vehicles: [RouteVehicle], timeZone: String, live: LiveDTO?) {
        self.routeId = routeId
        self.live = live
        self.timeZone = timeZone
        let zone = TimeZone.named(timeZone)
        self.vehicles = vehicles.map { Item($0, timeZone: zone) }
    }
}
