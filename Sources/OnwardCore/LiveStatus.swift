/// What a traveller reads beside a time: how the service is running now.
public enum LiveStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// No realtime source is configured: the time is the timetable's.
    case scheduled
    /// A realtime source is configured but says nothing about this service.
    case noLiveData
    case onTime
    case late
    /// Running late by an amount the source does not know (Darwin's "Delayed").
    case delayed
    case early
    case cancelled
    case skipped
    case departed

    /// Within a minute either way counts as on time, as station boards show it.
    public static let onTimeTolerance = 59

    /// The status for a known delay.
    public static func forDelay(_ seconds: Int) -> LiveStatus {
        if seconds > onTimeTolerance { return .late }
        if seconds < -onTimeTolerance { return .early }
        return .onTime
    }
}

/// Where a vehicle is, as its last position report said.
public struct VehicleInfo: Sendable, Hashable {
    public enum StopStatus: String, Sendable, Hashable, Codable {
        case incomingAt, stoppedAt, inTransitTo
    }

    public var vehicleID: String?
    public var label: String?
    public var latitude: Double?
    public var longitude: Double?
    public var bearing: Double?
    /// Metres per second.
    public var speed: Double?
    public var stopStatus: StopStatus?
    /// The stop the status refers to (stopped at it, or on the way to it).
    public var stopID: String?
    /// Its position in the service's calls, when it could be matched.
    public var callIndex: Int?
    public var reportedAt: Instant?
    /// How full it is, as its last report said (with its carriages, where the feed gives them).
    public var occupancy: Occupancy?

    public init(vehicleID: String? = nil, label: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                bearing: Double? = nil, speed: Double? = nil, stopStatus: StopStatus? = nil, stopID: String? = nil,
                callIndex: Int? = nil, reportedAt: Instant? = nil, occupancy: Occupancy? = nil) {
        self.vehicleID = vehicleID; self.label = label; self.latitude = latitude; self.longitude = longitude
        self.bearing = bearing; self.speed = speed; self.stopStatus = stopStatus; self.stopID = stopID
        self.callIndex = callIndex; self.reportedAt = reportedAt; self.occupancy = occupancy
    }
}
