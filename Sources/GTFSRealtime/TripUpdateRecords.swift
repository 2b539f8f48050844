import OnwardCore

/// A trip update as the applier reads it: plain values, no protobuf storage.
///
/// The fast wire decoder (`RealtimeWireDecoder`) fills these straight from the
/// bytes; `init(_:)` converts a SwiftProtobuf message (tests, the simulation).
public struct TripUpdateRecord: Sendable, Hashable {
    public var entityID = ""
    public var isDeleted = false
    public var tripID: String?
    public var routeID: String?
    public var directionID: UInt32?
    public var startTime: String?
    public var startDate: String?
    public var relationship: TransitRealtime_TripDescriptor.ScheduleRelationship = .scheduled
    public var vehicleID: String?
    public var vehicleLabel: String?
    public var timestamp: UInt64?
    /// The trip-level delay, which applies where no stop time update says otherwise.
    public var delay: Int32?
    public var tripHeadsign: String?
    public var stopTimeUpdates: [StopTimeUpdateRecord] = []

    public init() {}
}

public struct StopTimeUpdateRecord: Sendable, Hashable {
    public var stopSequence: UInt32?
    public var stopID: String?
    public var arrival: StopTimeEventRecord?
    public var departure: StopTimeEventRecord?
    public var relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship = .scheduled
    /// A platform change: the stop the call now uses.
    public var assignedStopID: String?
    /// How full the vehicle is expected to be leaving this stop (`departure_occupancy_status`).
    public var departureOccupancy: Occupancy.Level?

    public init() {}
}

public struct StopTimeEventRecord: Sendable, Hashable {
    public var delay: Int32?
    public var time: Int64?

    public init(delay: Int32? = nil, time: Int64? = nil) {
        self.delay = delay; self.time = time
    }

    /// The absolute time, when the producer gave a usable one.
    var absoluteTime: Int64? { time.flatMap { $0 > 0 ? $0 : nil } }
}

extension TripUpdateRecord {
    public init(_ entity: TransitRealtime_FeedEntity) {
        self.init()
        entityID = entity.id
        isDeleted = entity.isDeleted
        let u = entity.tripUpdate, d = u.trip
        if d.hasTripID { tripID = d.tripID }
        if d.hasRouteID { routeID = d.routeID }
        if d.hasDirectionID { directionID = d.directionID }
        if d.hasStartTime { startTime = d.startTime }
        if d.hasStartDate { startDate = d.startDate }
        relationship = d.scheduleRelationship
        if u.hasVehicle {
            if u.vehicle.hasID { vehicleID = u.vehicle.id }
            if u.vehicle.hasLabel { vehicleLabel = u.vehicle.label }
        }
        if u.hasTimestamp { timestamp = u.timestamp }
        if u.hasDelay { delay = u.delay }
        if u.hasTripProperties, u.tripProperties.hasTripHeadsign { tripHeadsign = u.tripProperties.tripHeadsign }
        stopTimeUpdates = u.stopTimeUpdate.map(StopTimeUpdateRecord.init)
    }
}

extension StopTimeUpdateRecord {
    public init(_ s: TransitRealtime_TripUpdate.StopTimeUpdate) {
        self.init()
        if s.hasStopSequence { stopSequence = s.stopSequence }
        if s.hasStopID { stopID = s.stopID }
        if s.hasArrival { arrival = StopTimeEventRecord(s.arrival) }
        if s.hasDeparture { departure = StopTimeEventRecord(s.departure) }
        relationship = s.scheduleRelationship
        if s.hasStopTimeProperties, s.stopTimeProperties.hasAssignedStopID { assignedStopID = s.stopTimeProperties.assignedStopID }
        if s.hasDepartureOccupancyStatus { departureOccupancy = Occupancy.Level(gtfsRealtime: s.departureOccupancyStatus.rawValue) }
    }
}

extension StopTimeEventRecord {
    init(_ e: TransitRealtime_TripUpdate.StopTimeEvent) {
        self.init(delay: e.hasDelay ? e.delay : nil, time: e.hasTime ? e.time : nil)
    }
}
