/// The kinds of GTFS-Realtime data a feed may publish, each usually at its own URL.
public enum RealtimeKind: String, Sendable, Hashable, Codable, CaseIterable {
    case tripUpdates, vehiclePositions, alerts
}

/// Where one feed's realtime data comes from. Any of the three may be absent
/// (many agencies publish alerts only, or no vehicle positions).
public struct RealtimeEndpoints: Sendable, Hashable, Codable {
    /// The feed these belong to (its ID prefix or name in configuration).
    public var feed: String
    public var tripUpdates: FeedLocation?
    public var vehiclePositions: FeedLocation?
    public var alerts: FeedLocation?

    public init(feed: String, tripUpdates: FeedLocation? = nil, vehiclePositions: FeedLocation? = nil,
                alerts: FeedLocation? = nil) {
        self.feed = feed; self.tripUpdates = tripUpdates; self.vehiclePositions = vehiclePositions; self.alerts = alerts
    }

    /// The location for one kind, if configured.
    public subscript(kind: RealtimeKind) -> FeedLocation? {
        get {
            switch kind {
            case .tripUpdates: tripUpdates
            case .vehiclePositions: vehiclePositions
            case .alerts: alerts
            }
        }
        set {
            switch kind {
            case .tripUpdates: tripUpdates = newValue
            case .vehiclePositions: vehiclePositions = newValue
            case .alerts: alerts = newValue
            }
        }
    }

    /// The configured kinds and their locations, in `RealtimeKind` order: one poller each.
    public var configured: [(kind: RealtimeKind, location: FeedLocation)] {
        RealtimeKind.allCases.compactMap { kind in self[kind].map { (kind, $0) } }
    }

    /// Whether no realtime location is configured at all (the feed is timetable-only).
    public var isEmpty: Bool { configured.isEmpty }
}
