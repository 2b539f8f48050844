/// Whether passengers may board or alight at a call (GTFS pickup_type / drop_off_type).
public enum BoardingRule: UInt8, Sendable, Codable, CaseIterable {
    case regular = 0
    case none = 1
    case phoneAgency = 2
    case coordinateWithDriver = 3

    public var allowsPassengers: Bool { self != .none }
}

/// One row of a departures or arrivals board, in the timetable's terms.
public struct BoardEntry: Sendable, Hashable {
    public var tripID: String
    public var routeID: String
    public var routeShortName: String
    public var routeLongName: String
    public var routeColor: String?
    public var headsign: String
    public var stopID: String
    public var stopName: String
    public var platform: String?
    public var serviceDate: ServiceDate
    /// The scheduled time of this event (departure on a departures board, arrival on an arrivals board).
    public var scheduled: Instant
    /// The time zone the stop shows its times in.
    public var timeZone: String
    /// For a departures board filtered by destination: when the service arrives there.
    public var destinationArrival: Instant?
    public var destinationStopID: String?
    /// For frequency-based trips: the headway, and whether the times are exact (exact_times=1).
    public var headwaySeconds: Int?
    public var exactTimes: Bool
    /// Where the service starts: what an arrivals board shows as "from".
    public var origin: String
    /// For a frequency-based trip: the start time (GTFS `HH:MM:SS`) of this run, which identifies it.
    public var startTime: String?
    /// Live data: the expected time of this event, when known.
    public var expected: Instant?
    public var status: LiveStatus = .scheduled
    /// Expected minus scheduled, when known.
    public var delaySeconds: Int?
    /// Set when realtime data moved this call to another platform.
    public var platformChanged = false
    /// A trip that realtime data added to the timetable.
    public var isAddedTrip = false
    /// False for a source that knows only predictions (the CTA bus tracker): `scheduled`
    /// then holds the predicted time and is not shown as a timetable time.
    public var hasScheduledTime = true
    /// The operator's name, when the source gives one per row (National Rail: "Southern").
    public var operatorName: String?
    /// Why the service is late or cancelled, in the source's words.
    public var reason: String?
    /// Every place the service calls at after (departures) or before (arrivals) this
    /// stop, when the source includes them on the board (Darwin's WithDetails boards).
    public var callingAt: [CallingPoint]?
    /// How full the vehicle is, when a live source says (`RealtimeOverlay.occupancy`).
    public var occupancy: Occupancy?
    /// How late this route usually is here at this hour, where there is history enough (`DelayHistoryBook`).
    public var usualDelay: UsualDelay?

    public init(tripID: String, routeID: String, routeShortName: String, routeLongName: String, routeColor: String?,
                headsign: String, stopID: String, stopName: String, platform: String?, serviceDate: ServiceDate,
                scheduled: Instant, timeZone: String, destinationArrival: Instant? = nil, destinationStopID: String? = nil,
                headwaySeconds: Int? = nil, exactTimes: Bool = true, origin: String) {
        self.tripID = tripID; self.routeID = routeID; self.routeShortName = routeShortName
        self.routeLongName = routeLongName; self.routeColor = routeColor; self.headsign = headsign
        self.stopID = stopID; self.stopName = stopName; self.platform = platform; self.serviceDate = serviceDate
        self.scheduled = scheduled; self.timeZone = timeZone; self.destinationArrival = destinationArrival
        self.destinationStopID = destinationStopID; self.headwaySeconds = headwaySeconds
        self.exactTimes = exactTimes; self.origin = origin
    }
}

/// One calling point of a service on a service date.
public struct CallingPoint: Sendable, Hashable {
    public var stopID: String
    public var stopName: String
    public var platform: String?
    public var stopSequence: Int
    public var scheduledArrival: Instant
    public var scheduledDeparture: Instant
    public var timeZone: String
    public var pickup: BoardingRule
    public var dropOff: BoardingRule
    /// False where the time was interpolated between timepoints.
    public var isTimepoint: Bool
    public var stopHeadsign: String?
    /// Live data for this call.
    public var expectedArrival: Instant?
    public var expectedDeparture: Instant?
    public var status: LiveStatus = .scheduled
    public var delaySeconds: Int?
    public var platformChanged = false
    /// How full the vehicle is expected to be leaving this call, when the live source forecasts it.
    public var occupancy: Occupancy?
    /// How late the service's route usually is at this call at this hour, where there is history enough.
    public var usualDelay: UsualDelay?
    /// Where the stop is, when the source knows (for the service's map).
    public var latitude: Double?
    public var longitude: Double?

