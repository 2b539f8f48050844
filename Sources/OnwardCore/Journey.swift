/// One way from A to B: rides on services and walks between them, in order.
public struct Journey: Sendable, Hashable, Codable {
    public var legs: [JourneyLeg]

    public init(legs: [JourneyLeg]) { self.legs = legs }

    /// When the traveller leaves the origin: live where known, else the timetable's.
    public var departure: Instant { legs.first?.departure ?? Instant(epochSeconds: 0) }
    /// When the traveller reaches the destination: live where known, else the timetable's.
    public var arrival: Instant { legs.last?.arrival ?? Instant(epochSeconds: 0) }
    public var durationSeconds: Int { Int(arrival.epochSeconds - departure.epochSeconds) }
    public var rides: [TransitLeg] { legs.compactMap { if case .transit(let t) = $0 { t } else { nil } } }
    /// Changes of vehicle: a ride stayed on into is not one.
    public var transfers: Int { max(rides.filter { $0.staysSeated != true }.count - 1, 0) }
}

public enum JourneyLeg: Sendable, Hashable, Codable {
    case transit(TransitLeg)
    case walk(WalkLeg)

    public var departure: Instant {
        switch self {
        case .transit(let t): t.expectedDeparture ?? t.departure
        case .walk(let w): w.departure
        }
    }

    public var arrival: Instant {
        switch self {
        case .transit(let t): t.expectedArrival ?? t.arrival
        case .walk(let w): w.departure.adding(seconds: Int64(w.seconds))
        }
    }
}

/// A stop a leg starts or ends at (or passes).
public struct JourneyStop: Sendable, Hashable, Codable {
    public var stopID: String
    public var name: String
    public var platform: String?
    /// The time zone the stop shows its times in.
    public var timeZone: String
    public var latitude: Double
    public var longitude: Double
    /// The station the stop is a platform of, if any: arriving means reaching it.
    public var stationID: String?

    public init(stopID: String, name: String, platform: String?, timeZone: String, latitude: Double, longitude: Double,
                stationID: String? = nil) {
        self.stopID = stopID; self.name = name; self.platform = platform; self.timeZone = timeZone
        self.latitude = latitude; self.longitude = longitude; self.stationID = stationID
    }
}

/// A call a ride passes between where it is boarded and where it is left.
public struct JourneyCall: Sendable, Hashable, Codable {
    public var stop: JourneyStop
    public var departure: Instant
    public var expectedDeparture: Instant?

    public init(stop: JourneyStop, departure: Instant, expectedDeparture: Instant? = nil) {
        self.stop = stop; self.departure = departure; self.expectedDeparture = expectedDeparture
    }
}

/// A ride on one run of a service, from one of its calls to a later one.
public struct TransitLeg: Sendable, Hashable, Codable {
    public var tripID: String
    public var routeID: String
    public var routeShortName: String
    public var routeLongName: String
    public var routeColor: String?
    /// The GTFS `route_type` (basic or extended) of its route, when the source knows it: how fast it can go.
    public var routeType: Int?
    public var headsign: String
    public var serviceDate: ServiceDate
    /// For a frequency-based trip: the start time of this run, in seconds of its service day (past 24 h
    /// for a run after midnight), as `SourceServiceRequest.startTime` takes it.
    public var startTime: Int?
    public var from: JourneyStop
    public var to: JourneyStop
    /// The calls passed on the way, in order.
    public var calls: [JourneyCall] = []
    /// The timetable's times.
    public var departure: Instant
    public var arrival: Instant
    /// Live times, when a realtime source has them.
    public var expectedDeparture: Instant?
    public var expectedArrival: Instant?
    public var status: LiveStatus
    /// The way the vehicle goes from `from` to `to` (the feed's shapes), when a commute asked its source for it
    /// (`Queries.withPaths`); nil: straight lines between the calls. Never in a journey answer.
    public var path: [PathPoint]?
    /// Where the vehicle was last reported (GTFS-Realtime vehicle positions), when its source has it: commuting
    /// mode places the vehicle by it. Never in a journey answer.
    public var vehicle: VehicleReport?
    /// Set when the traveller stays on board from the ride before: the vehicle goes on as this trip (GTFS block_id,
    /// or transfers.txt type 4). It is not a change.
    public var staysSeated: Bool?
    /// Set for a trip the realtime feed added (not in the timetable): its times are the live data's.
    public var isAddedTrip: Bool?
    /// How full the vehicle is where it is boarded, when a live source said so at planning (`RealtimeOverlay.occupancy`).
    public var occupancy: Occupancy?
    /// How late this route usually arrives where the ride ends, at that hour, where there is history enough: what a
    /// change after it must allow for (`Journey.changes`).
    public var usualArrival: UsualDelay?

    public init(tripID: String, routeID: String, routeShortName: String, routeLongName: String, routeColor: String?,
                headsign: String, serviceDate: ServiceDate, startTime: Int?, from: JourneyStop, to: JourneyStop,
                departure: Instant, arrival: Instant, expectedDeparture: Instant? = nil, expectedArrival: Instant? = nil,
                status: LiveStatus = .scheduled) {
        self.tripID = tripID; self.routeID = routeID; self.routeShortName = routeShortName; self.routeLongName = routeLongName
        self.routeColor = routeColor; self.headsign = headsign; self.serviceDate = serviceDate; self.startTime = startTime
        self.from = from; self.to = to; self.departure = departure; self.arrival = arrival
        self.expectedDeparture = expectedDeparture; self.expectedArrival = expectedArrival; self.status = status
    }
}

