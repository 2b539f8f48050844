import Foundation
import OnwardCore

/// The JSON shapes of boards, services and stops: one set of wire types for the
/// CLI's `--json` and the HTTP API, so the two never drift apart.
public struct StopDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var code: String?
    public var kind: String
    public var latitude: Double
    public var longitude: Double
    public var parentId: String?
    public var platform: String?
    public var timeZone: String
    public var distanceMetres: Double?

    public init(_ p: StopPlace) {
        id = p.id; name = p.name; code = p.code; kind = p.kind.name; latitude = p.latitude; longitude = p.longitude
        parentId = p.parentID; platform = p.platform; timeZone = p.timeZone; distanceMetres = p.distance
    }
}

public struct BoardEntryDTO: Codable, Sendable, Equatable {
    public var tripId: String
    public var routeId: String
    public var routeShortName: String
    public var routeLongName: String
    public var routeColor: String?
    public var headsign: String
    public var origin: String
    public var stopId: String
    public var stopName: String
    public var platform: String?
    public var serviceDate: String
    public var scheduledDeparture: String?
    public var scheduledArrival: String?
    public var arrivalAtDestination: String?
    public var destinationStopId: String?
    public var departureFromOrigin: String?
    public var originStopId: String?
    public var headwaySeconds: Int?
    public var exactTimes: Bool?
    public var startTime: String?
    public var expectedDeparture: String?
    public var expectedArrival: String?
    /// scheduled, noLiveData, onTime, late, early, cancelled, skipped, departed.
    public var status: String
    public var delaySeconds: Int?
    public var platformChanged: Bool?
    public var addedTrip: Bool?
    /// IDs of the alerts (in the board's `alerts`) about this service's route or trip.
    public var alerts: [String]?
    /// The operator, when the source names one per service (National Rail).
    public var operatorName: String?
    /// Why the service is late or cancelled, in the source's words.
    public var reason: String?
    /// The calls after this stop (before it, on an arrivals board), when the source gives them with the board.
    public var callingAt: [CallingAtDTO]?
    /// How full the vehicle is, when a live source says.
    public var occupancy: OccupancyDTO?
    /// How late this route usually is here at this hour, where there is history enough.
    public var usualDelay: UsualDelayDTO?

    public init(_ e: BoardEntry, arrivals: Bool, alerts: [String]? = nil) {
        self.alerts = alerts
        operatorName = e.operatorName
        reason = e.reason
        callingAt = e.callingAt.map { $0.map(CallingAtDTO.init) }
        occupancy = e.occupancy.map(OccupancyDTO.init)
        usualDelay = e.usualDelay.map(UsualDelayDTO.init)
        tripId = e.tripID; routeId = e.routeID; routeShortName = e.routeShortName; routeLongName = e.routeLongName
        routeColor = e.routeColor; headsign = e.headsign; origin = e.origin; stopId = e.stopID; stopName = e.stopName
        platform = e.platform; serviceDate = e.serviceDate.isoString
        let zone = TimeZone.named(e.timeZone)
        // A source with predictions only (the bus tracker) has no timetable time to show.
        if e.hasScheduledTime {
            let time = LocalTime(e.scheduled, in: zone).iso8601
            if arrivals { scheduledArrival = time } else { scheduledDeparture = time }
        }
        if let d = e.destinationArrival {
            let t = LocalTime(d, in: zone).iso8601
            if arrivals { departureFromOrigin = t; originStopId = e.destinationStopID } else { arrivalAtDestination = t; destinationStopId = e.destinationStopID }
        }
        if let h = e.headwaySeconds { headwaySeconds = h; exactTimes = e.exactTimes; startTime = e.startTime }
        if let expected = e.expected {
            let t = LocalTime(expected, in: zone).iso8601
            if arrivals { expectedArrival = t } else { expectedDeparture = t }
        }
        status = e.status.rawValue
        delaySeconds = e.delaySeconds
        if e.platformChanged { platformChanged = true }
        if e.isAddedTrip { addedTrip = true }
    }
}

/// A call listed with a board row: where the service goes next (or came from).
public struct CallingAtDTO: Codable, Sendable, Equatable {
    public var stopId: String
    public var stopName: String
    public var scheduled: String
    public var expected: String?
    public var status: String

    public init(_ c: CallingPoint) {
        let zone = TimeZone.named(c.timeZone)
        stopId = c.stopID; stopName = c.stopName
        scheduled = LocalTime(c.scheduledDeparture, in: zone).iso8601
        expected = (c.expectedDeparture ?? c.expectedArrival).map { LocalTime($0, in: zone).iso8601 }
        status = c.status.rawValue
    }
}

