import OnwardCore

/// One `vehicle` of `getvehicles`: where a bus is and what it runs.
public struct CTAVehicle: Sendable, Hashable {
    public var vehicleID: String
    /// When the bus reported its position (`tmstmp`).
    public var reportedAt: Instant
    public var latitude: Double
    public var longitude: Double
    /// Degrees clockwise from north (`hdg`).
    public var heading: Double?
    /// The pattern the bus runs (`pid`).
    public var patternID: String?
    public var route: String
    /// Where the bus is going (`des`).
    public var destination: String?
    /// Feet travelled along the pattern (`pdist`).
    public var patternDistance: Int?
    /// `dly`: the bus is delayed.
    public var isDelayed: Bool
    /// Miles per hour (`spd`).
    public var speedMPH: Int?
    public var blockID: String?
    /// The bus tracker's trip ID (`tatripid`).
    public var tripID: String?
    /// v3 `psgld`.
    public var passengerLoad: String?

    public init(vehicleID: String, reportedAt: Instant, latitude: Double, longitude: Double, heading: Double?, patternID: String?,
                route: String, destination: String?, patternDistance: Int?, isDelayed: Bool, speedMPH: Int?, blockID: String?,
                tripID: String?, passengerLoad: String? = nil) {
        self.vehicleID = vehicleID; self.reportedAt = reportedAt; self.latitude = latitude; self.longitude = longitude
        self.heading = heading; self.patternID = patternID; self.route = route; self.destination = destination
        self.patternDistance = patternDistance; self.isDelayed = isDelayed; self.speedMPH = speedMPH
        self.blockID = blockID; self.tripID = tripID; self.passengerLoad = passengerLoad
    }

    /// The local part of its service's ID, the same rule as `CTAPrediction.serviceLocalID`,
    /// so a bus on a map and its row on a board link to one service.
    public var serviceLocalID: String { tripID ?? "vid-" + vehicleID }

    init?(record r: CTARecord, reference: Instant?) {
        guard let vid = r.text("vid"), let rt = r.text("rt"),
              let stamp = r.text("tmstmp"), let reportedAt = CTATime.instant(stamp, near: reference),
              let lat = r.double("lat"), let lon = r.double("lon"),
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.init(vehicleID: vid, reportedAt: reportedAt, latitude: lat, longitude: lon, heading: r.double("hdg"),
                  patternID: r.text("pid"), route: rt, destination: r.text("des"), patternDistance: r.int("pdist"),
                  isDelayed: r.bool("dly") ?? false, speedMPH: r.int("spd"), blockID: r.text("tablockid"),
                  tripID: r.text("tatripid"), passengerLoad: r.text("psgld"))
    }
}