extension TransitLeg {
    private enum CodingKeys: String, CodingKey {
        case tripID, routeID, routeShortName, routeLongName, routeColor, routeType, headsign, serviceDate, startTime, from, to, calls
        case departure, arrival, expectedDeparture, expectedArrival, status, path, vehicle, occupancy, usualArrival
    }

    /// Reads a ride as kept (a commute in progress keeps its journey): `startTime` in seconds, or as the
    /// GTFS `HH:MM:SS` text that commutes stored before it was seconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let start: Int?
        if let text = try? c.decodeIfPresent(String.self, forKey: .startTime) {
            guard let seconds = GTFSTime.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: .startTime, in: c, debugDescription: "startTime '\(text)' is not a GTFS time")
            }
            start = Int(seconds)
        } else {
            start = try c.decodeIfPresent(Int.self, forKey: .startTime)
        }
        self.init(tripID: try c.decode(String.self, forKey: .tripID), routeID: try c.decode(String.self, forKey: .routeID),
                  routeShortName: try c.decode(String.self, forKey: .routeShortName), routeLongName: try c.decode(String.self, forKey: .routeLongName),
                  routeColor: try c.decodeIfPresent(String.self, forKey: .routeColor), headsign: try c.decode(String.self, forKey: .headsign),
                  serviceDate: try c.decode(ServiceDate.self, forKey: .serviceDate), startTime: start,
                  from: try c.decode(JourneyStop.self, forKey: .from), to: try c.decode(JourneyStop.self, forKey: .to),
                  departure: try c.decode(Instant.self, forKey: .departure), arrival: try c.decode(Instant.self, forKey: .arrival),
                  expectedDeparture: try c.decodeIfPresent(Instant.self, forKey: .expectedDeparture),
                  expectedArrival: try c.decodeIfPresent(Instant.self, forKey: .expectedArrival),
                  status: try c.decode(LiveStatus.self, forKey: .status))
        calls = try c.decodeIfPresent([JourneyCall].self, forKey: .calls) ?? []
        routeType = try c.decodeIfPresent(Int.self, forKey: .routeType)
        if let text = try c.decodeIfPresent(String.self, forKey: .path) {
            guard let points = [PathPoint](encodedPolyline: text) else {
                throw DecodingError.dataCorruptedError(forKey: .path, in: c, debugDescription: "path is not an encoded polyline")
            }
            path = points
        }
        vehicle = try c.decodeIfPresent(VehicleReport.self, forKey: .vehicle)
        occupancy = try c.decodeIfPresent(Occupancy.self, forKey: .occupancy)
        usualArrival = try c.decodeIfPresent(UsualDelay.self, forKey: .usualArrival)
    }

    /// A ride as kept: its path as an encoded polyline (`[PathPoint].encodedPolyline`), the rest as its fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tripID, forKey: .tripID)
        try c.encode(routeID, forKey: .routeID)
        try c.encode(routeShortName, forKey: .routeShortName)
        try c.encode(routeLongName, forKey: .routeLongName)
        try c.encodeIfPresent(routeColor, forKey: .routeColor)
        try c.encodeIfPresent(routeType, forKey: .routeType)
        try c.encode(headsign, forKey: .headsign)
        try c.encode(serviceDate, forKey: .serviceDate)
        try c.encodeIfPresent(startTime, forKey: .startTime)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(calls, forKey: .calls)
        try c.encode(departure, forKey: .departure)
        try c.encode(arrival, forKey: .arrival)
        try c.encodeIfPresent(expectedDeparture, forKey: .expectedDeparture)
        try c.encodeIfPresent(expectedArrival, forKey: .expectedArrival)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(path?.encodedPolyline, forKey: .path)
        try c.encodeIfPresent(vehicle, forKey: .vehicle)
        try c.encodeIfPresent(occupancy, forKey: .occupancy)
        try c.encodeIfPresent(usualArrival, forKey: .usualArrival)
    }
}

/// Where a vehicle was, and when.
public struct VehicleReport: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var at: Instant

    public init(latitude: Double, longitude: Double, at: Instant) { self.latitude = latitude; self.longitude = longitude; self.at = at }
}

/// A point of the way a vehicle goes.
public struct PathPoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// A walk between two stops (or a change of platform), in whole seconds.
public struct WalkLeg: Sendable, Hashable, Codable {
    public var from: JourneyStop
    public var to: JourneyStop
    public var departure: Instant
    public var seconds: Int

    public init(from: JourneyStop, to: JourneyStop, departure: Instant, seconds: Int) {
        self.from = from; self.to = to; self.departure = departure; self.seconds = seconds
    }
}

extension JourneyLeg {
    public var fromStop: JourneyStop {
        switch self {
        case .transit(let t): t.from
        case .walk(let w): w.from
        }
    }

    public var toStop: JourneyStop {
        switch self {
        case .transit(let t): t.to
        case .walk(let w): w.to
        }
    }
}