public struct BoardDTO: Codable, Sendable, Equatable {
    /// The source that answered (`national-rail`, `cta`), for a source behind the protocol.
    public var source: String?
    /// Its name for people ("National Rail").
    public var sourceName: String?
    /// What that source can answer (`arrivals`, `callingAt`, `anyTime`, …), so a page offers
    /// only what works; absent for the timetable, which answers everything.
    public var sourceCapabilities: [String]?
    /// Why the board is empty, when the source said ("No arrival times").
    public var emptyReason: String?
    public var stop: StopDTO
    public var via: StopDTO?
    public var departures: [BoardEntryDTO]?
    public var arrivals: [BoardEntryDTO]?
    /// How fresh the live data is; absent when no realtime source is configured.
    public var live: LiveDTO?
    /// Station and service alerts: high priority to show above the departures, the rest below.
    public var alerts: BoardAlertsDTO?

    /// Whether the board comes from a source that answers only for its own now (no timetable):
    /// such a board is the upstream's, as of when it made it, and says whose it is.
    public var isLiveOnly: Bool { !(sourceCapabilities?.contains("anyTime") ?? true) }

    public init(stop: StopPlace, via: StopPlace?, entries: [BoardEntry], arrivals: Bool, live: LiveDTO? = nil,
                alerts: BoardAlertsDTO? = nil, entryAlerts: [[String]]? = nil) {
        self.stop = StopDTO(stop)
        self.live = live
        self.alerts = alerts
        self.via = via.map(StopDTO.init)
        let rows = entries.enumerated().map { i, e in BoardEntryDTO(e, arrivals: arrivals, alerts: entryAlerts?[i]) }
        if arrivals { self.arrivals = rows } else { self.departures = rows }
    }
}

/// The state of the live data behind a board or service.
public struct LiveDTO: Codable, Sendable, Equatable {
    /// Demonstration data from `--simulate`, not a real feed.
    public var simulated: Bool
    /// When the trip-update data was made (ISO 8601, UTC), if known.
    public var updatedAt: String?
    /// Older than the configured maximum age: shown as last known.
    public var stale: Bool
    /// Sources that could not be read, with why.
    public var unavailable: [String]

    public init(simulated: Bool, updatedAt: Instant?, stale: Bool, unavailable: [String]) {
        self.simulated = simulated
        self.updatedAt = updatedAt.map { LocalTime($0, in: .gmt).iso8601 }
        self.stale = stale
        self.unavailable = unavailable
    }
}

public struct BoardAlertsDTO: Codable, Sendable, Equatable {
    public var highPriority: [AlertDTO]
    public var other: [AlertDTO]

    public init(highPriority: [AlertDTO], other: [AlertDTO]) { self.highPriority = highPriority; self.other = other }
}

public struct CallDTO: Codable, Sendable, Equatable {
    public var stopId: String
    public var stopName: String
    public var stopSequence: Int
    public var platform: String?
    public var scheduledArrival: String
    public var scheduledDeparture: String
    public var pickup: String
    public var dropOff: String
    public var timepoint: Bool
    public var stopHeadsign: String?
    public var expectedArrival: String?
    public var expectedDeparture: String?
    public var status: String
    public var delaySeconds: Int?
    public var platformChanged: Bool?
    /// How full the vehicle is expected to be leaving this call, when the live source forecasts it.
    public var occupancy: OccupancyDTO?
    /// How late the route usually is at this call at this hour, where there is history enough.
    public var usualDelay: UsualDelayDTO?
    /// Where the stop is, when the source knows.
    public var latitude: Double?
    public var longitude: Double?

    public init(_ c: CallingPoint) {
        let zone = TimeZone.named(c.timeZone)
        stopId = c.stopID; stopName = c.stopName; stopSequence = c.stopSequence; platform = c.platform
        scheduledArrival = LocalTime(c.scheduledArrival, in: zone).iso8601
        scheduledDeparture = LocalTime(c.scheduledDeparture, in: zone).iso8601
        pickup = CallDTO.name(c.pickup); dropOff = CallDTO.name(c.dropOff); timepoint = c.isTimepoint; stopHeadsign = c.stopHeadsign
        expectedArrival = c.expectedArrival.map { LocalTime($0, in: zone).iso8601 }
        expectedDeparture = c.expectedDeparture.map { LocalTime($0, in: zone).iso8601 }
        status = c.status.rawValue
        delaySeconds = c.delaySeconds
        if c.platformChanged { platformChanged = true }
        occupancy = c.occupancy.map(OccupancyDTO.init)
        usualDelay = c.usualDelay.map(UsualDelayDTO.init)
        latitude = c.latitude; longitude = c.longitude
    }