    public init(stopID: String, stopName: String, platform: String?, stopSequence: Int, scheduledArrival: Instant,
                scheduledDeparture: Instant, timeZone: String, pickup: BoardingRule, dropOff: BoardingRule,
                isTimepoint: Bool, stopHeadsign: String?) {
        self.stopID = stopID; self.stopName = stopName; self.platform = platform; self.stopSequence = stopSequence
        self.scheduledArrival = scheduledArrival; self.scheduledDeparture = scheduledDeparture; self.timeZone = timeZone
        self.pickup = pickup; self.dropOff = dropOff; self.isTimepoint = isTimepoint; self.stopHeadsign = stopHeadsign
    }
}

/// Every calling point of one trip on one service date.
public struct ServiceDetails: Sendable, Hashable {
    public var tripID: String
    public var routeID: String
    public var routeShortName: String
    public var routeLongName: String
    public var headsign: String
    public var serviceDate: ServiceDate
    public var calls: [CallingPoint]
    public var headwaySeconds: Int?
    /// Live data: whether the whole service is cancelled, and where its vehicle is.
    public var isCancelled = false
    public var vehicle: VehicleInfo?
    /// The operator's name, when the source gives one (National Rail: "Southern").
    public var operatorName: String?
    /// Why the service is late or cancelled, in the source's words.
    public var reason: String?
    /// Portions of a train that divides (or joins): each runs on from `afterStopID`
    /// with calls of its own, beside `calls`, which follow the main portion.
    public var branches: [ServiceBranch] = []
    /// The route's colour (hex, as GTFS gives it), when the source has one.
    public var routeColor: String?
    /// The way the vehicle goes (the feed's shape), when the source has one; the map joins the calls without it.
    public var shape: [PathPoint]?

    public init(tripID: String, routeID: String, routeShortName: String, routeLongName: String, headsign: String,
                serviceDate: ServiceDate, calls: [CallingPoint], headwaySeconds: Int? = nil) {
        self.tripID = tripID; self.routeID = routeID; self.routeShortName = routeShortName
        self.routeLongName = routeLongName; self.headsign = headsign; self.serviceDate = serviceDate
        self.calls = calls; self.headwaySeconds = headwaySeconds
    }
}

/// One portion of a dividing train after the point where it divides.
public struct ServiceBranch: Sendable, Hashable {
    /// The last call shared with the main portion.
    public var afterStopID: String
    public var headsign: String
    public var calls: [CallingPoint]

    public init(afterStopID: String, headsign: String, calls: [CallingPoint]) {
        self.afterStopID = afterStopID; self.headsign = headsign; self.calls = calls
    }
}

/// What kind of place a stop is (GTFS location_type).
public enum StopKind: UInt8, Sendable, Codable {
    case stop = 0, station = 1, entrance = 2, genericNode = 3, boardingArea = 4

    public var name: String {
        switch self {
        case .stop: "stop"
        case .station: "station"
        case .entrance: "entrance"
        case .genericNode: "node"
        case .boardingArea: "boarding area"
        }
    }
}

/// A stop or station as search and nearby results show it.
public struct StopPlace: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var code: String?
    public var kind: StopKind
    public var latitude: Double
    public var longitude: Double
    public var parentID: String?
    public var platform: String?
    public var timeZone: String
    /// Metres from the query point, for nearby searches.
    public var distance: Double?

    public init(id: String, name: String, code: String?, kind: StopKind, latitude: Double, longitude: Double,
                parentID: String?, platform: String?, timeZone: String, distance: Double? = nil) {
        self.id = id; self.name = name; self.code = code; self.kind = kind; self.latitude = latitude
        self.longitude = longitude; self.parentID = parentID; self.platform = platform; self.timeZone = timeZone
        self.distance = distance
    }
}
