/// A decoded GTFS-Realtime `FeedMessage`: its header, its trip updates as
/// plain records (the bulk of every feed, read by the fast wire decoder), and
/// every other entity (vehicle positions, alerts) as SwiftProtobuf decodes them.
public struct RealtimeMessage: Sendable {
    public var version = ""
    public var isFullDataset = true
    public var timestamp: UInt64?
    /// Every entity in the message, of any kind.
    public var entityCount = 0
    public var tripUpdates: [TripUpdateRecord] = []
    /// The header and the entities that are not trip updates.
    public var others = TransitRealtime_FeedMessage()

    public init() {}

    /// Converts a SwiftProtobuf message (built in code, or decoded by SwiftProtobuf).
    public init(_ message: TransitRealtime_FeedMessage) {
        version = message.header.gtfsRealtimeVersion
        isFullDataset = message.header.incrementality == .fullDataset
        timestamp = message.header.hasTimestamp ? message.header.timestamp : nil
        entityCount = message.entity.count
        tripUpdates = message.entity.filter(\.hasTripUpdate).map(TripUpdateRecord.init)
        others.header = message.header
        others.entity = message.entity.filter { !$0.hasTripUpdate || $0.hasVehicle || $0.hasAlert }
    }

    public var hasVehicles: Bool { others.entity.contains(where: \.hasVehicle) }
    public var hasAlerts: Bool { others.entity.contains(where: \.hasAlert) }
}