    static func name(_ rule: BoardingRule) -> String {
        switch rule {
        case .regular: "regular"
        case .none: "none"
        case .phoneAgency: "phoneAgency"
        case .coordinateWithDriver: "coordinateWithDriver"
        }
    }
}

public struct ServiceDTO: Codable, Sendable, Equatable {
    public var tripId: String
    public var routeId: String
    public var routeShortName: String
    public var routeLongName: String
    /// The route's colour (hex, without '#'), when the source has one.
    public var routeColor: String?
    public var headsign: String
    public var serviceDate: String
    public var headwaySeconds: Int?
    public var cancelled: Bool?
    public var operatorName: String?
    /// Why the service is late or cancelled, in the source's words.
    public var reason: String?
    /// Portions of a dividing train after the point where it divides.
    public var branches: [BranchDTO]?
    public var source: String?
    /// The time zone the service's times are read in (its agency's).
    public var timeZone: String?
    /// Where the vehicle must be by its live times, when the feed gives no position for it (`ServiceDetails.placedByLiveTimes`).
    public var placedVehicle: PlacedVehicleDTO?
    public var vehicle: VehicleDTO?
    public var live: LiveDTO?
    /// Alerts about this service's route or trip, most severe first.
    public var alerts: [AlertDTO]?
    public var calls: [CallDTO]
    /// The way the vehicle goes, as an encoded polyline (Google's format, five decimals), when the source has the
    /// feed's shape; without it a map joins the calls.
    public var shape: String?

    public init(_ s: ServiceDetails, live: LiveDTO? = nil, alerts: [AlertDTO]? = nil) {
        self.alerts = alerts
        if s.isCancelled { cancelled = true }
        vehicle = s.vehicle.map(VehicleDTO.init)
        self.live = live
        tripId = s.tripID; routeId = s.routeID; routeShortName = s.routeShortName; routeLongName = s.routeLongName
        headsign = s.headsign; serviceDate = s.serviceDate.isoString; headwaySeconds = s.headwaySeconds
        calls = s.calls.map(CallDTO.init)
        shape = s.shape?.encodedPolyline
        operatorName = s.operatorName
        reason = s.reason
        routeColor = s.routeColor
        if !s.branches.isEmpty { branches = s.branches.map(BranchDTO.init) }
    }
}

/// One portion of a dividing train.
public struct BranchDTO: Codable, Sendable, Equatable {
    public var afterStopId: String
    public var headsign: String
    public var calls: [CallDTO]

    public init(_ b: ServiceBranch) {
        afterStopId = b.afterStopID; headsign = b.headsign; calls = b.calls.map(CallDTO.init)
    }
}

public struct VehicleDTO: Codable, Sendable, Equatable {
    public var id: String?
    public var label: String?
    public var latitude: Double?
    public var longitude: Double?
    public var bearing: Double?
    public var speedMetresPerSecond: Double?
    /// incomingAt, stoppedAt or inTransitTo, relative to `stopId`.
    public var stopStatus: String?
    public var stopId: String?
    public var reportedAt: String?
    public var occupancy: OccupancyDTO?

    public init(_ v: VehicleInfo) {
        id = v.vehicleID; label = v.label; latitude = v.latitude; longitude = v.longitude; bearing = v.bearing
        speedMetresPerSecond = v.speed; stopStatus = v.stopStatus?.rawValue; stopId = v.stopID
        reportedAt = v.reportedAt.map { LocalTime($0, in: .gmt).iso8601 }
        occupancy = v.occupancy.map(OccupancyDTO.init)
    }
}

public struct StopsDTO: Codable, Sendable, Equatable {
    public var stops: [StopDTO]
    public init(_ places: [StopPlace]) { stops = places.map(StopDTO.init) }
    public init(stops: [StopDTO]) { self.stops = stops }
}

extension JSONEncoder {
    /// Stable, readable output: sorted keys so golden files compare byte for byte.
    public static var onward: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }
}

/// A vehicle placed by its live times (the feed gives no position): where it must be, the call it is at or on its way to.
public struct PlacedVehicleDTO: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var stopId: String
    public var atStop: Bool
    /// Always `liveTimes`: say so wherever it is shown.
    public var basis: String

    public init(_ p: PlacedVehicle, stopID: String) {
        latitude = p.latitude; longitude = p.longitude; stopId = stopID; atStop = p.atStop; basis = "liveTimes"
    }
}
